//! What every test binary of the workspace shares, written once: temporary folders
//! ([`TempDir`]), the repository's own files ([`repo_path`]), the public test models
//! ([`testdata_file`], [`testdata_models`]), running a program ([`run`], [`stdout_ok`]) and what
//! a test does when something outside the repository is missing ([`missing`]: a local run skips
//! with a message, a run under CI fails), and many varied but repeatable inputs ([`Xorshift`]).
//!
//! A dev-dependency of every crate that has integration tests; std only. Test binaries are
//! grouped (one `tests/<group>/main.rs` per group, a module per former file): the testing
//! chapter of the guide (`docs/src/testing.md`) has the rule.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The repository's root folder (the workspace's).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A path inside the repository (e.g. `tests/golden/Fox.poses.json`, `assets/mannequin.glb`).
pub fn repo_path(relative: &str) -> PathBuf {
    repo_root().join(relative)
}

/// Skips (local run: prints why, returns `None`) or fails (under CI, `CI` set) because something
/// a test needs from outside the repository is missing: test models, a client, a GPU.
pub fn missing<T>(why: &str) -> Option<T> {
    if std::env::var_os("CI").is_some() {
        panic!("{why}; CI is set, so this is a failure, not a skip");
    }
    eprintln!("skipped: {why}");
    None
}

/// The folder of the public glTF test models: `MARIONETTE_TESTDATA`, else
/// `<repository>/../shared/testdata/gltf`. `None` (after printing why) when it is missing and
/// the run is local; panics under CI.
pub fn testdata_dir() -> Option<PathBuf> {
    let (dir, how) = match std::env::var_os("MARIONETTE_TESTDATA") {
        Some(dir) => (PathBuf::from(dir), "from MARIONETTE_TESTDATA"),
        None => (
            repo_path("../shared/testdata/gltf"),
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

/// Every `.gltf` / `.glb` file in the test-model folder, sorted by name.
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

/// A fresh, empty temporary folder for one test, removed when dropped. It derefs to its
/// [`Path`], so `dir.join("a.lua")` and `&dir` as a `&Path` work.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates `<temp>/mrn-<name>-<pid>-<n>` (unique within the process), empty.
    pub fn new(name: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("mrn-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        TempDir(dir)
    }

    /// Writes `text` to `rel` inside the folder (making folders on the way); the file's path.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
        }
        std::fs::write(&p, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", p.display()));
        p
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the program `exe` with `args` in `dir`: its output, whatever its status. Panics when
/// it cannot be started at all.
pub fn run(exe: impl AsRef<Path>, dir: &Path, args: &[&str]) -> Output {
    let exe = exe.as_ref();
    Command::new(exe)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()))
}

/// Runs `cmd`, which must succeed (its stderr in the failure message): its stdout.
pub fn stdout_ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()));
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd.get_program(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A small seeded generator for tests that want many varied inputs, the same on every run
/// (Marsaglia's xorshift64, shifts 13, 7, 17). Not for anything but tests.
pub struct Xorshift(u64);

impl Xorshift {
    /// Starts from `seed` (not zero: zero stays zero).
    pub fn new(seed: u64) -> Self {
        assert_ne!(seed, 0, "an xorshift seed of zero only ever gives zero");
        Self(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `0..n` (`n > 0`; the modulo's bias is nothing to a test).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root holds the workspace's manifest; a temporary folder is made, written to and
    /// removed when dropped.
    #[test]
    fn root_and_temporary_folders() {
        assert!(repo_path("Cargo.toml").is_file());
        assert!(repo_path("crates/marionette-testkit/src/lib.rs").is_file());
        let kept;
        {
            let dir = TempDir::new("testkit");
            let file = dir.write("a/b.txt", "x");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
            kept = dir.to_path_buf();
            assert!(kept.is_dir());
        }
        assert!(!kept.exists());
    }

    /// The generator repeats from its seed, stays in its ranges and covers them.
    #[test]
    fn xorshift_repeats_and_spreads() {
        let (mut a, mut b) = (Xorshift::new(7), Xorshift::new(7));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        let units: Vec<f32> = (0..10_000).map(|_| a.unit()).collect();
        assert!(units.iter().all(|u| (0.0..1.0).contains(u)));
        assert!(units.iter().any(|&u| u < 0.01) && units.iter().any(|&u| u > 0.99));
        let mut seen = [false; 6];
        for _ in 0..1000 {
            seen[a.below(6)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
