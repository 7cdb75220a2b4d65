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

use super::import_graph::{circles, crate_files, edges, File, ModPath};

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
