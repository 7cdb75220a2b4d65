//! Conformance with the Khronos glTF-Validator's own test suite (issue 21).
//!
//! `../shared/testdata/gltf-validator/test/` holds the validator's test files, each `X.gltf` or
//! `X.glb` with its expected report `X.gltf.report.json` (`issues.messages[]`: `code`,
//! `severity` 0 = error, `pointer` = JSON pointer). Every file is imported in-process (a panic
//! is caught, a hang is timed out), and:
//!
//! - a file the validator calls valid (no error) imports, or is refused for one of the stated
//!   unsupported features in [`UNSUPPORTED`];
//! - a file with an error on data Marionette reads is refused, or imported with a warning that
//!   names the glTF path of the error (or the GLB chunk); errors on data Marionette does not
//!   read may pass silently: [`unread`] says which, by validator code and JSON pointer, with
//!   the reason;
//! - no refusal speaks the JSON parser's language instead of glTF's.
//!
//! The test prints a summary. The data is not in the repository: when it is missing the test
//! fails (CI has it).

use crate::conformance;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::conformance::{classify, import_in_process, Outcome, Reads, Report};

/// Valid files Marionette refuses on purpose, with the words the refusal must contain.
const UNSUPPORTED: &[(&str, &str, &str)] = &[
    (
        "base/data/buffer/non_relative_uri.gltf",
        "is not a relative file path",
        "a buffer by http(s) URI: Marionette reads only files beside the glTF and data URIs",
    ),
    (
        "base/data/root/named_objects.gltf",
        "but buffers[0]: has no uri",
        "a mesh whose buffer has no uri in a .gltf: the data is not in the file",
    ),
    (
        "base/data/root/unused_objects.gltf",
        "but buffers[0]: has no uri",
        "a mesh whose buffer has no uri in a .gltf: the data is not in the file",
    ),
    (
        "base/data/asset/min_version_valid.gltf",
        "asset.minVersion: the file needs a glTF 2.1 reader",
        "asset.minVersion 2.1: glTF says a reader of an older version must not load the file",
    ),
];

/// Words of the JSON parser's vocabulary that must not reach a user.
const PARSER_WORDS: &[&str] = &[
    "expected struct",
    "invalid length",
    "invalid type:",
    "missing field",
    "unknown variant",
    "expected u64",
    "expected u32",
    "expected f32",
    "Checked",
];

/// How long one import may take before it counts as a hang.
const TIMEOUT: Duration = Duration::from_secs(20);

fn suite_dir() -> PathBuf {
    let dir = marionette_testkit::repo_root().join("../shared/testdata/gltf-validator/test");
    assert!(
        dir.is_dir(),
        "the glTF-Validator test suite is missing: expected it at {} (the shared test data; \
         see issue 21). It is not in the repository and this test cannot run without it.",
        dir.display()
    );
    dir
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable folder entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("gltf" | "glb")
        ) {
            out.push(path);
        }
    }
}

#[derive(Default)]
struct Tally {
    valid_imported: usize,
    valid_refused: Vec<String>,
    invalid_refused: usize,
    invalid_warned: usize,
    unread_imported: usize,
    unread_refused: Vec<String>,
    failures: Vec<String>,
}

#[test]
fn khronos_validator_suite() {
    let dir = suite_dir();
    let mut all = Vec::new();
    files(&dir, &mut all);
    all.sort();
    assert!(
        all.len() > 300,
        "only {} files in {}",
        all.len(),
        dir.display()
    );
    let mut t = Tally::default();
    // MARIONETTE_CONFORMANCE_VERBOSE=1 prints the outcome of every file.
    let verbose = std::env::var_os("MARIONETTE_CONFORMANCE_VERBOSE").is_some();
    for file in &all {
        let name = file
            .strip_prefix(&dir)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        let report = Report::read(file);
        let reads = Reads::of(file);
        let outcome = import_in_process(file, TIMEOUT);
        if verbose {
            match &outcome {
                Outcome::Imported(w) => println!("{name}: imported, warnings {w:?}"),
                Outcome::Refused(m) => println!("{name}: refused: {m}"),
                _ => {}
            }
        }
        let message = match &outcome {
            Outcome::Refused(m) => Some(m.as_str()),
            _ => None,
        };
        if let Some(m) = message {
            if let Some(w) = PARSER_WORDS.iter().find(|w| m.contains(*w)) {
                t.failures
                    .push(format!("{name}: refusal speaks the parser ('{w}'): {m}"));
            }
        }
        let warnings = match &outcome {
            Outcome::Imported(w) => w.clone(),
            Outcome::Refused(_) => Vec::new(),
            Outcome::Panicked(p) => {
                t.failures.push(format!("{name}: panicked: {p}"));
                continue;
            }
            Outcome::Hung => {
                t.failures
                    .push(format!("{name}: took more than {TIMEOUT:?}"));
                continue;
            }
        };
        let errors = report.errors();
        if errors.is_empty() {
            match (message, UNSUPPORTED.iter().find(|u| u.0 == name)) {
                (None, _) => t.valid_imported += 1,
                (Some(m), Some(u)) if m.contains(u.1) => {
                    t.valid_refused.push(format!("{name}: {} ({m})", u.2))
                }
                (Some(m), _) => t.failures.push(format!("{name}: valid but refused: {m}")),
            }
            continue;
        }
        let read: Vec<_> = errors
            .iter()
            .filter(|e| conformance::unread(&e.code, &e.pointer, &reads).is_none())
            .collect();
        if read.is_empty() {
            match message {
                None => t.unread_imported += 1,
                Some(m) => t.unread_refused.push(format!("{name}: {m}")),
            }
            continue;
        }
        if message.is_some() {
            t.invalid_refused += 1;
            continue;
        }
        match read.iter().find(|e| !classify::warned(e, &warnings)) {
            None => t.invalid_warned += 1,
            Some(e) => t.failures.push(format!(
                "{name}: imported without a warning naming {} ({} at '{}'); warnings: {:?}",
                classify::gltf_path(&e.pointer),
                e.code,
                e.pointer,
                warnings
            )),
        }
    }
    println!(
        "glTF-Validator suite: {} files\n  valid, imported: {}\n  valid, refused (unsupported \
         feature): {}\n  invalid, refused: {}\n  invalid, imported with a warning: {}\n  \
         errors only on data Marionette does not read: {} imported, {} refused",
        all.len(),
        t.valid_imported,
        t.valid_refused.len(),
        t.invalid_refused,
        t.invalid_warned,
        t.unread_imported,
        t.unread_refused.len()
    );
    for r in &t.valid_refused {
        println!("  refused valid file: {r}");
    }
    for r in &t.unread_refused {
        println!("  refused, errors only on data not read: {r}");
    }
    assert!(
        t.failures.is_empty(),
        "{} of {} files fail:\n{}",
        t.failures.len(),
        all.len(),
        t.failures.join("\n")
    );
}
