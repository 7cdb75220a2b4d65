//! The bytes a bake writes, pinned per setting: each case is baked with the default compact
//! output and with `--quantize off`, and the SHA-256 of each file is compared with
//! `tests/golden/bake_bytes.txt`. The `off` lines were written by the Marionette before 16-bit
//! keys (the float output `--quantize off` keeps, byte for byte); the `on` lines by the first
//! with them. After an intended change of what bakes write, `MARIONETTE_BLESS=1 cargo test
//! --test cli bake_bytes` rewrites the file (and `bake::OUTPUT_REVISION` grows).

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::common::marionette;
use marionette_testkit::TempDir;

/// Name and `bake` arguments (INPUT first) of every pinned bake.
const CASES: &[(&str, &[&str])] = &[
    (
        "locomotion",
        &["scripts/locomotion.lua", "--animation-only"],
    ),
    (
        "locomotion-cubic",
        &[
            "scripts/locomotion.lua",
            "--animation-only",
            "--curves",
            "cubic",
        ],
    ),
    ("mocap", &["scripts/mocap.lua", "--animation-only"]),
    ("stepped", &["scripts/stepped.lua", "--animation-only"]),
    ("puppet", &["scripts/puppet.glb", "--animation-only"]),
    (
        "capture-bvh",
        &["scripts/capture_walk.bvh", "--animation-only"],
    ),
];

#[test]
fn bake_bytes_match_the_golden_per_setting() {
    let dir = TempDir::new("bake-bytes");
    let mut text = String::new();
    for (name, args) in CASES {
        for (setting, extra) in [("on", &[][..]), ("off", &["--quantize", "off"][..])] {
            let out = dir.path().join(format!("{name}-{setting}.glb"));
            let mut all = vec!["bake", "--force", "--quiet", "-o", out.to_str().unwrap()];
            all.extend_from_slice(args);
            all.extend_from_slice(extra);
            let o = marionette(&all);
            assert!(
                o.status.success(),
                "{name} {setting}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let hash = Sha256::digest(std::fs::read(&out).unwrap());
            let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(text, "{name} {setting} {hex}").unwrap();
        }
    }
    let golden = marionette_testkit::repo_root().join("tests/golden/bake_bytes.txt");
    if std::env::var("MARIONETTE_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&golden, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden)
        .unwrap_or_else(|e| panic!("{}: {e} (MARIONETTE_BLESS=1 writes it)", golden.display()));
    for (got, want) in text.lines().zip(want.lines()) {
        assert_eq!(
            got, want,
            "the bytes of a bake changed (see the module docs)"
        );
    }
    assert_eq!(text.lines().count(), want.lines().count());
}
