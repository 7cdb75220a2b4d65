//! Tests are grouped into few binaries (the testing chapter's rule): a new test is a module of a
//! group, not a new binary that links everything again.

use std::path::Path;

/// The test binaries Cargo finds in a package's `tests/` folder: `tests/x.rs` and
/// `tests/x/main.rs`.
fn binaries(tests: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(tests) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_file() && name.ends_with(".rs") {
            out.push(name);
        } else if p.join("main.rs").is_file() {
            out.push(format!("{name}/main.rs"));
        }
    }
    out.sort();
    out
}

/// At most 12 test binaries in the root package, each a folder (`tests/<group>/main.rs`); the
/// crates' own tests likewise.
#[test]
fn tests_are_grouped_into_few_binaries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = binaries(&root.join("tests"));
    assert!(
        found.len() <= 12,
        "{} test binaries under tests/ (at most 12; add a module to a group instead): {found:?}",
        found.len()
    );
    let mut crates = vec![root.to_path_buf()];
    for e in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        crates.push(e.path());
    }
    for c in crates {
        for b in binaries(&c.join("tests")) {
            assert!(
                b.ends_with("/main.rs"),
                "{}: tests/{b} is a binary of one file; make it a module of a group \
                 (tests/<group>/main.rs)",
                c.display()
            );
        }
    }
    // the runtime, codec and script tests live in their crates (they link only what they use)
    for (krate, group) in [
        ("marionette-anim", "runtime"),
        ("marionette-io", "codec"),
        ("marionette-script", "script"),
    ] {
        let main = root
            .join("crates")
            .join(krate)
            .join("tests")
            .join(group)
            .join("main.rs");
        assert!(main.is_file(), "{} is missing", main.display());
    }
}
