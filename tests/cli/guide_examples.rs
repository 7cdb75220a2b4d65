//! Every Lua example of the guide (`docs/src/*.md`) and of `README.md` runs through
//! `marionette check`, so the documents cannot drift from the API.
//!
//! Each ```` ```lua ```` block is written as `script.lua` in a project folder of its own (with a
//! copy of the mannequin as `mannequin.glb`, of the puppet as `puppet.glb` and of the creature as
//! `creature.glb`, for examples that name a rig file) and checked
//! there. The block's info string says how (the guide's "Tests, test data and fuzzing" chapter
//! documents it):
//!
//! - `lua`: a whole script; `check` must exit 0 and print no warning.
//! - `lua,fragment`: statements, put after [`FRAGMENT_HEAD`] and ended with [`FRAGMENT_TAIL`]
//!   (a fragment that defines `local root` has it checked as the graph's root); then as `lua`.
//! - `lua,fails`: a script meant to be refused; `check` must exit 1 with an `error:`.
//!
//! A ```` ```text,output ```` block right after a Lua block is what `check` prints for it: each
//! of its lines must appear in `check`'s output. Any other word after `lua` is an error, so no
//! block is skipped silently.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::script_common::TempDir;

use crate::common;

/// What a fragment is put after.
const FRAGMENT_HEAD: &str = "local rig = marionette.rig()\n";
/// What a fragment is ended with.
const FRAGMENT_TAIL: &str = "return graph { root = root or rig.idle }\n";
/// The guide and README hold at least this many Lua blocks; fewer means the extraction broke
/// (or examples were dropped: then lower it on purpose).
const MIN_BLOCKS: usize = 12;

/// How a block is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Script,
    Fragment,
    Fails,
}

/// One fenced code block of a Markdown file.
#[derive(Debug)]
struct Fence {
    /// The info string's words (split at commas and spaces).
    info: Vec<String>,
    /// 1-based line of the opening fence.
    line: usize,
    text: String,
}

/// One Lua example to check.
#[derive(Debug)]
struct Example {
    /// The Markdown file, relative to the repository.
    file: String,
    /// 1-based among the file's Lua blocks.
    number: usize,
    line: usize,
    kind: Kind,
    code: String,
    /// The `text,output` block after it: lines `check` must print.
    output: Option<String>,
}

impl Example {
    fn name(&self) -> String {
        format!(
            "{} Lua block {} (line {})",
            self.file, self.number, self.line
        )
    }

    /// The script as written to disk.
    fn script(&self) -> String {
        match self.kind {
            Kind::Fragment => format!("{FRAGMENT_HEAD}{}{FRAGMENT_TAIL}", self.code),
            Kind::Script | Kind::Fails => self.code.clone(),
        }
    }
}

/// The fenced code blocks of a Markdown text (backtick fences, indented or not).
fn fences(markdown: &str) -> Result<Vec<Fence>, String> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, Fence)> = None; // (indent, fence length, block)
    for (i, raw) in markdown.lines().enumerate() {
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        let ticks = trimmed.chars().take_while(|c| *c == '`').count();
        match &mut open {
            None if ticks >= 3 => {
                let info = trimmed[ticks..]
                    .split([',', ' ', '\t'])
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned)
                    .collect();
                open = Some((
                    indent,
                    ticks,
                    Fence {
                        info,
                        line: i + 1,
                        text: String::new(),
                    },
                ));
            }
            None => {}
            Some((_, len, _)) if ticks >= *len && trimmed[ticks..].trim().is_empty() => {
                let (_, _, fence) = open.take().expect("open fence");
                out.push(fence);
            }
            Some((fence_indent, _, fence)) => {
                // Content lines lose at most the fence's own indentation.
                let strip = raw
                    .chars()
                    .take(*fence_indent)
                    .take_while(|c| *c == ' ')
                    .count();
                fence.text.push_str(&raw[strip..]);
                fence.text.push('\n');
            }
        }
    }
    match open {
        Some((_, _, fence)) => Err(format!(
            "the code block opened at line {} is never closed",
            fence.line
        )),
        None => Ok(out),
    }
}

