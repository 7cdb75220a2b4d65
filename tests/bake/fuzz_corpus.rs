//! Replays every file of the fuzz corpus (`fuzz/corpus/<target>/`) through the same harness
//! the cargo-fuzz targets run (`tests/fuzz_harness`), on stable Rust: a crash, hang or broken
//! promise the fuzzer found stays fixed. Each file must go through without a panic; a refused
//! input (`Err`) is fine, and every target must accept some of its corpus, so a harness that
//! refuses everything fails here.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::fuzz_harness::Target;

/// The corpus files of `target`, sorted by name.
fn corpus(target: Target) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target.name());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable corpus folder").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every corpus file of `target`; fails with the list of files that panicked.
fn replay(target: Target) {
    let files = corpus(target);
    assert!(!files.is_empty(), "fuzz/corpus/{} is empty", target.name());
    let mut accepted = 0;
    let mut failures = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for file in &files {
        let bytes = std::fs::read(file).expect("a readable corpus file");
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let start = Instant::now();
        let outcome = std::panic::catch_unwind(|| target.run(&bytes));
        let took = start.elapsed();
        if took > slowest.0 {
            slowest = (took, name.to_string());
        }
        match outcome {
            Ok(Ok(summary)) => {
                accepted += 1;
                println!("{name}: ok: {summary} ({took:.2?})");
            }
            Ok(Err(refused)) => println!("{name}: refused: {refused} ({took:.2?})"),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{name}: {message}"));
            }
        }
    }
    println!(
        "{}: {} files, {accepted} accepted, slowest {} ({:.2?})",
        target.name(),
        files.len(),
        slowest.1,
        slowest.0
    );
    assert!(
        failures.is_empty(),
        "fuzz/corpus/{}: {} of {} files panicked:\n{}",
        target.name(),
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    assert!(
        accepted > 0,
        "fuzz/corpus/{}: no file went through the harness",
        target.name()
    );
}

#[test]
fn import_glb_corpus() {
    replay(Target::ImportGlb);
}

#[test]
fn import_gltf_corpus() {
    replay(Target::ImportGltf);
}

#[test]
fn bake_clips_corpus() {
    replay(Target::BakeClips);
}

#[test]
fn import_bvh_corpus() {
    replay(Target::ImportBvh);
}

#[test]
fn import_fbx_corpus() {
    replay(Target::ImportFbx);
}

#[test]
fn script_load_corpus() {
    replay(Target::ScriptLoad);
}

/// Every harness target has its cargo-fuzz target, which runs that harness, declared in
/// `fuzz/Cargo.toml`.
#[test]
fn every_target_is_a_fuzz_target() {
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    for target in Target::ALL {
        let file = fuzz.join(format!("fuzz_targets/{}.rs", target.name()));
        let source =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            source.contains(&format!("harness::Target::{target:?}.run(data)")),
            "{} does not run Target::{target:?}",
            file.display()
        );
        assert!(
            manifest.contains(&format!("name = \"{}\"", target.name())),
            "fuzz/Cargo.toml does not declare {}",
            target.name()
        );
    }
}
