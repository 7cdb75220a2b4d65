//! Lua 5.4's pattern matcher (`lstrlib.c`), ported line for line, with every step counted so a
//! backtracking pattern stops at the instruction budget instead of running for hours.
//!
//! Positions are byte offsets into the subject; reading past the end of the subject or the
//! pattern gives `0`, as the C code reads the strings' terminating NUL.

/// Most captures a pattern may have (`LUA_MAXCAPTURES`).
pub(crate) const MAX_CAPTURES: usize = 32;
/// Deepest recursion of the matcher (`MAXCCALLS`).
const MAX_DEPTH: u32 = 200;
const ESC: u8 = b'%';
/// Characters that make a pattern more than a plain string.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Why a match stopped.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stop {
    /// A malformed pattern or capture (Lua's message, without position).
    Error(String),
    /// The step allowance ran out.
    Steps,
}

fn error<T>(msg: impl Into<String>) -> Result<T, Stop> {
    Err(Stop::Error(msg.into()))
}

/// A capture's extent: a length, still open, or a position capture `()`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Cap {
    Len(usize),
    Unfinished,
    Position,
}

/// One capture's value: a slice of the subject or a 1-based position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Capture<'a> {
    Bytes(&'a [u8]),
    Position(usize),
}

type Found = Result<Option<usize>, Stop>;

/// The matcher's state (`MatchState`).
///
/// Invariants the subject slicing relies on (as the C code's pointers do): every subject
/// position it is given or returns is at most `src.len()` (the callers start at most there,
/// and a position only moves past a byte `single` or `balance` read), and matching only moves
/// forward, so a capture's start is never after the position that ends it. Pattern positions
/// stay at most `pat.len()`, and pattern bytes are read through [`Matcher::p`] anyway.
pub(crate) struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    depth: u32,
    level: usize,
    capture: [(usize, Cap); MAX_CAPTURES],
    /// Steps taken (one per pattern item tried or subject byte examined).
    pub steps: u64,
    /// Steps allowed before [`Stop::Steps`].
    pub allow: u64,
}

/// True when `pat` has no special characters (a plain search does).
pub(crate) fn no_specials(pat: &[u8]) -> bool {
    !pat.iter().any(|c| SPECIALS.contains(c))
}

fn class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => c == b' ' || (b'\t'..=b'\r').contains(&c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return cl == c,
    };
    if cl.is_ascii_lowercase() {
        res
    } else {
        !res
    }
}

impl<'a> Matcher<'a> {
    /// A matcher of `pat` (without a leading `^` anchor) over `src`, allowed `allow` steps.
    pub fn new(src: &'a [u8], pat: &'a [u8], allow: u64) -> Self {
        Matcher {
            src,
            pat,
            depth: MAX_DEPTH,
            level: 0,
            capture: [(0, Cap::Unfinished); MAX_CAPTURES],
            steps: 0,
            allow,
        }
    }

    fn p(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    fn s(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn tick(&mut self, n: u64) -> Result<(), Stop> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.allow {
            Err(Stop::Steps)
        } else {
            Ok(())
        }
    }

    /// Tries a match at `s` (from the start of the pattern), after resetting the captures.
    pub fn try_at(&mut self, s: usize) -> Found {
        self.depth = MAX_DEPTH;
        self.level = 0;
        self.do_match(s, 0)
    }

    /// The subject's bytes `s..e` (a match: `s <= e <= src.len()`, see [`Matcher`]).
    pub fn whole(&self, s: usize, e: usize) -> &'a [u8] {
        &self.src[s..e]
    }