/// The Lua examples of one Markdown file (`file` names it in messages).
fn examples(file: &str, markdown: &str) -> Result<Vec<Example>, String> {
    let fences = fences(markdown).map_err(|e| format!("{file}: {e}"))?;
    let mut out: Vec<Example> = Vec::new();
    let mut previous_lua = false;
    for fence in fences {
        let lang = fence.info.first().map(String::as_str).unwrap_or("");
        let words = fence.info.get(1..).unwrap_or(&[]);
        if lang == "text" && words.iter().any(|w| w == "output") {
            let example = match out.last_mut() {
                Some(example) if previous_lua => example,
                _ => {
                    return Err(format!(
                        "{file}:{}: a `text,output` block must follow a Lua block",
                        fence.line
                    ));
                }
            };
            example.output = Some(fence.text);
            previous_lua = false;
            continue;
        }
        previous_lua = false;
        if !lang.eq_ignore_ascii_case("lua") {
            continue;
        }
        if lang != "lua" {
            return Err(format!(
                "{file}:{}: write the info string `{lang}` as `lua`",
                fence.line
            ));
        }
        let mut kind = Kind::Script;
        for word in words {
            kind = match (word.as_str(), kind) {
                ("fragment", Kind::Script) => Kind::Fragment,
                ("fails", Kind::Script) => Kind::Fails,
                _ => {
                    return Err(format!(
                        "{file}:{}: Lua block with `{}`: the info string is `lua`, `lua,fragment` \
                         or `lua,fails` (see tests/cli/guide_examples.rs); no block is skipped",
                        fence.line,
                        fence.info.join(",")
                    ));
                }
            };
        }
        out.push(Example {
            file: file.to_owned(),
            number: out.len() + 1,
            line: fence.line,
            kind,
            code: fence.text,
            output: None,
        });
        previous_lua = true;
    }
    Ok(out)
}

/// The Markdown files whose Lua blocks are checked: README.md and every `.md` under docs/src.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut docs = Vec::new();
    walk(&common::repo_path("docs/src"), &mut docs);
    docs.sort();
    let mut all = vec![common::repo_path("README.md")];
    all.extend(docs);
    all
}

