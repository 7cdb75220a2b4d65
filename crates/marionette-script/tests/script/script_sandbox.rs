//! Sandbox: forbidden calls fail with clear errors, loops are stopped and named, memory is capped,
//! `require` stays inside the project and is recorded for the watcher.

use crate::script_common::{options, TempDir, MINIMAL};
use marionette_script::{load, HostOptions, Limits};

/// Loads `body` (followed by a minimal graph) and returns the error headline.
fn fails(dir: &TempDir, body: &str) -> String {
    let path = dir.write("main.lua", &format!("{body}\n{MINIMAL}"));
    match load(&path, &options()) {
        Ok(_) => panic!("script should fail: {body}"),
        Err(e) => e.headline(),
    }
}

/// Each forbidden library call raises an error naming the call, the sandbox and the line.
#[test]
fn forbidden_calls_fail_clearly() {
    let dir = TempDir::new("forbid");
    let cases = [
        ("os.execute('ls')", "os.execute is not allowed"),
        ("io.popen('ls')", "io.popen is not allowed"),
        ("os.remove('x')", "os.remove is not allowed"),
        ("os.exit(1)", "os.exit is not allowed"),
        (
            "package.loadlib('x', 'y')",
            "package.loadlib is not allowed",
        ),
        ("dofile('x.lua')", "dofile (use require) is not allowed"),
        ("loadfile('x.lua')", "loadfile (use require) is not allowed"),
        ("string.dump(print)", "string.dump is not allowed"),
        ("debug.getinfo(1)", "debug.getinfo is not allowed"),
        (
            "load('return 1', 'x', 'b')",
            "binary chunks are not allowed",
        ),
        ("io.open('/etc/passwd')", "outside the project folder"),
        ("io.open('../x.lua')", "outside the project folder"),
        ("io.open('data.txt', 'w')", "writing files is not allowed"),
        ("require('../evil')", "module names are dotted paths"),
        ("require('/etc/passwd')", "module names are dotted paths"),
    ];
    for (code, want) in cases {
        let got = fails(&dir, code);
        assert!(got.contains(want), "{code}: got {got}");
        assert!(got.contains("main.lua:1:"), "{code}: no line in {got}");
    }
}

/// Reading a project file works (read-only), and a binary chunk string cannot be loaded.
#[test]
fn project_files_are_readable() {
    let dir = TempDir::new("read");
    dir.write("data.txt", "12\nhello\n");
    let path = dir.write(
        "main.lua",
        &format!(
            "local f = assert(io.open('data.txt'))\nlocal n = tonumber(f:read('l'))\nassert(n == 12)\nassert(f:read('l') == 'hello')\nassert(load('return 2')() == 2)\n{MINIMAL}"
        ),
    );
    load(&path, &options()).expect("script loads");
}

/// An infinite loop is stopped by the budget and the error names the looping line.
#[test]
fn infinite_loop_is_stopped_and_named() {
    let dir = TempDir::new("loop");
    let path = dir.write(
        "main.lua",
        &format!("local x = 0\nwhile true do\n  x = x + 1\nend\n{MINIMAL}"),
    );
    let mut opts = options();
    opts.limits = Limits {
        load_instructions: 2_000_000,
        ..Limits::default()
    };
    let start = std::time::Instant::now();
    let err = load(&path, &opts).err().expect("loop must fail").headline();
    assert!(err.contains("instruction budget"), "{err}");
    assert!(
        err.contains("main.lua:2:") || err.contains("main.lua:3:"),
        "{err}"
    );
    assert!(start.elapsed().as_secs_f32() < 5.0);
}

/// A loop that keeps catching the budget error with pcall is still stopped.
#[test]
fn pcall_cannot_swallow_the_budget() {
    let dir = TempDir::new("pcall");
    let body = "while true do pcall(function() while true do end end) end";
    let path = dir.write("main.lua", &format!("{body}\n{MINIMAL}"));
    let mut opts = options();
    opts.limits = Limits {
        load_instructions: 1_000_000,
        ..Limits::default()
    };
    let err = load(&path, &opts).err().expect("must fail").headline();
    assert!(err.contains("instruction budget"), "{err}");
}

