//! What scripts `print`: kept as lines for the host (the CLI's stderr, the editor's console),
//! at most [`PRINT_LIMIT`] bytes per script state (its load and every later call together);
//! past that, printing does nothing and one note says the output was cut.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Value, Variadic};

/// Bytes of printed text kept per script state (1 MiB).
pub const PRINT_LIMIT: usize = 1 << 20;

/// The note that ends a log that reached [`PRINT_LIMIT`].
pub const TRUNCATED: &str =
    "[print output truncated: Marionette keeps the first 1 MiB a script prints]";

#[derive(Debug, Default)]
struct Lines {
    lines: Vec<String>,
    bytes: usize,
    full: bool,
}

/// The lines a script printed (shared by the state's `print` and the host).
#[derive(Debug, Clone, Default)]
pub(crate) struct Log(Rc<RefCell<Lines>>);

impl Log {
    /// The lines so far (the truncation note last, when the limit was reached).
    pub fn lines(&self) -> Vec<String> {
        self.0.borrow().lines.clone()
    }

    /// Bytes left before the limit.
    fn room(&self) -> usize {
        let l = self.0.borrow();
        if l.full {
            0
        } else {
            PRINT_LIMIT.saturating_sub(l.bytes)
        }
    }

    /// Adds a line of at most `room() + 1` bytes; a longer one is cut to the room left and
    /// followed by the note.
    fn push(&self, mut line: Vec<u8>) {
        let mut l = self.0.borrow_mut();
        if l.full {
            return;
        }
        let room = PRINT_LIMIT.saturating_sub(l.bytes);
        let cut = line.len() > room;
        line.truncate(room);
        l.bytes += line.len();
        l.lines.push(String::from_utf8_lossy(&line).into_owned());
        if cut {
            l.full = true;
            l.lines.push(TRUNCATED.to_string());
        }
    }
}

/// `print(...)`: the values converted like Lua's `tostring` (a `__tostring` error is raised),
/// separated by tabs, appended to `log`. Copies at most the room left, so printing huge strings
/// in a loop costs no memory past the limit.
pub(crate) fn print_function(lua: &Lua, log: &Log) -> mlua::Result<mlua::Function> {
    let log = log.clone();
    lua.create_function(move |_, args: Variadic<Value>| {
        let room = log.room();
        if room == 0 {
            return Ok(());
        }
        let mut line: Vec<u8> = Vec::new();
        for (i, v) in args.iter().enumerate() {
            if line.len() > room {
                break;
            }
            if i > 0 {
                line.push(b'\t');
            }
            let left = room + 1 - line.len().min(room);
            match v {
                Value::String(s) => {
                    let b = s.as_bytes();
                    line.extend_from_slice(&b[..b.len().min(left)]);
                }
                v => {
                    let s = v.to_string()?;
                    line.extend_from_slice(&s.as_bytes()[..s.len().min(left)]);
                }
            }
        }
        log.push(line);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines are kept until the limit; the line that crosses it is cut and followed by the note,
    /// and later prints add nothing.
    #[test]
    fn caps_the_bytes_kept() {
        let log = Log::default();
        log.push(b"hello".to_vec());
        log.push(vec![b'x'; PRINT_LIMIT]);
        log.push(b"after".to_vec());
        let lines = log.lines();
        assert_eq!(lines.len(), 3, "{:?}", &lines[2..]);
        assert_eq!(lines[0], "hello");
        assert_eq!(lines[1].len(), PRINT_LIMIT - 5);
        assert_eq!(lines[2], TRUNCATED);
        assert_eq!(log.room(), 0);
    }
}