/// Checks one example: `None` when it behaves as its info string says, else why not.
fn check(example: &Example, mannequin: &Path) -> Option<String> {
    let dir = TempDir::new("guide");
    std::fs::copy(mannequin, dir.join("mannequin.glb")).expect("copy the mannequin");
    let puppet = common::repo_path("scripts/puppet.glb");
    std::fs::copy(puppet, dir.join("puppet.glb")).expect("copy the puppet");
    let creature = common::repo_path("scripts/creature.glb");
    std::fs::copy(creature, dir.join("creature.glb")).expect("copy the creature");
    let script = example.script();
    dir.write("script.lua", &script);
    let out = crate::common::marionette_cmd()
        .args(["check", "script.lua"])
        .current_dir(dir.path())
        .env_remove("MARIONETTE_ALLOW_READ")
        .output()
        .expect("run marionette check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let printed = format!("{stdout}{stderr}");

    let mut why = Vec::new();
    match example.kind {
        Kind::Script | Kind::Fragment => {
            if !out.status.success() {
                why.push(format!("`marionette check` failed ({})", out.status));
            } else if printed.contains("warning:") {
                why.push("`marionette check` warned".to_owned());
            }
        }
        Kind::Fails => {
            if out.status.code() != Some(1) {
                why.push(format!(
                    "a `lua,fails` block must make `marionette check` exit 1, it gave {}",
                    out.status
                ));
            } else if !stderr.contains("error:") {
                why.push("a `lua,fails` block must print an `error:`".to_owned());
            }
        }
    }
    if let Some(expected) = &example.output {
        for line in expected.lines().filter(|l| !l.trim().is_empty()) {
            if !printed.contains(line.trim_end()) {
                why.push(format!(
                    "the `text,output` line is not in what `check` printed: {line}"
                ));
            }
        }
    }
    if why.is_empty() {
        return None;
    }
    let mut message = format!("{}:\n", example.name());
    for w in &why {
        let _ = writeln!(message, "  {w}");
    }
    let _ = writeln!(message, "  what `marionette check script.lua` printed:");
    for line in printed.lines() {
        let _ = writeln!(message, "    {line}");
    }
    let _ = writeln!(message, "  the script checked:");
    for (n, line) in script.lines().enumerate() {
        let _ = writeln!(message, "    {:>3} | {line}", n + 1);
    }
    Some(message)
}

/// Every Lua block of README.md and docs/src passes `marionette check` as its info string says.
#[test]
fn every_lua_example_passes_check() {
    let root = common::repo_path("");
    let mannequin = common::repo_path("assets/mannequin.glb");
    let mut all = Vec::new();
    let mut problems = Vec::new();
    for path in documents() {
        let file = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        match examples(&file, &text) {
            Ok(found) => all.extend(found),
            Err(e) => problems.push(e),
        }
    }
    for example in &all {
        if let Some(problem) = check(example, &mannequin) {
            problems.push(problem);
        }
    }

    let count = |kind| all.iter().filter(|e| e.kind == kind).count();
    let files = {
        let mut f: Vec<&str> = all.iter().map(|e| e.file.as_str()).collect();
        f.dedup();
        f.len()
    };
    println!(
        "checked {} Lua blocks from {files} files: {} scripts, {} fragments, {} meant to fail, \
         {} with their output",
        all.len(),
        count(Kind::Script),
        count(Kind::Fragment),
        count(Kind::Fails),
        all.iter().filter(|e| e.output.is_some()).count()
    );
    assert!(
        problems.is_empty(),
        "{} of {} Lua examples do not pass:\n\n{}",
        problems.len(),
        all.len(),
        problems.join("\n")
    );
    assert!(
        all.len() >= MIN_BLOCKS,
        "found {} Lua blocks, expected at least {MIN_BLOCKS}",
        all.len()
    );
    assert!(
        all.iter().any(|e| e.file == "README.md"),
        "README.md's script is checked too"
    );
}

/// Every chapter under docs/src is in the book's SUMMARY.md (a chapter left out would not be
/// built, though its examples are still checked).
#[test]
fn every_chapter_is_in_the_summary() {
    let summary = std::fs::read_to_string(common::repo_path("docs/src/SUMMARY.md"))
        .expect("docs/src/SUMMARY.md");
    let src = common::repo_path("docs/src");
    let missing: Vec<String> = documents()
        .iter()
        .filter_map(|p| p.strip_prefix(&src).ok())
        .map(|p| p.display().to_string())
        .filter(|p| p != "SUMMARY.md" && !summary.contains(&format!("]({p})")))
        .collect();
    assert!(
        missing.is_empty(),
        "chapters not in SUMMARY.md: {missing:?}"
    );
}

/// The extraction itself: fences, info strings, fragments and output blocks.
#[test]
fn extraction_reads_info_strings() {
    let md = "text\n\n```lua\nlocal a = 1\n```\n\n- item\n\n  ```lua,fragment\n  local root = rig.walk\n  ```\n\n\
              ```lua,fails\nwhile true do end\n```\n\n```text,output\nerror: x\n```\n\n```sh\nls\n```\n";
    let found = examples("x.md", md).expect("parses");
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].kind, Kind::Script);
    assert_eq!(found[0].line, 3);
    assert_eq!(found[1].kind, Kind::Fragment);
    assert_eq!(found[1].code, "local root = rig.walk\n");
    assert!(found[1].script().starts_with(FRAGMENT_HEAD));
    assert!(found[1].script().ends_with(FRAGMENT_TAIL));
    assert_eq!(found[2].kind, Kind::Fails);
    assert_eq!(found[2].output.as_deref(), Some("error: x\n"));

    for bad in [
        "```lua,ignore\nx\n```\n",
        "```lua fragment fails\nx\n```\n",
        "```Lua\nx\n```\n",
        "```text,output\nx\n```\n",
        "```lua\nx\n",
    ] {
        assert!(examples("x.md", bad).is_err(), "{bad:?} must be refused");
    }
}