    /// Captures of the last match: all of them, or the whole match `s..e` when there are none
    /// and `whole` is given.
    pub fn captures(&self, whole: Option<(usize, usize)>) -> Result<Vec<Capture<'a>>, Stop> {
        let n = if self.level == 0 && whole.is_some() {
            1
        } else {
            self.level
        };
        let (s, e) = whole.unwrap_or((0, 0));
        (0..n).map(|i| self.capture_value(i, s, e)).collect()
    }

    /// Capture `i` (`get_onecapture`): with no captures, `i == 0` is the whole match `s..e`.
    pub fn capture_value(&self, i: usize, s: usize, e: usize) -> Result<Capture<'a>, Stop> {
        if i >= self.level {
            if i != 0 {
                return error(format!("invalid capture index %{}", i + 1));
            }
            // (in range: `s..e` is the match, see [`Matcher`])
            return Ok(Capture::Bytes(&self.src[s..e]));
        }
        let (init, len) = self.capture[i];
        match len {
            Cap::Unfinished => error("unfinished capture"),
            Cap::Position => Ok(Capture::Position(init + 1)),
            Cap::Len(l) => Ok(Capture::Bytes(&self.src[init..init + l])),
        }
    }

    fn class_end(&self, p: usize) -> Result<usize, Stop> {
        let mut p = p;
        let c = self.p(p);
        p += 1;
        match c {
            ESC => {
                if p >= self.pat.len() {
                    return error("malformed pattern (ends with '%')");
                }
                Ok(p + 1)
            }
            b'[' => {
                if self.p(p) == b'^' {
                    p += 1;
                }
                loop {
                    if p >= self.pat.len() {
                        return error("malformed pattern (missing ']')");
                    }
                    let c = self.p(p);
                    p += 1;
                    if c == ESC && p < self.pat.len() {
                        p += 1;
                    }
                    if self.p(p) == b']' {
                        break;
                    }
                }
                Ok(p + 1)
            }
            _ => Ok(p),
        }
    }

    /// `[...]` starting at `p` and closed at `ec` matches `c`.
    fn bracket(&self, c: u8, p: usize, ec: usize) -> bool {
        let mut p = p;
        let mut sig = true;
        if self.p(p + 1) == b'^' {
            sig = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                return !sig;
            }
            if self.p(p) == ESC {
                p += 1;
                if class(c, self.p(p)) {
                    return sig;
                }
            } else if self.p(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.p(p - 2) <= c && c <= self.p(p) {
                    return sig;
                }
            } else if self.p(p) == c {
                return sig;
            }
        }
    }

    fn single(&self, s: usize, p: usize, ep: usize) -> bool {
        if s >= self.src.len() {
            return false;
        }
        let c = self.src[s];
        match self.p(p) {
            b'.' => true,
            ESC => class(c, self.p(p + 1)),
            b'[' => self.bracket(c, p, ep - 1),
            pc => pc == c,
        }
    }

    fn balance(&mut self, s: usize, p: usize) -> Found {
        if p + 1 >= self.pat.len() {
            return error("malformed pattern (missing arguments to '%b')");
        }
        if self.s(s) != self.p(p) {
            return Ok(None);
        }
        let (b, e) = (self.p(p), self.p(p + 1));
        let mut cont = 1;
        let mut s = s + 1;
        while s < self.src.len() {
            self.tick(1)?;
            let c = self.src[s];
            if c == e {
                cont -= 1;
                if cont == 0 {
                    return Ok(Some(s + 1));
                }
            } else if c == b {
                cont += 1;
            }
            s += 1;
        }
        Ok(None)
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Found {
        let mut i = 0;
        while self.single(s + i, p, ep) {
            self.tick(1)?;
            i += 1;
        }
        loop {
            if let Some(r) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(r));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, s: usize, p: usize, ep: usize) -> Found {
        let mut s = s;
        loop {
            if let Some(r) = self.do_match(s, ep + 1)? {
                return Ok(Some(r));
            }
            if self.single(s, p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: Cap) -> Found {
        if self.level >= MAX_CAPTURES {
            return error("too many captures");
        }
        self.capture[self.level] = (s, what);
        self.level += 1;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.level -= 1;
        }
        Ok(r)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Found {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&l| self.capture[l].1 == Cap::Unfinished)
        else {
            return error("invalid pattern capture");
        };
        // (no underflow: the capture started at or before `s`, see [`Matcher`])
        self.capture[l].1 = Cap::Len(s - self.capture[l].0);
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.capture[l].1 = Cap::Unfinished;
        }
        Ok(r)
    }

    fn match_capture(&mut self, s: usize, digit: u8) -> Found {
        let l = i32::from(digit) - i32::from(b'1');
        if l < 0 || l as usize >= self.level || self.capture[l as usize].1 == Cap::Unfinished {
            return error(format!("invalid capture index %{}", l + 1));
        }
        let (init, len) = self.capture[l as usize];
        let Cap::Len(len) = len else {
            return Ok(None);
        };
        self.tick(len as u64)?;
        // (`s <= src.len()` and the capture lies inside the subject, see [`Matcher`])
        if self.src.len() - s >= len && self.src[init..init + len] == self.src[s..s + len] {
            Ok(Some(s + len))
        } else {
            Ok(None)
        }
    }

    fn do_match(&mut self, s: usize, p: usize) -> Found {
        if self.depth == 0 {
            return error("pattern too complex");
        }
        self.depth -= 1;
        let r = self.match_here(s, p);
        self.depth += 1;
        r
    }

    fn match_here(&mut self, s: usize, p: usize) -> Found {
        let (mut s, mut p) = (s, p);
        loop {
            self.tick(1)?;
            if p == self.pat.len() {
                return Ok(Some(s));
            }
            match self.p(p) {
                b'(' if self.p(p + 1) == b')' => {
                    return self.start_capture(s, p + 2, Cap::Position)
                }
                b'(' => return self.start_capture(s, p + 1, Cap::Unfinished),
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                ESC if self.p(p + 1) == b'b' => match self.balance(s, p + 2)? {
                    Some(next) => {
                        s = next;
                        p += 4;
                        continue;
                    }
                    None => return Ok(None),
                },
                ESC if self.p(p + 1) == b'f' => {
                    p += 2;
                    if self.p(p) != b'[' {
                        return error("missing '[' after '%f' in pattern");
                    }
                    let ep = self.class_end(p)?;
                    // (in range: `0 < s <= src.len()`, see [`Matcher`])
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    if !self.bracket(previous, p, ep - 1) && self.bracket(self.s(s), p, ep - 1) {
                        p = ep;
                        continue;
                    }
                    return Ok(None);
                }
                ESC if self.p(p + 1).is_ascii_digit() => {
                    match self.match_capture(s, self.p(p + 1))? {
                        Some(next) => {
                            s = next;
                            p += 2;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
                _ => {}
            }
            let ep = self.class_end(p)?;
            let suffix = self.p(ep);
            if !self.single(s, p, ep) {
                if matches!(suffix, b'*' | b'?' | b'-') {
                    p = ep + 1;
                    continue;
                }
                return Ok(None);
            }
            match suffix {
                b'?' => {
                    if let Some(r) = self.do_match(s + 1, ep + 1)? {
                        return Ok(Some(r));
                    }
                    p = ep + 1;
                }
                b'+' => return self.max_expand(s + 1, p, ep),
                b'*' => return self.max_expand(s, p, ep),
                b'-' => return self.min_expand(s, p, ep),
                _ => {
                    s += 1;
                    p = ep;
                }
            }
        }
    }
}

/// A plain search for `needle` in `hay` from `init` (`lmemfind`), counting one step per 16
/// bytes scanned and one per byte compared.
pub(crate) fn find_plain(
    hay: &[u8],
    needle: &[u8],
    steps: &mut u64,
    allow: u64,
) -> Result<Option<usize>, Stop> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(0));
    };
    if needle.len() > hay.len() {
        return Ok(None);
    }
    let last = hay.len() - needle.len();
    let mut i = 0;
    while i <= last {
        let Some(k) = hay[i..=last].iter().position(|&b| b == first) else {
            *steps = steps.saturating_add(((last + 1 - i) / 16) as u64 + 1);
            return if *steps > allow {
                Err(Stop::Steps)
            } else {
                Ok(None)
            };
        };
        i += k;
        *steps = steps.saturating_add((k / 16) as u64 + 1 + rest.len() as u64);
        if *steps > allow {
            return Err(Stop::Steps);
        }
        if &hay[i + 1..i + needle.len()] == rest {
            return Ok(Some(i));
        }
        i += 1;
    }
    Ok(None)
}
