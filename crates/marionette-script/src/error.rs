//! Script errors that read `file:line: message` followed by a Lua traceback.

use std::fmt;
use std::path::PathBuf;

/// Where in a script something happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The chunk name as shown to the user (the script path as given, or a required module's path).
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

/// A script failed to load, validate or run.
///
/// Displays as `file:line: message` (when the line is known) followed by the traceback, then
/// each further error found in the same load ([`ScriptError::more`]) the same way.
#[derive(Debug, Clone, Default, thiserror::Error)]
pub struct ScriptError {
    /// Where the error was raised, when known.
    pub location: Option<Location>,
    /// The message without location or traceback.
    pub message: String,
    /// `stack traceback:` lines from Lua, or empty.
    pub traceback: Box<str>,
    /// Further errors found in the same load (a script's mistakes are all reported at once,
    /// in line order; this one is the first). Boxed to keep the error small.
    pub more: Box<[ScriptError]>,
    /// What the script printed (`print`) before it failed, for the caller to show before the
    /// error (as `run` shows a working script's output).
    pub printed: Box<[String]>,
    /// Warnings (`file:line: warning: ...`) the script got before it failed, for the caller
    /// to show with the error (one may explain it: `--rig` replacing the script's rig).
    pub warnings: Box<[String]>,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in std::iter::once(self).chain(self.more.iter()).enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&e.headline())?;
            if !e.traceback.is_empty() {
                write!(f, "\n{}", e.traceback)?;
            }
        }
        Ok(())
    }
}

impl ScriptError {
    /// An error with a message only.
    pub fn msg(message: impl Into<String>) -> Self {
        ScriptError {
            message: message.into(),
            ..ScriptError::default()
        }
    }

    /// A file could not be read.
    pub fn io(path: &std::path::Path, err: &std::io::Error) -> Self {
        Self::msg(format!("{}: cannot read: {err}", path.display()))
    }

    /// `file:line: message` of the first error, without the traceback (one line, for status
    /// bars and tests).
    pub fn headline(&self) -> String {
        match &self.location {
            Some(loc) => format!("{}:{}: {}", loc.file, loc.line, self.message),
            None => self.message.clone(),
        }
    }

    /// Every error's headline, one a line (the first, then [`ScriptError::more`]).
    pub fn headlines(&self) -> String {
        let all: Vec<String> = std::iter::once(self)
            .chain(self.more.iter())
            .map(ScriptError::headline)
            .collect();
        all.join("\n")
    }

    /// How many errors this is (1 + [`ScriptError::more`]).
    pub fn count(&self) -> usize {
        1 + self.more.len()
    }

    /// Converts an mlua error, finding the script location in the message or, for errors raised
    /// by Rust callbacks, in the first Lua frame of the traceback.
    pub fn from_lua(err: &mlua::Error) -> Self {
        let (text, traceback) = flatten(err);
        let (body, tb_in_text) = match text.find("\nstack traceback:") {
            Some(i) => (text[..i].to_string(), text[i + 1..].to_string()),
            None => (text, String::new()),
        };
        let traceback = if traceback.is_empty() {
            tb_in_text
        } else {
            traceback
        };
        let (location, message) = match split_location(&body) {
            Some((loc, rest)) if is_script(&loc.file) => (Some(loc), rest.to_string()),
            Some((_, rest)) => (first_script_frame(&traceback), rest.to_string()),
            None => (first_script_frame(&traceback), body),
        };
        ScriptError {
            location,
            message,
            traceback: clean_traceback(&traceback).into(),
            ..ScriptError::default()
        }
    }
}

/// The traceback without mlua's internal frames (`__mlua_index`, `__mlua_newindex`, ...),
/// which say nothing about the script.
fn clean_traceback(traceback: &str) -> String {
    let lines: Vec<&str> = traceback
        .trim_end()
        .lines()
        .filter(|l| !l.contains("__mlua"))
        .collect();
    lines.join("\n")
}

