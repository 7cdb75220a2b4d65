//! Refuses to-be-closed variables (`local x <close> = v`) before a chunk is compiled.
//!
//! When the instruction budget stops a function, mlua unwinds the stack from inside the hook,
//! where Lua runs no hooks: a `__close` handler on that stack would run unbudgeted, and an
//! infinite loop in it would hang the host. The `__close` metamethod is looked up when the
//! variable is declared and again when it is closed, on any metatable (the string one too), so
//! the only sound rule is to refuse the syntax. Scripts have no need for it.

/// The message of the refusal.
pub const REFUSED: &str = "to-be-closed variables (<close>) are not allowed in Marionette \
     scripts (sandbox: their handlers could run outside the instruction budget)";

/// The 1-based line of the first `<close>` attribute in `src`, skipping strings and comments.
pub fn find_close(src: &[u8]) -> Option<u32> {
    let mut lx = Lexer { src, i: 0, line: 1 };
    if src.first() == Some(&b'#') {
        while lx.i < src.len() && src[lx.i] != b'\n' {
            lx.i += 1;
        }
    }
    // The last three tokens: `<` then `close` then `>` is the attribute.
    let mut prev: [Tok; 2] = [Tok::Other, Tok::Other];
    let mut lt_line = 0;
    while let Some((tok, line)) = lx.next() {
        if tok == Tok::Gt && prev == [Tok::Lt, Tok::Close] {
            return Some(lt_line);
        }
        if tok == Tok::Lt {
            lt_line = line;
        }
        prev = [prev[1], tok];
    }
    None
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Tok {
    Lt,
    Gt,
    Close,
    Other,
}

struct Lexer<'a> {
    src: &'a [u8],
    i: usize,
    line: u32,
}

impl Lexer<'_> {
    fn at(&self, k: usize) -> u8 {
        self.src.get(self.i + k).copied().unwrap_or(0)
    }

    /// `[`, `=`*, `[` at the cursor: the level of a long bracket.
    fn long_open(&self) -> Option<usize> {
        if self.at(0) != b'[' {
            return None;
        }
        let mut k = 1;
        while self.at(k) == b'=' {
            k += 1;
        }
        (self.at(k) == b'[').then_some(k - 1)
    }

    /// Skips a long bracket of `level` whose opening is at the cursor.
    fn skip_long(&mut self, level: usize) {
        self.i += level + 2;
        while self.i < self.src.len() {
            let c = self.src[self.i];
            if c == b'\n' {
                self.line += 1;
            }
            if c == b']' {
                let mut k = 1;
                while self.at(k) == b'=' {
                    k += 1;
                }
                if k - 1 == level && self.at(k) == b']' {
                    self.i += k + 1;
                    return;
                }
            }
            self.i += 1;
        }
    }

    fn next(&mut self) -> Option<(Tok, u32)> {
        loop {
            let c = *self.src.get(self.i)?;
            let line = self.line;
            match c {
                b'\n' => {
                    self.line += 1;
                    self.i += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.i += 1,
                b'-' if self.at(1) == b'-' => {
                    self.i += 2;
                    match self.long_open() {
                        Some(level) => self.skip_long(level),
                        None => {
                            while self.i < self.src.len() && self.src[self.i] != b'\n' {
                                self.i += 1;
                            }
                        }
                    }
                }
                b'[' if self.long_open().is_some() => {
                    let level = self.long_open().unwrap_or(0);
                    self.skip_long(level);
                    return Some((Tok::Other, line));
                }
                b'"' | b'\'' => {
                    self.i += 1;
                    while let Some(&d) = self.src.get(self.i) {
                        self.i += 1;
                        match d {
                            b'\\' => {
                                if self.at(0) == b'\n' {
                                    self.line += 1;
                                }
                                self.i += 1;
                            }
                            b'\n' => {
                                self.line += 1;
                                break;
                            }
                            d if d == c => break,
                            _ => {}
                        }
                    }
                    return Some((Tok::Other, line));
                }
                b'<' => {
                    self.i += 1;
                    if matches!(self.at(0), b'=' | b'<') {
                        self.i += 1;
                        return Some((Tok::Other, line));
                    }
                    return Some((Tok::Lt, line));
                }
                b'>' => {
                    self.i += 1;
                    return Some((Tok::Gt, line));
                }
                c if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 => {
                    let start = self.i;
                    while self
                        .src
                        .get(self.i)
                        .is_some_and(|&d| d.is_ascii_alphanumeric() || d == b'_' || d >= 0x80)
                    {
                        self.i += 1;
                    }
                    let word = &self.src[start..self.i];
                    let tok = if word == b"close" {
                        Tok::Close
                    } else {
                        Tok::Other
                    };
                    return Some((tok, line));
                }
                _ => {
                    self.i += 1;
                    return Some((Tok::Other, line));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::find_close;

    /// The attribute is found with any spacing or comments around it; strings, comments and
    /// other uses of `<`, `>` and `close` are not it.
    #[test]
    fn finds_the_attribute_only() {
        assert_eq!(find_close(b"local x <close> = f()"), Some(1));
        assert_eq!(
            find_close(b"\n\nlocal a <const>, b < close\n> = 1, f()"),
            Some(3)
        );
        assert_eq!(find_close(b"local x <--[[ c ]] close> = f()"), Some(1));
        assert_eq!(
            find_close(b"local s = '<close>' -- <close>\n--[==[ <close> ]==]"),
            None
        );
        assert_eq!(
            find_close(b"local s = [[\n<close>]] local t = \"a\\\"<close>\""),
            None
        );
        assert_eq!(
            find_close(b"local close = 1 if a < close then end x = a > b"),
            None
        );
        assert_eq!(find_close(b"x = a <= close > b"), None);
        assert_eq!(
            find_close(b"#!/bin/lua '<close>\nlocal y <const> = 2"),
            None
        );
    }
}
