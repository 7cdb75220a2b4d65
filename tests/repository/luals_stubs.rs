//! The LuaLS stubs (`scripts/marionette.d.lua`) type-check the example scripts with a real
//! checker of LuaLS/EmmyLua annotations (`emmylua_check`, installed by `tests/run.sh`), and the
//! checker does read them: a script misusing the API is flagged.

use std::path::Path;
use std::process::Command;

/// `emmylua_check`, or `None` (after saying why) when it is not installed and this is not CI.
fn checker() -> Option<Command> {
    let found = Command::new("emmylua_check").arg("--version").output();
    match found {
        Ok(o) if o.status.success() => Some(Command::new("emmylua_check")),
        _ => marionette_testkit::missing(
            "emmylua_check is not installed (tests/run.sh installs it: cargo install \
             emmylua_check --locked)",
        ),
    }
}

/// The shipped scripts pass with warnings as errors; a script passing a number where the stubs
/// want a parameter name or a side fails, naming both mistakes.
#[test]
fn stubs_check_the_scripts() {
    let Some(mut ok) = checker() else { return };
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let out = ok
        .arg(&scripts)
        .arg("--warnings-as-errors")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = std::env::temp_dir().join(format!("mrn-luals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::copy(
        scripts.join("marionette.d.lua"),
        dir.join("marionette.d.lua"),
    )
    .expect("copy");
    std::fs::write(
        dir.join("bad.lua"),
        "local rig = marionette.rig()\nlocal b = blend1d(3, rig.walk)\nlocal m = mask.side(4)\nreturn graph { root = b }\n",
    )
    .expect("write");
    let out = Command::new("emmylua_check")
        .arg(&dir)
        .arg("--warnings-as-errors")
        .output()
        .expect("runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("expected `string` but found `3`"), "{text}");
    assert!(
        text.contains("expected `(\"left\"|\"right\")` but found `4`"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
