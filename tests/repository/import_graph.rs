//! A crate's import graph: its files found from a root through their `mod` declarations, and an
//! edge from a file to each file defining an item it names (re-exports followed); the circles
//! in it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::rust_source::{
    code, declared_children, ident, is_ident_char, path_attribute, paths, use_statements, Anchor,
};

/// A module's path from its crate root (`["graph", "nodes"]`; the root is `[]`).
pub(crate) type ModPath = Vec<String>;

/// One file of a crate.
pub(crate) struct File {
    pub path: PathBuf,
    /// Its code: comments removed, cut at its first `#[cfg(test)] mod`.
    pub code: String,
    /// The modules it declares (`mod x;`), which live in files of their own.
    pub children: BTreeSet<String>,
}

/// An edge's evidence: the path as written.
pub(crate) type Edges = BTreeMap<ModPath, BTreeMap<ModPath, String>>;

/// The files of the crate whose root file is `root`, by module path (walking `mod` declarations).
pub(crate) fn crate_files(root: &Path) -> BTreeMap<ModPath, File> {
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

/// The crate's import graph: for each file, the files it imports, with the first path as written.
pub(crate) fn edges(files: &BTreeMap<ModPath, File>) -> Edges {
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
pub(crate) fn circles(edges: &Edges) -> Vec<BTreeSet<ModPath>> {
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
