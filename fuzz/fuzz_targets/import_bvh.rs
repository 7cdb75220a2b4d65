//! Fuzz target `import_bvh`: see `Target::ImportBvh` in tests/fuzz_harness (shared with the replay test
//! tests/bake/fuzz_corpus.rs).
#![no_main]

#[path = "../../tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = harness::Target::ImportBvh.run(data);
});
