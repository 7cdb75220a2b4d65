//! The house's layout, kept by a test: Cargo keeps the crates' layers (a crate cannot use one
//! above it); this keeps the files inside each crate free of import circles, and the runtime
//! crate free of heavy dependencies.
//!
//! **Files and edges.** A crate's files are found from its root (`lib.rs`, `main.rs`) through its
//! `mod` declarations. A file *imports* another when its code names a path that resolves to an
//! item of that file: `crate::a::b::Item`, `super::x::Item`, `self::x::Item`, a path through one
//! of its own child modules (`child::f()`), in a `use` (grouped trees expanded: `{a, b::{c, d}}`)
//! or inline in an expression (`crate::a::f(..)`). A path to an item that a file re-exports
//! (`pub use`) resolves on to the file that defines it; a re-export of the file's own children is
//! not an import (it is how a `mod.rs` lays out its folder), a re-export of anything else is. A
//! parent's `mod` declarations are not imports; `#[cfg(test)] mod ...` (and all code after it) is
//! not counted: tests may reach anywhere. An import of one's own `mod.rs` (`super::Item` defined
//! there) is an edge like any other.
//!
//! **Circles.** Any cycle of such edges inside a crate fails the test, unless a file of the crate
//! names every file of it on a line `//! Mutual recursion: a, b (why)` (module paths with `/`, or
//! file stems).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from its crate root (`["graph", "nodes"]`; the root is `[]`).
type ModPath = Vec<String>;

/// One file of a crate.
struct File {
    path: PathBuf,
    /// Its code: comments removed, cut at its first `#[cfg(test)] mod`.
    code: String,
    /// The modules it declares (`mod x;`), which live in files of their own.
    children: BTreeSet<String>,
}

/// An edge's evidence: the path as written.
type Edges = BTreeMap<ModPath, BTreeMap<ModPath, String>>;

