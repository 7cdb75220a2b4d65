//! Helpers shared by the root package's test binaries: everything in `marionette-testkit`
//! (temporary folders, the repository's files, the public test models, running a program), and
//! running the `marionette` binary itself, which only this package's tests can name.
//!
//! The models live outside the repository (they are not ours to ship), at
//! `<repository>/../shared/testdata/gltf`, or wherever the `MARIONETTE_TESTDATA` environment
//! variable points. When they are missing, a local run skips the test with a clear message; a
//! run under CI (`CI` set) fails, so a broken checkout cannot pass silently.

#![allow(dead_code)] // each test binary uses a different subset of these helpers
#![allow(unused_imports)]

use std::path::Path;
use std::process::{Command, Output};

pub use marionette_testkit::*;

/// The path of the `marionette` binary cargo built for these tests.
pub const MARIONETTE: &str = env!("CARGO_BIN_EXE_marionette");

/// A command running the `marionette` binary from the repository root (add arguments, a folder,
/// the environment).
pub fn marionette_cmd() -> Command {
    let mut cmd = Command::new(MARIONETTE);
    cmd.current_dir(repo_root());
    cmd
}

/// Runs the `marionette` binary with `args` from the repository root; its output, whatever its
/// status.
pub fn marionette(args: &[&str]) -> Output {
    run(MARIONETTE, &repo_root(), args)
}

/// Runs the `marionette` binary with `args` in `dir` (a project folder a test made); its
/// output, whatever its status.
pub fn marionette_in(dir: &Path, args: &[&str]) -> Output {
    run(MARIONETTE, dir, args)
}
