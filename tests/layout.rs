//! The house's layout, kept by a test: Cargo keeps the crates' layers (a crate cannot use one
//! above it); this keeps the files inside each folder free of import cycles, and the runtime
//! crate free of heavy dependencies.
//!
//! A file "imports" a sibling when it names a path through it (`super::x::Item`,
//! `crate::a::x::Item`, or an item a `mod.rs` re-exports from `x`). Code after the file's first
//! `#[cfg(test)]` is not counted (tests may reach anywhere). A cycle between files of one folder
//! fails the test unless the folder's `mod.rs` (or `lib.rs`) names it on a line
//! `//! Mutual recursion: a, b ...` with the reason beside it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

struct File {
    path: PathBuf,
    is_mod: bool,
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The text without `//` comments, cut at the first `#[cfg(test)]`.
fn code(text: &str) -> String {
    let body: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    match body.find("#[cfg(test)]") {
        Some(i) => body[..i].to_string(),
        None => body,
    }
}

fn ident(s: &str) -> (&str, &str) {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// Every path written after `crate::` or `super::`, use-trees expanded (`{a, b::{c, d}}` gives
/// `a`, `b::c`, `b::d`), as (anchor, segments).
fn paths(code: &str) -> Vec<(&'static str, Vec<String>)> {
    let mut out = Vec::new();
    for anchor in ["crate", "super"] {
        let pat = format!("{anchor}::");
        let mut rest = code;
        while let Some(i) = rest.find(&pat) {
            let before = rest[..i].chars().last();
            rest = &rest[i + pat.len()..];
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut found = Vec::new();
            use_tree(rest, Vec::new(), &mut found);
            out.extend(found.into_iter().map(|p| (anchor, p)));
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
                group = use_tree(group, segs.clone(), out).trim_start();
                match group.chars().next() {
                    Some(',') => group = &group[1..],
                    Some('}') => return &group[1..],
                    _ => return group,
                }
                if group.trim_start().starts_with('}') {
                    return &group.trim_start()[1..];
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
        match tail.strip_prefix("::") {
            Some(t) if segs.len() < 12 => s = t.trim_start(),
            _ => {
                // `name as alias` keeps the path
                out.push(segs);
                let tail = tail.trim_start();
                return match tail.strip_prefix("as ") {
                    Some(t) => ident(t.trim_start()).1,
                    None => tail,
                };
            }
        }
    }
}

fn module_path(src: &Path, file: &Path) -> (ModPath, bool) {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: ModPath = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.last().cloned().unwrap_or_default();
    let is_mod = matches!(last.as_str(), "mod" | "lib" | "main");
    if is_mod {
        parts.pop();
    }
    (parts, is_mod)
}

/// Cycles (strongly connected sets of more than one file) among sibling files of one crate.
fn cycles(src: &Path) -> Vec<BTreeSet<ModPath>> {
    let mut list = Vec::new();
    rs_files(src, &mut list);
    let mut files: BTreeMap<ModPath, File> = BTreeMap::new();
    for p in list {
        let (m, is_mod) = module_path(src, &p);
        files.insert(m, File { path: p, is_mod });
    }
    // names each mod.rs re-exports from a child module
    let mut reexports: BTreeMap<ModPath, BTreeMap<String, ModPath>> = BTreeMap::new();
    for (m, f) in &files {
        if !f.is_mod {
            continue;
        }
        let text = code(&std::fs::read_to_string(&f.path).unwrap());
        let mut map = BTreeMap::new();
        for stmt in text.split(';') {
            let s = stmt.trim();
            let Some(i) = s.find("use ") else { continue };
            if !s[..i].trim_start().starts_with("pub") {
                continue;
            }
            let body = s[i + 4..].trim().trim_start_matches("self::");
            let (child, tail) = ident(body);
            let Some(items) = tail.strip_prefix("::") else {
                continue;
            };
            let mut target = m.clone();
            target.push(child.to_string());
            for name in items
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|n| !n.is_empty())
            {
                map.insert(name.to_string(), target.clone());
            }
        }
        reexports.insert(m.clone(), map);
    }
    let resolve = |path: &[String]| -> Option<ModPath> {
        for k in (1..=path.len()).rev() {
            let pre = path[..k].to_vec();
            if let Some(f) = files.get(&pre) {
                if k < path.len() && f.is_mod {
                    if let Some(t) = reexports.get(&pre).and_then(|r| r.get(&path[k])) {
                        if files.contains_key(t) {
                            return Some(t.clone());
                        }
                    }
                }
                return Some(pre);
            }
        }
        None
    };
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (m, f) in &files {
        if f.is_mod {
            continue;
        }
        let text = code(&std::fs::read_to_string(&f.path).unwrap());
        let mut deps = BTreeSet::new();
        for (anchor, segs) in paths(&text) {
            let mut full: ModPath = if anchor == "crate" {
                Vec::new()
            } else {
                m[..m.len() - 1].to_vec()
            };
            let mut segs = segs.as_slice();
            while anchor == "super" && segs.first().is_some_and(|s| s == "super") {
                full.pop();
                segs = &segs[1..];
            }
            full.extend(segs.iter().cloned());
            if let Some(t) = resolve(&full) {
                if &t != m && t.len() == m.len() && t[..t.len() - 1] == m[..m.len() - 1] {
                    deps.insert(t);
                }
            }
        }
        edges.insert(m.clone(), deps);
    }
    // strongly connected components: reachability both ways (small graphs)
    let reach = |from: &ModPath| -> BTreeSet<ModPath> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(v) = todo.pop() {
            for w in edges.get(&v).into_iter().flatten() {
                if seen.insert(w.clone()) {
                    todo.push(w.clone());
                }
            }
        }
        seen
    };
    let all: BTreeMap<ModPath, BTreeSet<ModPath>> =
        edges.keys().map(|v| (v.clone(), reach(v))).collect();
    let mut out: Vec<BTreeSet<ModPath>> = Vec::new();
    for (v, r) in &all {
        let comp: BTreeSet<ModPath> = r
            .iter()
            .filter(|w| all.get(*w).is_some_and(|rw| rw.contains(v)))
            .cloned()
            .chain(std::iter::once(v.clone()))
            .collect();
        if comp.len() > 1 && !out.contains(&comp) {
            out.push(comp);
        }
    }
    out
}

/// The files a folder's docs declare as a mutual recursion (`//! Mutual recursion: a, b`).
fn declared(src: &Path, folder: &[String]) -> Vec<BTreeSet<String>> {
    let dir = folder.iter().fold(src.to_path_buf(), |p, s| p.join(s));
    let doc = ["mod.rs", "lib.rs", "main.rs"]
        .iter()
        .find_map(|f| std::fs::read_to_string(dir.join(f)).ok())
        .unwrap_or_default();
    doc.lines()
        .filter_map(|l| l.trim().strip_prefix("//! Mutual recursion:"))
        .map(|names| {
            names
                .split(|c: char| c == ',' || c.is_whitespace())
                .map(|n| n.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

fn crate_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    srcs.sort();
    srcs.push(root.join("src"));
    srcs
}

#[test]
fn no_import_cycle_between_files_of_a_folder() {
    let mut undeclared = Vec::new();
    let mut crates = 0;
    for src in crate_sources() {
        crates += 1;
        for comp in cycles(&src) {
            let first = comp.iter().next().unwrap();
            let folder = &first[..first.len() - 1];
            let names: BTreeSet<String> = comp.iter().map(|m| m.last().unwrap().clone()).collect();
            let ok = declared(&src, folder)
                .iter()
                .any(|d| names.iter().all(|n| d.contains(n)));
            if !ok {
                undeclared.push(format!(
                    "{}/{}: {}",
                    src.display(),
                    folder.join("/"),
                    names.into_iter().collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    assert!(
        crates >= 7,
        "expected the workspace's crates, found {crates}"
    );
    assert!(
        undeclared.is_empty(),
        "import cycles between files (break them, or name a real mutual recursion in the \
         folder's docs as `//! Mutual recursion: a, b (why)`):\n{}",
        undeclared.join("\n")
    );
}

/// The finder itself finds a cycle it is shown (a check that cannot fail is no check).
#[test]
fn the_cycle_finder_finds_a_planted_cycle() {
    let dir = std::env::temp_dir().join(format!("marionette-layout-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("graph")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod graph;\n").unwrap();
    std::fs::write(
        src.join("graph/mod.rs"),
        "mod a;\nmod b;\nmod c;\npub use b::Thing;\n",
    )
    .unwrap();
    std::fs::write(src.join("graph/a.rs"), "use super::Thing;\n").unwrap();
    std::fs::write(src.join("graph/b.rs"), "use crate::graph::c::Other;\n").unwrap();
    std::fs::write(
        src.join("graph/c.rs"),
        "use super::{d, e::{f::G, H}, a::{X as Y}};\n",
    )
    .unwrap();
    let found = cycles(&src);
    let _ = std::fs::remove_dir_all(&dir);
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|c| c.iter().map(|m| m.join("/")).collect())
        .collect();
    assert_eq!(names, vec![vec!["graph/a", "graph/b", "graph/c"]]);
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
