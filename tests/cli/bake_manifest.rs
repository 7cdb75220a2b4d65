//! `bake --manifest` (issue 36): a manifest's bakes in one process, written with their content
//! keys; three shards bake, between them, exactly what the unsharded manifest bakes (byte for
//! byte); a second run skips every bake whose key holds and re-bakes only what changed (a
//! script, a sidecar edit), `--force` re-bakes all; mistakes are errors at their line.

use std::path::Path;
use std::process::Output;

use crate::common::{marionette_in, repo_root, TempDir};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output, what: &str) -> String {
    assert!(o.status.success(), "{what}: {}", stderr(o));
    stderr(o)
}

/// A folder with the scripts and rigs a manifest names, and the manifest (four bakes).
fn project(dir: &Path) {
    for f in [
        "locomotion.lua",
        "creature.lua",
        "creature.glb",
        "puppet.glb",
        "retarget.lua",
    ] {
        std::fs::copy(repo_root().join("scripts").join(f), dir.join(f)).expect("copy");
    }
    std::fs::write(
        dir.join("bakes.toml"),
        "[defaults]\ntolerance-mm = 0.1\n\n\
         [[bake]]\ninput = \"locomotion.lua\"\noutput = \"out/loco.glb\"\ntake = [\"walk_to_run\"]\n\n\
         [[bake]]\ninput = \"locomotion.lua\"\noutput = \"out/hello.glb\"\ntake = [\"hello\"]\ncurves = \"cubic\"\n\n\
         [[bake]]\ninput = \"creature.lua\"\noutput = \"out/creature.glb\"\n\n\
         [[bake]]\ninput = \"puppet.glb\"\noutput = \"out/puppet.glb\"\nanimation-only = true\n",
    )
    .expect("write the manifest");
}

/// The files under `dir/out`, by name, with their bytes.
fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("out"))
        .expect("out/")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn three_shards_bake_what_the_whole_manifest_bakes() {
    let all = TempDir::new("manifest-all");
    project(&all);
    let said = ok(
        &marionette_in(&all, &["bake", "--manifest", "bakes.toml"]),
        "unsharded",
    );
    assert!(said.contains("4 bakes on"), "{said}");
    let whole = outputs(&all);
    let names: Vec<&str> = whole.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "creature.glb",
            "creature.glb.key",
            "hello.glb",
            "hello.glb.key",
            "loco.glb",
            "loco.glb.key",
            "puppet.glb",
            "puppet.glb.key"
        ]
    );
    // the same bakes, one by one from the command line, write the same bytes
    let single = ok(
        &marionette_in(
            &all,
            &[
                "bake",
                "locomotion.lua",
                "--take",
                "hello",
                "--curves",
                "cubic",
                "-o",
                "hello1.glb",
            ],
        ),
        "single bake",
    );
    assert!(single.is_empty() || !single.contains("error"), "{single}");
    assert_eq!(
        std::fs::read(all.join("hello1.glb")).expect("hello1"),
        std::fs::read(all.join("out/hello.glb")).expect("hello")
    );

    let sharded = TempDir::new("manifest-shards");
    project(&sharded);
    let mut baked = 0;
    for i in 0..3 {
        let shard = format!("{i}/3");
        let said = ok(
            &marionette_in(
                &sharded,
                &["bake", "--manifest", "bakes.toml", "--shard", &shard],
            ),
            &shard,
        );
        baked += said.matches("baked ").count();
    }
    assert_eq!(baked, 4, "every bake in exactly one shard");
    assert!(
        outputs(&sharded) == whole,
        "the union of the shards equals the unsharded bake, keys included"
    );
}

