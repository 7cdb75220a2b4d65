//! Reading Rust source as text, enough for the layout test: code without comments and string
//! contents (cut at a test module), `mod` declarations and `#[path]` attributes, `use`
//! statements, and every path a file writes (`crate::`, `super::`, `self::`, a child module's),
//! use-trees expanded.

use std::collections::BTreeSet;

pub(crate) fn ident(s: &str) -> (&str, &str) {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

pub(crate) fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The text without comments (`//` to the end of the line, `/* */`) and string literals' content,
/// cut at the first `#[cfg(test)]` that starts a module.
pub(crate) fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' && !(i > 0 && b[i - 1] == '\'' && next == Some('\'')) {
            // a string literal (raw strings `r"..."` / `r#"..."#` included): its content is not code
            let hashes = {
                let mut h = 0;
                while i > h && b[i - 1 - h] == '#' {
                    h += 1;
                }
                h
            };
            let raw = i > hashes && b[i - 1 - hashes] == 'r';
            out.push('"');
            i += 1;
            while i < b.len() {
                if !raw && b[i] == '\\' {
                    i += 2;
                    continue;
                }
                if b[i] == '"' && (0..hashes).all(|k| b.get(i + 1 + k) == Some(&'#')) {
                    break;
                }
                if b[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && next.is_some() && b.get(i + 2) == Some(&'\'') {
            // a char literal such as '"' or '{'
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && next == Some('\\') {
            // an escaped char literal such as '\'' or '\n'
            let mut j = i + 2;
            while j < b.len() && b[j] != '\'' {
                j += 1;
            }
            if b.get(i + 2) == Some(&'\'') {
                j = i + 3;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    // `#[cfg(test)]` before `mod`: the test module and all after it are not counted
    let mut from = 0;
    while let Some(k) = out[from..].find("#[cfg(test)]") {
        let at = from + k;
        let mut rest = out[at + "#[cfg(test)]".len()..].trim_start();
        while rest.starts_with("#[") {
            rest = rest.find(']').map_or("", |e| rest[e + 1..].trim_start());
        }
        if rest.starts_with("mod ") || rest.starts_with("pub mod ") {
            out.truncate(at);
            break;
        }
        from = at + 1;
    }
    out
}

/// The modules a file declares with `mod name;` (not `mod name { .. }` blocks).
pub(crate) fn declared_children(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut from = 0;
    while let Some(k) = code[from..].find("mod ") {
        let at = from + k;
        from = at + 4;
        if at > 0 && is_ident_char(code.as_bytes()[at - 1] as char) {
            continue;
        }
        let (name, tail) = ident(code[at + 4..].trim_start());
        if !name.is_empty() && tail.trim_start().starts_with(';') {
            out.insert(name.to_string());
        }
    }
    out
}

/// Parses one use-tree (a path, or a braced group of trees, after an optional path) at the start
/// of `s`, pushing every full path under `prefix`; returns what follows the tree.
pub(crate) fn use_tree<'a>(s: &'a str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> &'a str {
    let mut segs = prefix;
    let mut s = s.trim_start();
    loop {
        if let Some(mut group) = s.strip_prefix('{') {
            loop {
                group = group.trim_start();
                if let Some(g) = group.strip_prefix('}') {
                    return g;
                }
                group = use_tree(group, segs.clone(), out).trim_start();
                match group.chars().next() {
                    Some(',') => group = &group[1..],
                    Some('}') => return &group[1..],
                    _ => return group,
                }
            }
        }
        let (id, tail) = ident(s);
        if id.is_empty() {
            if !segs.is_empty() {
                out.push(segs);
            }
            return s;
        }
        segs.push(id.to_string());
        let tail_t = tail.trim_start();
        match tail_t.strip_prefix("::") {
            Some(t) if segs.len() < 16 && !t.trim_start().starts_with('<') => s = t.trim_start(),
            _ => {
                out.push(segs);
                return match tail_t.strip_prefix("as ") {
                    Some(t) => ident(t.trim_start()).1,
                    None => tail,
                };
            }
        }
    }
}

/// Where a path written in a file starts from.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Anchor {
    Crate,
    /// `super::` (each further `super::` climbs one more)
    Super,
    SelfMod,
    /// a child module of the file, named without `self::`
    Child,
}

/// Every path in `code` with its anchor, its segments (the anchor's own keyword excluded; a
/// child's name included) and its byte offset.
pub(crate) fn paths(code: &str, children: &BTreeSet<String>) -> Vec<(Anchor, Vec<String>, usize)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let c = bytes[i] as char;
        if !is_ident_char(c)
            || (i > 0
                && (is_ident_char(bytes[i - 1] as char)
                    || bytes[i - 1] == b':'
                    || bytes[i - 1] == b'.'
                    || bytes[i - 1] == b'$'))
        {
            i += 1;
            continue;
        }
        let (id, tail) = ident(&code[i..]);
        let after_id = i + id.len();
        if !tail.starts_with("::") {
            i = after_id.max(i + 1);
            continue;
        }
        let (anchor, keep_first) = match id {
            "crate" => (Anchor::Crate, false),
            "super" => (Anchor::Super, false),
            "self" => (Anchor::SelfMod, false),
            _ if children.contains(id) => (Anchor::Child, true),
            _ => {
                i = after_id;
                continue;
            }
        };
        let start = if keep_first { i } else { after_id + 2 };
        let mut found = Vec::new();
        let rest = use_tree(&code[start..], Vec::new(), &mut found);
        for p in found {
            out.push((anchor, p, i));
        }
        i = (code.len() - rest.len()).max(after_id);
    }
    out
}

/// The file a `#[path = "file.rs"] mod name;` declaration names, if it has one.
pub(crate) fn path_attribute(text: &str, name: &str) -> Option<String> {
    let decl = format!("mod {name};");
    let at = text.find(&decl)?;
    let before = text[..at].trim_end().trim_end_matches("pub").trim_end();
    let attr = before.strip_suffix("\"]")?;
    let open = attr.rfind("#[path = \"")?;
    Some(attr[open + "#[path = \"".len()..].to_string())
}

/// A `use` statement's visibility and its trees: `Some(true)` for `pub` (any `pub(..)`).
pub(crate) fn use_statements(code: &str) -> Vec<(bool, usize, usize)> {
    // (is pub, start of the statement, end) for every `use ...;`
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find("use ") {
        let at = from + k;
        from = at + 4;
        if at > 0 && is_ident_char(code.as_bytes()[at - 1] as char) {
            continue;
        }
        let Some(end) = code[at..].find(';').map(|e| at + e) else {
            break;
        };
        let before = code[..at].trim_end();
        let before = before
            .strip_suffix(')')
            .map_or(before, |b| b.rfind('(').map_or(b, |o| b[..o].trim_end()));
        let is_pub = before.ends_with("pub")
            && !before[..before.len() - 3]
                .chars()
                .last()
                .is_some_and(is_ident_char);
        out.push((is_pub, at, end));
    }
    out
}
