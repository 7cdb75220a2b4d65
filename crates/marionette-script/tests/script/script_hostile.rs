//! Hostile scripts (`tests/fixtures/hostile/*.lua`): each must end with its expected error (the
//! `-- expect:` line; `ok` = it loads and plays; `any error` = it ends with some error) within a bounded time, through the library API
//! as the editor hosts scripts, and a fresh load in the same process must work afterwards.
//!
//! A file may name a take (`-- take: NAME`) to play frame by frame after loading, as a bake
//! does; its `post` and predicates then run. Limits are small so the suite stays quick: 5M
//! instructions to load, 200k per call, 3M per take.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use crate::script_common::{options, TempDir, MINIMAL};
use marionette_script::{load, Limits, ScriptError, ScriptedGraph};

/// Longest a case may take before it counts as a hang.
const HANG: Duration = Duration::from_secs(60);

fn limits() -> Limits {
    Limits {
        load_instructions: 5_000_000,
        call_instructions: 200_000,
        take_instructions: 3_000_000,
        ..Limits::default()
    }
}

/// The header line `-- key: value` of a fixture.
fn header<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    let prefix = format!("-- {key}: ");
    source
        .lines()
        .take_while(|l| l.starts_with("--"))
        .find_map(|l| l.strip_prefix(prefix.as_str()))
}

/// What running a script ends with: `Ok(log)` or the error.
fn run_case(path: &Path, take: Option<&str>) -> Result<Vec<String>, ScriptError> {
    let mut opts = options();
    opts.limits = limits();
    let loaded = load(path, &opts)?;
    let mut g = ScriptedGraph::new(loaded)?;
    if let Some(take) = take {
        g.play(Some(take))?;
        let spec = g.script().spec.take(take).expect("take exists").clone();
        let frames = (spec.duration * spec.fps).round() as u32;
        for i in 0..=frames {
            g.seek(f64::from(i) / f64::from(spec.fps));
            if let Some(e) = g.runtime_error() {
                return Err(e);
            }
        }
    }
    Ok(g.script().log())
}

fn fixtures() -> Vec<PathBuf> {
    let dir = marionette_testkit::repo_root().join("tests/fixtures/hostile");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .collect();
    files.sort();
    files
}

/// Runs one fixture on a worker thread (so a hang fails the test instead of blocking it) and
/// returns its outcome as text: `ok` or the error headline.
fn outcome(fixture: &Path) -> String {
    let source = std::fs::read_to_string(fixture).expect("read fixture");
    let take = header(&source, "take").map(str::to_string);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let dir = TempDir::new("hostile");
        let path = dir.write("main.lua", &source);
        let r = run_case(&path, take.as_deref());
        let text = match &r {
            Ok(log) => {
                let bytes: usize = log.iter().map(String::len).sum();
                assert!(bytes <= marionette_script::output::PRINT_LIMIT + 200);
                "ok".to_string()
            }
            Err(e) => e.headline(),
        };
        // The process stays usable: a fresh load right after works.
        let fresh = dir.write("fresh.lua", MINIMAL);
        let again = load(&fresh, &options()).map(|l| ScriptedGraph::new(l).is_ok());
        let _ = tx.send((text, again.is_ok_and(|ok| ok)));
    });
    let name = fixture.display().to_string();
    let (text, fresh_ok) = rx
        .recv_timeout(HANG)
        .unwrap_or_else(|_| panic!("{name}: no result within {HANG:?} (a hang)"));
    assert!(fresh_ok, "{name}: a fresh load failed afterwards");
    text
}

/// Every hostile script ends with its expected error, in bounded time, and leaves the
/// process able to load scripts.
#[test]
fn hostile_scripts_fail_clearly() {
    let files = fixtures();
    assert!(files.len() >= 40, "only {} fixtures", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let source = std::fs::read_to_string(f).expect("read fixture");
        let want = header(&source, "expect")
            .unwrap_or_else(|| panic!("{}: no `-- expect:` line", f.display()));
        let got = outcome(f);
        let pass = match want {
            "ok" => got == "ok",
            // (the generated API family: any error, see tests/cli/script_api_args.rs)
            "any error" => got != "ok" && !got.trim().is_empty(),
            want => got.contains(want),
        };
        if !pass {
            failures.push(format!(
                "{}:\n  want: {want}\n  got:  {got}",
                f.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