fn ident(s: &str) -> (&str, &str) {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The text without comments (`//` to the end of the line, `/* */`) and string literals' content,
/// cut at the first `#[cfg(test)]` that starts a module.
fn code(text: &str) -> String {
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
fn declared_children(code: &str) -> BTreeSet<String> {
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
fn use_tree<'a>(s: &'a str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> &'a str {
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
enum Anchor {
    Crate,
    /// `super::` (each further `super::` climbs one more)
    Super,
    SelfMod,
    /// a child module of the file, named without `self::`
    Child,
}

/// Every path in `code` with its anchor, its segments (the anchor's own keyword excluded; a
/// child's name included) and its byte offset.
fn paths(code: &str, children: &BTreeSet<String>) -> Vec<(Anchor, Vec<String>, usize)> {
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

/// The files of the crate whose root file is `root`, by module path (walking `mod` declarations).
fn crate_files(root: &Path) -> BTreeMap<ModPath, File> {
    let mut files = BTreeMap::new();
    let mut todo: Vec<(ModPath, PathBuf)> = vec![(Vec::new(), root.to_path_buf())];
    while let Some((m, path)) = todo.pop() {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let code = code(&text);
        let children = declared_children(&code);
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let dir = path.parent().unwrap_or(Path::new("."));
        let child_dir = if m.is_empty() || stem == "mod" {
            dir.to_path_buf()
        } else {
            dir.join(stem)
        };
        for c in &children {
            let flat = child_dir.join(format!("{c}.rs"));
            let nested = child_dir.join(c).join("mod.rs");
            let p = match path_attribute(&text, c) {
                Some(rel) => dir.join(rel),
                None if flat.is_file() => flat,
                None => nested,
            };
            let mut cm = m.clone();
            cm.push(c.clone());
            todo.push((cm, p));
        }
        files.insert(
            m,
            File {
                path,
                code,
                children,
            },
        );
    }
    files
}

/// The file a `#[path = "file.rs"] mod name;` declaration names, if it has one.
fn path_attribute(text: &str, name: &str) -> Option<String> {
    let decl = format!("mod {name};");
    let at = text.find(&decl)?;
    let before = text[..at].trim_end().trim_end_matches("pub").trim_end();
    let attr = before.strip_suffix("\"]")?;
    let open = attr.rfind("#[path = \"")?;
    Some(attr[open + "#[path = \"".len()..].to_string())
}

/// A `use` statement's visibility and its trees: `Some(true)` for `pub` (any `pub(..)`).
fn use_statements(code: &str) -> Vec<(bool, usize, usize)> {
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

/// The crate's import graph: for each file, the files it imports, with the first path as written.
fn edges(files: &BTreeMap<ModPath, File>) -> Edges {
    // a path's full module path, from its anchor in file `m`
    let absolute = |m: &ModPath, anchor: Anchor, segs: &[String]| -> ModPath {
        let mut full = match anchor {
            Anchor::Crate => Vec::new(),
            Anchor::Super => m[..m.len().saturating_sub(1)].to_vec(),
            Anchor::SelfMod | Anchor::Child => m.clone(),
        };
        let mut segs = segs;
        while anchor == Anchor::Super && segs.first().is_some_and(|s| s == "super") {
            full.pop();
            segs = &segs[1..];
        }
        full.extend(segs.iter().filter(|s| *s != "self").cloned());
        full
    };
    // re-exports: (file, name) -> full path of what it names; re-exports of a file's own
    // children are not imports, their byte ranges are left out of the edge scan
    let mut aliases: BTreeMap<(ModPath, String), ModPath> = BTreeMap::new();
    let mut layout_ranges: BTreeMap<ModPath, Vec<(usize, usize)>> = BTreeMap::new();
    let mut used_reexports: BTreeMap<ModPath, Vec<String>> = BTreeMap::new();
    for (m, f) in files {
        for (is_pub, at, end) in use_statements(&f.code) {
            if !is_pub {
                continue;
            }
            let stmt = &f.code[at..end];
            let ps = paths(stmt, &f.children);
            if ps.is_empty() {
                continue;
            }
            let mut own_children = true;
            for (anchor, segs, _) in &ps {
                let full = absolute(m, *anchor, segs);
                if full.len() <= m.len() || full[..m.len()] != m[..] {
                    own_children = false;
                }
                if let Some(name) = full.last() {
                    aliases.insert((m.clone(), name.clone()), full);
                }
            }
            // `as` renames: the alias is the new name
            for piece in stmt.split(" as ").skip(1) {
                let (alias, _) = ident(piece.trim_start());
                let before = &stmt[..stmt.find(&format!(" as {alias}")).unwrap_or(0)];
                let orig = before
                    .rsplit(|c: char| !is_ident_char(c))
                    .next()
                    .unwrap_or("");
                if let Some(full) = aliases.get(&(m.clone(), orig.to_string())).cloned() {
                    aliases.insert((m.clone(), alias.to_string()), full);
                }
            }
            if own_children {
                layout_ranges.entry(m.clone()).or_default().push((at, end));
                // a re-exported name the file's own code uses is an import of it
                let names: Vec<String> = aliases
                    .keys()
                    .filter(|(f, n)| f == m && stmt.contains(n.as_str()))
                    .map(|(_, n)| n.clone())
                    .collect();
                used_reexports.entry(m.clone()).or_default().extend(names);
            }
        }
    }
    let resolve = |path: &ModPath| -> Option<ModPath> {
        let mut path = path.clone();
        for _ in 0..16 {
            let k = (0..=path.len())
                .rev()
                .find(|k| files.contains_key(&path[..*k]))?;
            let file = path[..k].to_vec();
            match path
                .get(k)
                .and_then(|n| aliases.get(&(file.clone(), n.clone())))
            {
                Some(target) if target[..] != path[..k + 1] => {
                    let mut next = target.clone();
                    next.extend(path[k + 1..].iter().cloned());
                    path = next;
                }
                _ => return Some(file),
            }
        }
        None
    };
    let mut out: Edges = BTreeMap::new();
    for (m, f) in files {
        let skip = layout_ranges.get(m).cloned().unwrap_or_default();
        let deps = out.entry(m.clone()).or_default();
        // names a file re-exports from its children and uses in its own code
        let outside_uses = {
            let mut text = f.code.clone();
            for (_, at, end) in use_statements(&f.code) {
                text.replace_range(at..end, &" ".repeat(end - at));
            }
            for child in &f.children {
                text = text.replace(&format!("mod {child};"), "");
            }
            text
        };
        for name in used_reexports.get(m).into_iter().flatten() {
            let used = outside_uses.match_indices(name.as_str()).any(|(i, _)| {
                let before = outside_uses[..i].chars().last();
                let after = outside_uses[i + name.len()..].chars().next();
                !before.is_some_and(|c| is_ident_char(c) || c == ':')
                    && !after.is_some_and(is_ident_char)
            });
            let target = aliases.get(&(m.clone(), name.clone())).and_then(&resolve);
            if let (true, Some(t)) = (used, target) {
                if &t != m {
                    deps.entry(t)
                        .or_insert(format!("{name} (re-exported and used)"));
                }
            }
        }
        for (anchor, segs, at) in paths(&f.code, &f.children) {
            if skip.iter().any(|(s, e)| (*s..*e).contains(&at)) {
                continue;
            }
            let full = absolute(m, anchor, &segs);
            if let Some(t) = resolve(&full) {
                if &t != m {
                    let written = match anchor {
                        Anchor::Crate => format!("crate::{}", segs.join("::")),
                        Anchor::Super => format!("super::{}", segs.join("::")),
                        Anchor::SelfMod => format!("self::{}", segs.join("::")),
                        Anchor::Child => segs.join("::"),
                    };
                    deps.entry(t).or_insert(written);
                }
            }
        }
    }
    out
}

/// Strongly connected sets of more than one file.
fn circles(edges: &Edges) -> Vec<BTreeSet<ModPath>> {
    let reach = |from: &ModPath| -> BTreeSet<ModPath> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(v) = todo.pop() {
            for w in edges.get(&v).into_iter().flat_map(|d| d.keys()) {
                if seen.insert(w.clone()) {
                    todo.push(w.clone());
                }
            }
        }
        seen
    };
    let all: BTreeMap<&ModPath, BTreeSet<ModPath>> = edges.keys().map(|v| (v, reach(v))).collect();
    let mut out: Vec<BTreeSet<ModPath>> = Vec::new();
    for (v, r) in &all {
        let comp: BTreeSet<ModPath> = r
            .iter()
            .filter(|w| all.get(*w).is_some_and(|rw| rw.contains(*v)))
            .cloned()
            .chain(std::iter::once((*v).clone()))
            .collect();
        if comp.len() > 1 && !out.contains(&comp) {
            out.push(comp);
        }
    }
    out
}

/// A file's name for messages: its path under `src/`.
fn shown(files: &BTreeMap<ModPath, File>, m: &ModPath, src: &Path) -> String {
    files.get(m).map_or_else(
        || m.join("/"),
        |f| {
            f.path
                .strip_prefix(src)
                .unwrap_or(&f.path)
                .display()
                .to_string()
        },
    )
}

/// The circles of the crate rooted at `root`, each as a message naming its edges; circles that
/// the crate declares as mutual recursions are left out.
fn undeclared_circles(root: &Path) -> Vec<String> {
    let src = root.parent().unwrap_or(Path::new("."));
    let files = crate_files(root);
    let edges = edges(&files);
    let declared: Vec<BTreeSet<String>> = files
        .values()
        .flat_map(|f| {
            let text = std::fs::read_to_string(&f.path).unwrap_or_default();
            text.lines()
                .filter_map(|l| l.trim().strip_prefix("//! Mutual recursion:"))
                .map(|names| {
                    let names = names.split('(').next().unwrap_or("");
                    names
                        .split([',', ' '])
                        .map(|n| n.trim().to_string())
                        .filter(|n| !n.is_empty())
                        .collect()
                })
                .collect::<Vec<BTreeSet<String>>>()
        })
        .collect();
    let mut out = Vec::new();
    for comp in circles(&edges) {
        let excused = declared.iter().any(|d| {
            comp.iter()
                .all(|m| d.contains(&m.join("/")) || m.last().is_some_and(|s| d.contains(s)))
        });
        if excused {
            continue;
        }
        let mut lines = Vec::new();
        for m in &comp {
            for (t, written) in edges.get(m).into_iter().flatten() {
                if comp.contains(t) {
                    lines.push(format!(
                        "    {} -> {}  ({written})",
                        shown(&files, m, src),
                        shown(&files, t, src)
                    ));
                }
            }
        }
        out.push(format!("{}:\n{}", src.display(), lines.join("\n")));
    }
    out
}

/// Every crate root of the workspace: each crate's `lib.rs`, and the root package's library and
/// binary (two crates in one `src/`).
fn crate_roots() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src/lib.rs"))
        .filter(|p| p.is_file())
        .collect();
    roots.sort();
    roots.push(root.join("src/lib.rs"));
    roots.push(root.join("src/main.rs"));
    roots
}

#[test]
fn no_import_circle_inside_a_crate() {
    let roots = crate_roots();
    assert!(
        roots.len() >= 8,
        "expected the workspace's crates, found {roots:?}"
    );
    let mut found = Vec::new();
    for root in &roots {
        found.extend(undeclared_circles(root));
    }
    assert!(
        found.is_empty(),
        "import circles between files (break them, or name a real mutual recursion in a file's \
         docs as `//! Mutual recursion: a, b (why)`):\n{}",
        found.join("\n")
    );
}

/// Writes a planted crate (file path -> text) and returns the circles found in it, each as the
/// sorted module paths of its files.
fn planted(name: &str, files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("marionette-layout-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join("src").join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let files = crate_files(&dir.join("src/lib.rs"));
    let found = circles(&edges(&files));
    let _ = std::fs::remove_dir_all(&dir);
    found
        .iter()
        .map(|c| c.iter().map(|m| m.join("/")).collect())
        .collect()
}

/// A circle of each shape the finder must see, and what it must not count.
#[test]
fn the_circle_finder_finds_each_planted_shape() {
    let lib = ("lib.rs", "pub mod graph;\nmod top;\n");
    let graph = "mod a;\nmod b;\nmod c;\npub use b::Thing;\n";
    // child to sibling through a mod.rs re-export, `crate::` paths and grouped use-trees
    assert_eq!(
        planted(
            "siblings",
            &[
                lib,
                ("top.rs", ""),
                ("graph/mod.rs", graph),
                ("graph/a.rs", "use super::Thing;\n"),
                ("graph/b.rs", "use crate::graph::c::Other;\n"),
                ("graph/c.rs", "use super::{d, e::{f::G, H}, a::{X as Y}};\n"),
            ],
        ),
        vec![vec!["graph/a", "graph/b", "graph/c"]]
    );
    // an inline `crate::a::f()` path, across folders
    assert_eq!(
        planted(
            "inline",
            &[
                lib,
                ("top.rs", "pub fn f() { let _ = crate::graph::a::g(); }\n"),
                ("graph/mod.rs", graph),
                ("graph/a.rs", "pub fn g() { crate::top::f() }\n"),
                ("graph/b.rs", ""),
                ("graph/c.rs", ""),
            ],
        ),
        vec![vec!["graph/a", "top"]]
    );
    // a mod.rs's own code using a child, which uses an item of the mod.rs
    assert_eq!(
        planted(
            "through-mod",
            &[
                lib,
                ("top.rs", ""),
                (
                    "graph/mod.rs",
                    "mod a;\nmod b;\nmod c;\npub struct Error;\npub fn run() { a::go() }\n"
                ),
                ("graph/a.rs", "use super::Error;\npub fn go() {}\n"),
                ("graph/b.rs", ""),
                ("graph/c.rs", ""),
            ],
        ),
        vec![vec!["graph", "graph/a"]]
    );
    // a mod.rs using, in its own code, an item it re-exports from a child that imports it
    assert_eq!(
        planted(
            "re-export-used",
            &[
                lib,
                ("top.rs", ""),
                ("graph/mod.rs", "mod a;\nmod b;\nmod c;\npub use a::go;\npub struct Error;\npub fn run() { go() }\n"),
                ("graph/a.rs", "use super::Error;\npub fn go() {}\n"),
                ("graph/b.rs", ""),
                ("graph/c.rs", ""),
            ],
        ),
        vec![vec!["graph", "graph/a"]]
    );
    // `super::super::` from a nested file, and a re-export of a non-child being an import
    assert_eq!(
        planted(
            "re-export",
            &[
                lib,
                (
                    "top.rs",
                    "pub use crate::graph::b::Thing;\npub struct Other;\n"
                ),
                ("graph/mod.rs", "mod a;\nmod b;\nmod c;\n"),
                ("graph/a.rs", ""),
                (
                    "graph/b.rs",
                    "mod deep;\npub struct Thing;\nfn f() { deep::g() }\n"
                ),
                (
                    "graph/b/deep.rs",
                    "use super::super::super::top::Other as T;\npub fn g() {}\n"
                ),
                ("graph/c.rs", ""),
            ],
        ),
        vec![vec!["graph/b", "graph/b/deep", "top"]]
    );
    // not circles: a parent's `mod` declarations and re-exports of its children, a child using
    // its mod.rs, test modules reaching anywhere, paths in comments and strings
    assert_eq!(
        planted(
            "none",
            &[
                lib,
                ("top.rs", "pub fn t() { let _ = \"crate::graph::a::g\"; } // crate::graph::a\n"),
                (
                    "graph/mod.rs",
                    "mod a;\npub(crate) mod b;\nmod c;\npub use self::a::{g, G as H};\npub use c::*;\npub struct Error;\n#[cfg(test)]\nmod tests { use super::a::g; }\n",
                ),
                ("graph/a.rs", "use super::Error;\nuse crate::top::t;\npub fn g() {}\n"),
                ("graph/b.rs", "use super::Error;\n/* crate::graph::a::g */\n"),
                ("graph/c.rs", "#[cfg(test)]\nmod tests { use crate::graph::Error; }\n"),
            ],
        ),
        Vec::<Vec<String>>::new()
    );
}

/// The runtime stays light: glam, thiserror and serde, and rayon only behind `crowd`.
#[test]
fn anim_depends_on_glam_thiserror_serde_only() {
    let toml = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/marionette-anim/Cargo.toml"),
    )
    .unwrap();
    let deps = toml
        .split("[dependencies]")
        .nth(1)
        .expect("a [dependencies] table")
        .split("\n[")
        .next()
        .unwrap_or("");
    for line in deps.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        let optional = line.contains("optional = true");
        assert!(
            matches!(name, "glam" | "thiserror" | "serde") || (name == "rayon" && optional),
            "marionette-anim may depend on glam, thiserror and serde (rayon optional): {line}"
        );
    }
}
