//! The hostile argument family ([`api_family`], generated from the API stubs): every valid
//! example call works, and every wrong call — each wrong kind of argument in each position,
//! one argument too many or too few, wrong operands of an operator, a metatable fetched and
//! called — ends with an error message: never a signal, a hang or a panic, never silently
//! accepted. The same family is kept as fixture files (`tests/fixtures/hostile/api_args_*.lua`,
//! also fuzz seeds), which `marionette check` must end with exit status 1.

use crate::api_family;

use std::path::{Path, PathBuf};

use crate::api_family::{all_cases, entries, example, fixture_files, Case};
use crate::script_common::{options, TempDir};
use marionette_script::{load, Limits, ScriptedGraph};

fn stubs() -> String {
    std::fs::read_to_string(api_family::stubs_path()).expect("the API stubs")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What a case ends with: `Ok` or every error's headline.
fn run(dir: &TempDir, i: usize, case: &Case) -> Result<(), String> {
    let path = dir.write(&format!("case{i}.lua"), &case.script());
    let mut opts = options();
    opts.limits = Limits {
        load_instructions: 5_000_000,
        call_instructions: 200_000,
        take_instructions: 3_000_000,
        ..Limits::default()
    };
    let loaded = load(&path, &opts).map_err(|e| e.headlines())?;
    let mut g = ScriptedGraph::new(loaded).map_err(|e| e.headlines())?;
    if case.in_post {
        g.play(Some("t")).map_err(|e| e.headlines())?;
        for n in 0..=3 {
            g.seek(f64::from(n) / 60.0);
        }
    } else {
        g.seek(1.0 / 60.0);
    }
    match g.runtime_error() {
        Some(e) => Err(e.headlines()),
        None => Ok(()),
    }
}

/// Every entry of the stubs has a valid example call (the family needs one per entry).
#[test]
fn every_stub_entry_has_an_example() {
    let stubs = stubs();
    let all = entries(&stubs);
    assert!(all.len() >= 40, "only {} stub entries parsed", all.len());
    let missing: Vec<String> = all
        .iter()
        .filter(|e| example(&e.name).is_none())
        .map(|e| e.name.clone())
        .collect();
    assert!(
        missing.is_empty(),
        "stub entries without an example call in tests/api_family/mod.rs (add one): {missing:?}"
    );
}

/// Valid calls work; every wrong call ends with an error message, no panic.
#[test]
fn wrong_calls_end_with_an_error() {
    let cases = all_cases(&stubs());
    assert!(cases.len() >= 400, "only {} cases", cases.len());
    let dir = TempDir::new("api-args");
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let outcome = std::panic::catch_unwind(|| run(&dir, i, case));
        let problem = match (outcome, case.valid) {
            (Err(_), _) => Some("panicked".to_string()),
            (Ok(Ok(())), true) => None,
            (Ok(Err(e)), true) => Some(format!("the valid call failed: {e}")),
            (Ok(Ok(())), false) => Some("accepted".to_string()),
            (Ok(Err(e)), false) if e.trim().is_empty() || e.contains("internal") => {
                Some(format!("unclear error: {e:?}"))
            }
            (Ok(Err(_)), false) => None,
        };
        if let Some(p) = problem {
            failures.push(format!("{}\n    {}\n    -> {p}", case.label, case.call));
        }
    }
    println!("{} cases", cases.len());
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Where the family's files live: the hostile fixtures and the fuzz seeds.
fn family_dirs() -> [(PathBuf, &'static str); 2] {
    [
        (root().join("tests/fixtures/hostile"), ""),
        (root().join("fuzz/corpus/script_load"), "seed-hostile-"),
    ]
}

/// The family's fixture files are what the stubs generate now (`MARIONETTE_BLESS=1` writes
/// them and removes stale ones).
#[test]
fn fixture_files_are_current() {
    let files = fixture_files(&stubs());
    let bless = std::env::var("MARIONETTE_BLESS").is_ok_and(|v| v == "1");
    let mut problems = Vec::new();
    for (dir, prefix) in family_dirs() {
        let wanted: Vec<String> = files.iter().map(|(n, _)| format!("{prefix}{n}")).collect();
        for entry in std::fs::read_dir(&dir).expect("fixture folder") {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .to_string();
            if name.starts_with(&format!("{prefix}api_args_")) && !wanted.contains(&name) {
                if bless {
                    std::fs::remove_file(dir.join(&name)).expect("remove stale");
                } else {
                    problems.push(format!("stale: {}", dir.join(&name).display()));
                }
            }
        }
        for (name, text) in &files {
            let path = dir.join(format!("{prefix}{name}"));
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                if bless {
                    std::fs::write(&path, text).expect("write fixture");
                } else {
                    problems.push(format!("missing or changed: {}", path.display()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the API family is out of date with scripts/marionette.d.lua; run\n  \
         MARIONETTE_BLESS=1 cargo test --test cli script_api_args fixture_files_are_current\n{}",
        problems.join("\n")
    );
}

/// `marionette check` ends every fixture of the family (on the bundled mannequin) with an
/// error message and exit status 1: no signal, no other status.
#[test]
fn check_exits_1_on_every_family_file() {
    let files = fixture_files(&stubs());
    let dir = TempDir::new("api-args-cli");
    let mut failures = Vec::new();
    for (name, text) in &files {
        let path = dir.write(name, text);
        let out = crate::common::marionette_cmd()
            .arg("check")
            .arg(&path)
            .output()
            .expect("run marionette");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(1) || !stderr.contains("error") {
            failures.push(format!("{name}: {:?}\n{stderr}", out.status));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