/// The innermost message of an mlua error and the outermost traceback found on the way.
fn flatten(err: &mlua::Error) -> (String, String) {
    match err {
        mlua::Error::CallbackError { traceback, cause } => {
            let (msg, inner_tb) = flatten(cause);
            let tb = if inner_tb.is_empty() {
                traceback.clone()
            } else {
                inner_tb
            };
            (msg, tb)
        }
        mlua::Error::WithContext { context, cause } => {
            let (msg, tb) = flatten(cause);
            (format!("{context}: {msg}"), tb)
        }
        mlua::Error::BadArgument { to, pos, cause, .. } => {
            let (msg, tb) = flatten(cause);
            let to = to.as_deref().unwrap_or("?");
            (format!("bad argument #{pos} to '{to}': {msg}"), tb)
        }
        mlua::Error::SyntaxError { message, .. } => (message.clone(), String::new()),
        mlua::Error::RuntimeError(m) => (m.clone(), String::new()),
        mlua::Error::MemoryError(m) => (format!("memory limit exceeded ({m})"), String::new()),
        mlua::Error::ExternalError(e) => (e.to_string(), String::new()),
        other => (other.to_string(), String::new()),
    }
}

/// Splits `file:LINE: rest` into a location and the rest.
pub(crate) fn split_location(text: &str) -> Option<(Location, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = text[i..].find(':') {
        let colon = i + off;
        let digits_end = bytes[colon + 1..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map(|p| colon + 1 + p)?;
        if digits_end > colon + 1 && text[digits_end..].starts_with(": ") && colon > 0 {
            let file = &text[..colon];
            if file.contains('\n') {
                return None;
            }
            let line = text[colon + 1..digits_end].parse().ok()?;
            let loc = Location {
                file: file.to_string(),
                line,
            };
            return Some((loc, &text[digits_end + 2..]));
        }
        i = colon + 1;
    }
    None
}

/// False for chunks that are not user files: `[C]`, the built-in prelude, mlua's helpers.
fn is_script(file: &str) -> bool {
    !(file.starts_with('[') || file.starts_with("__mlua") || file.starts_with("(..."))
}

/// The first traceback frame that belongs to a user script (not `[C]` or the built-in prelude).
fn first_script_frame(traceback: &str) -> Option<Location> {
    traceback.lines().skip(1).find_map(|l| {
        let l = l.trim_start();
        split_location(l)
            .map(|(loc, _)| loc)
            .filter(|loc| is_script(&loc.file))
    })
}

/// Paths of files the watcher should follow, as collected while loading.
pub(crate) type RequiredFiles = std::rc::Rc<std::cell::RefCell<Vec<PathBuf>>>;

#[cfg(test)]
mod tests {
    use super::*;

    /// A Lua runtime message with traceback splits into location, message and traceback.
    #[test]
    fn splits_runtime_message() {
        let e = mlua::Error::RuntimeError(
            "scripts/a.lua:12: boom\nstack traceback:\n\t[C]: in ?".into(),
        );
        let s = ScriptError::from_lua(&e);
        assert_eq!(s.headline(), "scripts/a.lua:12: boom");
        assert!(s.traceback.starts_with("stack traceback:"));
    }

    /// A Rust callback error without a location takes the first script frame of the traceback.
    #[test]
    // mlua's CallbackError holds its cause in an Arc, whatever its thread-safety.
    #[allow(clippy::arc_with_non_send_sync)]
    fn callback_error_uses_first_script_frame() {
        let e = mlua::Error::CallbackError {
            traceback: "stack traceback:\n\t[C]: in function 'blend1d'\n\t[marionette]:3: in ?\n\tx/y.lua:7: in main chunk".into(),
            cause: std::sync::Arc::new(mlua::Error::RuntimeError("unknown clip 'wlak'".into())),
        };
        let s = ScriptError::from_lua(&e);
        assert_eq!(s.headline(), "x/y.lua:7: unknown clip 'wlak'");
    }

    /// mlua's internal frames are left out of the traceback; the script's frames stay.
    #[test]
    fn hides_mlua_frames() {
        let e = mlua::Error::RuntimeError(
            "a.lua:3: boom\nstack traceback:\n\t[C]: in ?\n\t[string \"__mlua_index\"]:1: in function '__mlua_index'\n\ta.lua:3: in main chunk".into(),
        );
        let s = ScriptError::from_lua(&e);
        assert_eq!(
            &*s.traceback,
            "stack traceback:\n\t[C]: in ?\n\ta.lua:3: in main chunk"
        );
    }

    /// Text without a location keeps its message and has no location.
    #[test]
    fn no_location() {
        assert!(split_location("just text: here").is_none());
        assert_eq!(
            split_location("C:/a.lua:3: x").map(|(l, r)| (l.file, l.line, r.to_string())),
            Some(("C:/a.lua".to_string(), 3, "x".to_string()))
        );
    }
}