/// Allocating past the memory limit is an error, not an abort.
#[test]
fn memory_limit() {
    let dir = TempDir::new("mem");
    let body = "local t = {}\nfor i = 1, 1e8 do t[i] = string.rep('x', 64) .. i end";
    let path = dir.write("main.lua", &format!("{body}\n{MINIMAL}"));
    let opts = HostOptions {
        limits: Limits {
            memory_bytes: 8 << 20,
            ..Limits::default()
        },
        ..options()
    };
    let err = load(&path, &opts).err().expect("must fail").headline();
    assert!(err.contains("memory"), "{err}");
}

/// `require` loads a module next to the script once and records it for the watcher.
#[test]
fn require_is_relative_and_recorded() {
    let dir = TempDir::new("req");
    dir.write(
        "lib/gait.lua",
        "print('loading gait')\nreturn { speed = 1.4 }\n",
    );
    let path = dir.write(
        "main.lua",
        &format!("local g = require('lib.gait')\nlocal g2 = require('lib.gait')\nassert(g == g2 and g.speed == 1.4)\n{MINIMAL}"),
    );
    let loaded = load(&path, &options()).expect("loads");
    assert_eq!(loaded.files.len(), 2);
    assert!(loaded.files[1].ends_with("lib/gait.lua"));
    assert_eq!(loaded.log(), vec!["loading gait".to_string()]);
}

/// An error inside a required module names the module's file and line.
#[test]
fn error_in_required_module_names_it() {
    let dir = TempDir::new("reqerr");
    dir.write("helpers.lua", "local x = 1\nerror('bad helper')\n");
    let got = fails(&dir, "require('helpers')");
    assert!(got.contains("helpers.lua:2: bad helper"), "{got}");
}

/// What a script prints is capped: at most 1 MiB is kept, then one note; printing more costs
/// nothing.
#[test]
fn print_output_is_capped() {
    use marionette_script::output::{PRINT_LIMIT, TRUNCATED};
    let dir = TempDir::new("print");
    let path = dir.write(
        "main.lua",
        &format!(
            "print('first')\nlocal s = ('x'):rep(4 * 1024 * 1024)\nfor _ = 1, 50 do print(s, s) end\n{MINIMAL}"
        ),
    );
    let loaded = load(&path, &options()).expect("loads");
    let log = loaded.log();
    assert_eq!(log.first().map(String::as_str), Some("first"));
    assert_eq!(log.last().map(String::as_str), Some(TRUNCATED));
    assert_eq!(log.len(), 3);
    let bytes: usize = log[..2].iter().map(String::len).sum();
    assert_eq!(bytes, PRINT_LIMIT);
}

/// A module with a to-be-closed variable is refused before it runs, at its line.
#[test]
fn required_close_variable_is_refused() {
    let dir = TempDir::new("reqclose");
    dir.write(
        "helpers.lua",
        "local x = 1\nlocal y <close> = nil\nreturn {}\n",
    );
    let got = fails(&dir, "require('helpers')");
    assert!(
        got.contains("helpers.lua:2: to-be-closed variables (<close>) are not allowed"),
        "{got}"
    );
}

/// Once the budget ran out the state is spent: catching the error does not let the script go
/// on, and the message is the first one.
#[test]
fn spent_budget_stays_spent() {
    let dir = TempDir::new("spent");
    let body =
        "local ok = pcall(function() while true do end end)\nerror('reached ' .. tostring(ok))";
    let path = dir.write("main.lua", &format!("{body}\n{MINIMAL}"));
    let mut opts = options();
    opts.limits = Limits {
        load_instructions: 1_000_000,
        ..Limits::default()
    };
    let err = load(&path, &opts).err().expect("must fail").headline();
    assert!(
        err.ends_with("main.lua:1: instruction budget of 1000000 exceeded (infinite loop?)"),
        "{err}"
    );
}