#[test]
fn keys_skip_what_did_not_change() {
    let dir = TempDir::new("manifest-keys");
    project(&dir);
    ok(
        &marionette_in(&dir, &["bake", "--manifest", "bakes.toml"]),
        "first",
    );
    let key = std::fs::read_to_string(dir.join("out/loco.glb.key")).expect("key");
    assert!(key.starts_with("marionette-bake-key 1\n"), "{key}");
    assert!(key.contains(" locomotion.lua\n"), "{key}");
    assert!(
        key.contains("file absent locomotion.marionette.json\n"),
        "{key}"
    );
    assert!(key.contains("\noutput "), "{key}");
    let said = ok(
        &marionette_in(&dir, &["bake", "--manifest", "bakes.toml"]),
        "again",
    );
    assert_eq!(said.matches("up to date").count(), 4, "{said}");
    assert_eq!(said.matches("baked ").count(), 0, "{said}");
    // the script changes: its two bakes are made again, the others stand
    let script = dir.join("locomotion.lua");
    let text = std::fs::read_to_string(&script).expect("script");
    std::fs::write(&script, format!("{text}\n-- edited\n")).expect("edit");
    let said = ok(
        &marionette_in(&dir, &["bake", "--manifest", "bakes.toml"]),
        "edited",
    );
    assert_eq!(said.matches("baked ").count(), 2, "{said}");
    assert!(said.contains("(locomotion.lua changed)"), "{said}");
    // an edited output is made again; --force makes all
    std::fs::write(dir.join("out/puppet.glb"), b"tampered").expect("tamper");
    let said = ok(
        &marionette_in(&dir, &["bake", "--manifest", "bakes.toml"]),
        "tampered",
    );
    assert!(said.contains("baked       out/puppet.glb"), "{said}");
    assert!(said.contains("(out/puppet.glb changed)"), "{said}");
    let said = ok(
        &marionette_in(
            &dir,
            &[
                "bake",
                "--manifest",
                "bakes.toml",
                "--force",
                "--shard",
                "1/2",
            ],
        ),
        "force",
    );
    assert_eq!(said.matches("baked ").count(), 2, "{said}");
    // an output there without a key is not replaced
    std::fs::remove_file(dir.join("out/creature.glb.key")).expect("rm key");
    let o = marionette_in(&dir, &["bake", "--manifest", "bakes.toml"]);
    assert!(!o.status.success());
    let said = stderr(&o);
    assert!(said.contains("pass --force to replace it"), "{said}");
    assert!(
        said.contains("1 of 4 bakes failed: bake 3 (line 15)"),
        "{said}"
    );
}

#[test]
fn manifest_mistakes_are_errors_at_their_line() {
    let dir = TempDir::new("manifest-mistakes");
    project(&dir);
    let cases: [(&str, &[&str], &str); 7] = [
        (
            "[defaults]\ntolerence_mm = 0.2\n[[bake]]\ninput = \"locomotion.lua\"\noutput = \"a.glb\"\n",
            &[],
            "m.toml:2: [defaults]: unexpected argument '--tolerence-mm' found tip: a similar \
             argument exists: '--tolerance-mm'",
        ),
        (
            "[[bake]]\ninput = \"locomotion.lua\"\noutput = \"a.glb\"\nin-place = \"yes\"\n",
            &[],
            "m.toml:4: bake 1: 'in-place' is a flag: give true or false, not a string",
        ),
        (
            "[[bake]]\ninput = \"locomotion.lua\"\noutput = \"a.glb\"\ncurves = \"bent\"\n",
            &[],
            "m.toml:4: bake 1: invalid value 'bent' for '--curves <CURVES>' [possible values: \
             linear, cubic]",
        ),
        (
            "[[bake]]\ninput = \"locomotion.lua\"\noutput = \"a.glb\"\n",
            &["--fps", "30"],
            "--fps is a setting of one bake: with --manifest, give it in the manifest",
        ),
        (
            "[[bake]]\ninput = \"locomotion.lua\"\noutput = \"a.glb\"\n",
            &["--shard", "2/2"],
            "'2/2' is not a shard",
        ),
        ("[[bake]\n", &[], "m.toml:1: "),
        (
            "[[bake]]\ninput = \"nothing.lua\"\noutput = \"a.glb\"\n",
            &[],
            "failed      a.glb: m.toml:1: bake 1: nothing.lua: no such file",
        ),
    ];
    for (text, extra, want) in cases {
        std::fs::write(dir.join("m.toml"), text).expect("write");
        let mut args = vec!["bake", "--manifest", "m.toml"];
        args.extend(extra);
        let o = marionette_in(&dir, &args);
        assert!(!o.status.success(), "{text}");
        let e = stderr(&o);
        assert!(
            e.contains(want),
            "{text:?} {extra:?}\n  got: {e}\n want: {want}"
        );
    }
    // --shard belongs to a manifest
    let o = marionette_in(
        &dir,
        &["bake", "locomotion.lua", "--shard", "0/2", "-o", "x.glb"],
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--shard splits a manifest's bakes"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("x.glb").exists());
}
