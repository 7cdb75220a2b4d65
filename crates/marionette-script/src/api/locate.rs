//! Source lines of table entries, so errors in a take or a transition point at that entry's own
//! line rather than at the enclosing `graph {` / `state_machine {` call. Lua tables carry no
//! line information, so the script's text is scanned from the call's line: strings and
//! comments are skipped, braces counted. When the text does not read as expected (a table built
//! in a loop, say) the call's line is kept.

use crate::stack::caller_location;
use crate::Location;

/// One token position: a `{`, `}`, or a name followed by `=`, with its line.
#[derive(Debug, PartialEq)]
enum Tok {
    Open(u32),
    Close,
    Key(String, u32),
}

/// Tokens of `src` from line `from` on (1-based), skipping strings and comments.
fn tokens(src: &str, from: u32) -> Vec<Tok> {
    let b = src.as_bytes();
    let (mut i, mut line, mut out) = (0usize, 1u32, Vec::new());
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < b.len() && b[i] != c {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    if b.get(i) == Some(&b'\n') {
                        line += 1;
                    }
                    i += 1;
                }
            }
            b'{' if line >= from => out.push(Tok::Open(line)),
            b'}' if line >= from => out.push(Tok::Close),
            c if (c.is_ascii_alphabetic() || c == b'_') && line >= from => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let mut j = i;
                while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                    j += 1;
                }
                if b.get(j) == Some(&b'=') && b.get(j + 1) != Some(&b'=') {
                    out.push(Tok::Key(src[start..i].to_string(), line));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The line of the `n`-th (0-based) table inside `key = { ... }`, the first such key after `from`.
pub(crate) fn nth_entry_line(src: &str, from: u32, key: &str, n: usize) -> Option<u32> {
    let toks = tokens(src, from);
    let at = toks
        .iter()
        .position(|t| matches!(t, Tok::Key(k, _) if k == key))?;
    let mut depth = 0usize;
    let mut seen = 0usize;
    for t in &toks[at + 1..] {
        match t {
            Tok::Open(l) => {
                depth += 1;
                if depth == 2 {
                    if seen == n {
                        return Some(*l);
                    }
                    seen += 1;
                }
            }
            Tok::Close => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return None;
                }
            }
            Tok::Key(..) => {}
        }
    }
    None
}

/// The line of the first `name =` after line `from`.
pub(crate) fn key_line(src: &str, from: u32, name: &str) -> Option<u32> {
    tokens(src, from).into_iter().find_map(|t| match t {
        Tok::Key(k, l) if k == name => Some(l),
        _ => None,
    })
}

/// The calling script's location and text: the host's own copy of what it loaded under that
/// chunk name ([`crate::sandbox::Env::sources`]), never a file read from disk — a
/// script names the chunks it `load`s (`load(code, "@/etc/passwd")`), and those have no text
/// here, so their entries keep the call's line.
pub(crate) fn caller_source(lua: &mlua::Lua) -> Option<(Location, std::rc::Rc<str>)> {
    let loc = caller_location(lua)?;
    let text = lua
        .app_data_ref::<crate::sandbox::Sources>()?
        .borrow()
        .get(&loc.file)
        .cloned()?;
    Some((loc, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Transitions and take names are found on their own lines; strings and comments are skipped.
    #[test]
    fn finds_entry_lines() {
        let src = "local s = state_machine {\n  -- transitions = { {\n  transitions = {\n    { 'a', 'b', on = 'go' },\n\n    { 'b', '{', at_end = true },\n  },\n}\ngraph { takes = {\n  walk = { duration = 1 },\n  run = {\n duration = 2 } } }\n";
        assert_eq!(nth_entry_line(src, 1, "transitions", 0), Some(4));
        assert_eq!(nth_entry_line(src, 1, "transitions", 1), Some(6));
        assert_eq!(nth_entry_line(src, 1, "transitions", 2), None);
        assert_eq!(key_line(src, 9, "run"), Some(11));
        assert_eq!(key_line(src, 9, "walk"), Some(10));
    }
}
