//! Helpers shared by the integration tests: finding the public glTF test models, and running
//! a command that must succeed.
//!
//! The models live outside the repository (they are not ours to ship), at
//! `<crate root>/../shared/testdata/gltf`, or wherever the `MARIONETTE_TESTDATA` environment
//! variable points. When they are missing, a local run skips the test with a clear message; a
//! run under CI (`CI` set) fails, so a broken checkout cannot pass silently.

#![allow(dead_code)] // each test binary uses a different subset of these helpers

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the `marionette` binary with `args` from the repository root; its output, whatever its
/// status.
pub fn marionette(args: &[&str]) -> std::process::Output {
    marionette_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Runs the `marionette` binary with `args` in `dir` (a project folder a test made); its
/// output, whatever its status.
pub fn marionette_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cannot run marionette")
}

/// Runs `cmd`, which must succeed (its stderr in the failure message): its stdout.
pub fn stdout_ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("cannot run the command");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The directory holding the public glTF test models, or `None` (after printing why) when it
/// is missing and the run is local. Panics when it is missing under CI.
pub fn testdata_dir() -> Option<PathBuf> {
    let (dir, how) = match std::env::var_os("MARIONETTE_TESTDATA") {
        Some(dir) => (PathBuf::from(dir), "from MARIONETTE_TESTDATA"),
        None => (
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/gltf"),
            "the default; set MARIONETTE_TESTDATA to override",
        ),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    missing(&format!(
        "test models not found at {} ({how})",
        dir.display()
    ))
}

/// One test model by file name, e.g. `testdata_file("Fox.glb")`; `None` (after printing why)
/// when it is missing and the run is local. Panics when it is missing under CI.
pub fn testdata_file(name: &str) -> Option<PathBuf> {
    let path = testdata_dir()?.join(name);
    if path.is_file() {
        return Some(path);
    }
    missing(&format!("test model not found: {}", path.display()))
}

/// Every `.gltf` / `.glb` file in the test-model directory, sorted by name.
pub fn testdata_models() -> Vec<PathBuf> {
    let Some(dir) = testdata_dir() else {
        return Vec::new();
    };
    let mut models: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("gltf") || e.eq_ignore_ascii_case("glb"))
        })
        .collect();
    models.sort();
    models
}

/// A path inside the repository (e.g. `tests/golden/Fox.poses.json`).
pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Skips (local run) or fails (CI) because test data is missing.
fn missing<T>(why: &str) -> Option<T> {
    if std::env::var_os("CI").is_some() {
        panic!("{why}; CI is set, so missing test data is a failure");
    }
    eprintln!("skipped: {why}");
    None
}
