//! `bake --manifest bakes.toml`: a list of bakes read from TOML, each entry a `bake` command
//! line written as keys (see docs/src/baking.md, "Batch bakes"), every mistake an error at
//! its line. This file reads and checks the manifest and picks a shard; running the bakes is
//! [`super::batch`].
//!
//! ```toml
//! [defaults]                       # optional: settings for every bake that does not set them
//! tolerance-mm = 0.1
//!
//! [[bake]]
//! input = "scripts/locomotion.lua" # a script or a rig, relative to this file's folder
//! output = "out/locomotion.glb"    # relative to this file's folder
//! take = ["walk_to_run"]           # any long option of `marionette bake`, valued as there
//! ```

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::Parser;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Keys whose values are paths, resolved against the manifest's folder.
const PATHS: [&str; 5] = ["input", "output", "rig", "retarget-to", "map"];

/// Options of `bake` that belong to the command line of the whole batch, not to one bake.
const BATCH_ONLY: [&str; 4] = ["manifest", "shard", "quiet", "force"];

/// The settings of one bake as `bake` parses them.
#[derive(Parser)]
#[command(name = "bake", no_binary_name = true)]
pub(super) struct EntryLine {
    #[command(flatten)]
    pub(super) args: super::bake::Args,
}

/// One bake of a manifest.
pub struct Entry {
    /// Its place in the manifest, from 0 (what shards split).
    pub index: usize,
    /// The line of its `[[bake]]` table.
    pub line: usize,
    /// Its settings, parsed as `bake` parses its command line (paths resolved).
    pub args: super::bake::Args,
    /// Its settings as written (keys with dashes, sorted, `key=value`; paths as in the file):
    /// what its content key covers, the same on any machine.
    pub settings: String,
}

/// A manifest read and checked.
pub struct Manifest {
    /// The manifest file.
    pub path: PathBuf,
    /// Its folder: what its paths are relative to (empty: the current folder).
    pub base: PathBuf,
    /// Its bakes, in order.
    pub entries: Vec<Entry>,
}

/// The 1-based line of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(1, |before| before.matches('\n').count() + 1)
}

/// A value as the command line writes it (`None`: not a value an option takes).
fn scalar(value: &DeValue<'_>) -> Option<String> {
    match value {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) if i.radix() == 10 => Some(i.as_str().replace('_', "")),
        DeValue::Float(f) => Some(f.as_str().replace('_', "")),
        _ => None,
    }
}

/// One key of an entry: its name (dashes), values, line.
struct Setting {
    key: String,
    values: Vec<String>,
    /// A flag set (`key = true`); `false` leaves it out.
    flag: Option<bool>,
    line: usize,
}

/// Reads a table's keys as settings; `what` names the table in messages.
fn settings(
    text: &str,
    path: &Path,
    table: &DeTable<'_>,
    what: &str,
) -> anyhow::Result<Vec<Setting>> {
    let mut out = Vec::new();
    for (key, value) in table.iter() {
        let line = line_of(text, key.span().start);
        let at = |message: String| anyhow!("{}:{line}: {what}: {message}", path.display());
        let name = key.get_ref().replace('_', "-");
        if name == "manifest" {
            return Err(at("a manifest cannot name another manifest".into()));
        }
        if BATCH_ONLY.contains(&name.as_str()) {
            return Err(at(format!(
                "'{name}' is an option of the whole batch: give it on the command line \
                 (marionette bake --manifest FILE --{name})"
            )));
        }
        match (is_flag(&name), value.get_ref()) {
            (Some(true), DeValue::Boolean(_)) | (Some(false), _) | (None, _) => {}
            (Some(true), other) => {
                return Err(at(format!(
                    "'{name}' is a flag: give true or false, not a {}",
                    other.type_str()
                )))
            }
        }
        if is_flag(&name) == Some(false) && matches!(value.get_ref(), DeValue::Boolean(_)) {
            return Err(at(format!(
                "'{name}' takes a value (as --{name} does), not true or false"
            )));
        }
        let (values, flag) = match value.get_ref() {
            DeValue::Boolean(b) => (Vec::new(), Some(*b)),
            DeValue::Array(items) => {
                let mut values = Vec::new();
                for item in items {
                    values.push(scalar(item.get_ref()).ok_or_else(|| {
                        at(format!(
                            "'{name}' holds a {}; give strings or numbers",
                            item.get_ref().type_str()
                        ))
                    })?);
                }
                (values, None)
            }
            other => (
                vec![scalar(other).ok_or_else(|| {
                    at(format!(
                        "'{name}' is a {}; give a string, a number, true or a list",
                        other.type_str()
                    ))
                })?],
                None,
            ),
        };
        out.push(Setting {
            key: name,
            values,
            flag,
            line,
        });
    }
    Ok(out)
}

/// The command line of one setting (`input` is positional, `output` is `-o`); paths resolved
/// against `base`.
fn argv(s: &Setting, base: &Path) -> Vec<String> {
    let resolve = |v: &String| {
        if PATHS.contains(&s.key.as_str()) {
            base.join(v).display().to_string()
        } else {
            v.clone()
        }
    };
    match (s.key.as_str(), s.flag) {
        (_, Some(true)) => vec![format!("--{}", s.key)],
        (_, Some(false)) => Vec::new(),
        ("input", None) => s.values.iter().map(resolve).collect(),
        (key, None) => s
            .values
            .iter()
            .flat_map(|v| [format!("--{key}"), resolve(v)])
            .collect(),
    }
}

/// A clap error as one line: its message without `error: `, with the hints that follow it
/// (`[possible values: linear, cubic]`, `tip: a similar argument exists: '--tolerance-mm'`),
/// without the usage.
fn clap_message(e: &clap::Error) -> String {
    let text = e.to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let mut out = first.strip_prefix("error: ").unwrap_or(first).to_string();
    for line in lines.map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
    }
    out
}

/// Whether option `key` of `bake` is a flag (`Some(true)`), takes values (`Some(false)`), or is
/// none of its options (`None`).
fn is_flag(key: &str) -> Option<bool> {
    let command = <EntryLine as clap::CommandFactory>::command();
    let arg = command
        .get_arguments()
        .find(|a| a.get_long() == Some(key) || (key == "input" && a.get_id() == "input"))?;
    Some(!arg.get_action().takes_values())
}

/// Reads and checks the manifest at `path`.
pub fn read(path: &Path) -> anyhow::Result<Manifest> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read the manifest", path.display()))?;
    let doc = DeTable::parse(&text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(&text, s.start));
        anyhow!("{}:{line}: {}", path.display(), e.message().trim_end())
    })?;
    // empty for a manifest in the current folder, so its paths read as written
    let base = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut defaults = Vec::new();
    let mut tables: Vec<&Spanned<DeValue<'_>>> = Vec::new();
    for (key, value) in doc.get_ref().iter() {
        let line = line_of(&text, key.span().start);
        match (key.get_ref().as_ref(), value.get_ref()) {
            ("defaults", DeValue::Table(t)) => {
                defaults = settings(&text, path, t, "[defaults]")?;
                // each default alone (after a stand-in input), so a bad one is reported as the
                // default it is, at its line
                for d in &defaults {
                    let line_args = std::iter::once("x".to_string()).chain(argv(d, &base));
                    if let Err(e) = EntryLine::try_parse_from(line_args) {
                        bail!(
                            "{}:{}: [defaults]: {}",
                            path.display(),
                            d.line,
                            clap_message(&e)
                        );
                    }
                }
                if let Some(s) = defaults
                    .iter()
                    .find(|s| ["input", "output"].contains(&s.key.as_str()))
                {
                    bail!(
                        "{}:{}: [defaults]: '{}' differs for every bake; give it in each [[bake]]",
                        path.display(),
                        s.line,
                        s.key
                    );
                }
            }
            ("bake", DeValue::Array(items)) => tables.extend(items.iter()),
            (other, _) => bail!(
                "{}:{line}: unknown key '{other}': a manifest has [defaults] and [[bake]] \
                 tables (see docs/src/baking.md, \"Batch bakes\")",
                path.display()
            ),
        }
    }
    if tables.is_empty() {
        bail!(
            "{}: no bakes: add a [[bake]] table with an input and an output",
            path.display()
        );
    }
    let mut entries: Vec<Entry> = Vec::new();
    for (index, table) in tables.into_iter().enumerate() {
        let line = line_of(&text, table.span().start);
        let what = format!("bake {}", index + 1);
        let DeValue::Table(t) = table.get_ref() else {
            bail!("{}:{line}: {what} is not a table", path.display());
        };
        let mut own = settings(&text, path, t, &what)?;
        for d in &defaults {
            if !own.iter().any(|s| s.key == d.key) {
                own.push(Setting {
                    key: d.key.clone(),
                    values: d.values.clone(),
                    flag: d.flag,
                    line: d.line,
                });
            }
        }
        for required in ["input", "output"] {
            if !own.iter().any(|s| s.key == required) {
                bail!(
                    "{}:{line}: {what} has no '{required}' (every bake names its {required}, \
                     relative to the manifest's folder)",
                    path.display()
                );
            }
        }
        // each setting alone first, so a bad one is reported at its own line
        let input: Vec<String> = own
            .iter()
            .filter(|s| s.key == "input")
            .flat_map(|s| argv(s, &base))
            .collect();
        for s in own.iter().filter(|s| s.key != "input") {
            let line_args = input.iter().cloned().chain(argv(s, &base));
            if let Err(e) = EntryLine::try_parse_from(line_args) {
                bail!(
                    "{}:{}: {what}: {}",
                    path.display(),
                    s.line,
                    clap_message(&e)
                );
            }
        }
        own.sort_by(|a, b| a.key.cmp(&b.key));
        let all: Vec<String> = own.iter().flat_map(|s| argv(s, &base)).collect();
        let args = EntryLine::try_parse_from(&all)
            .map_err(|e| anyhow!("{}:{line}: {what}: {}", path.display(), clap_message(&e)))?
            .args;
        let output = args.output.clone().unwrap_or_default();
        if let Some(other) = entries
            .iter()
            .find(|e| e.args.output.as_ref() == Some(&output))
        {
            bail!(
                "{}:{line}: {what} writes {}, as bake {} (line {}) does",
                path.display(),
                output.display(),
                other.index + 1,
                other.line
            );
        }
        let settings = own
            .iter()
            .map(|s| match s.flag {
                Some(b) => format!("{}={b}", s.key),
                None => format!("{}={}", s.key, s.values.join(",")),
            })
            .collect::<Vec<_>>()
            .join(" ");
        entries.push(Entry {
            index,
            line,
            args,
            settings,
        });
    }
    Ok(Manifest {
        path: path.to_path_buf(),
        base,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(text: &str) -> anyhow::Result<Manifest> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("marionette-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("m{}.toml", NEXT.fetch_add(1, Ordering::Relaxed)));
        std::fs::write(&path, text)?;
        read(&path)
    }

    /// Defaults fill what an entry leaves out; settings are keys with dashes, sorted; paths are
    /// resolved against the manifest's folder but written as given.
    #[test]
    fn entries_and_defaults() {
        let m = manifest(
            "[defaults]\ntolerance_mm = 0.5\ncurves = \"cubic\"\n\n[[bake]]\ninput = \"a.lua\"\n\
             output = \"out/a.glb\"\ntake = [\"t1\", \"t2\"]\ncurves = \"linear\"\n\n[[bake]]\n\
             input = \"r.glb\"\noutput = \"out/r.glb\"\nin-place = true\n",
        )
        .unwrap();
        assert_eq!(m.entries.len(), 2);
        let a = &m.entries[0];
        assert_eq!(a.line, 5);
        assert_eq!(a.args.takes, vec!["t1", "t2"]);
        assert_eq!(a.args.curves, "linear");
        assert_eq!(a.args.tolerance_mm, 0.5);
        assert_eq!(a.args.input, Some(m.base.join("a.lua")));
        assert_eq!(
            a.settings,
            "curves=linear input=a.lua output=out/a.glb take=t1,t2 tolerance-mm=0.5"
        );
        assert!(m.entries[1].args.in_place);
        assert_eq!(m.entries[1].args.curves, "cubic");
    }

    /// Every mistake is an error at its line, saying what to do.
    #[test]
    fn mistakes_at_their_line() {
        let cases = [
            ("[[bake]]\ninput = \"a.lua\"\noutput = \"a.glb\"\nfsp = 30\n", ":4: bake 1: unexpected argument '--fsp'"),
            ("[[bake]]\ninput = \"a.lua\"\noutput = \"a.glb\"\ncurves = \"bent\"\n", ":4: bake 1: invalid value 'bent' for '--curves"),
            ("[[bake]]\ninput = \"a.lua\"\n", ":1: bake 1 has no 'output'"),
            ("[[bake]]\ninput = \"a.lua\"\noutput = \"a.glb\"\nforce = true\n", ":4: bake 1: 'force' is an option of the whole batch"),
            ("[[bake]]\ninput = \"a.lua\"\noutput = \"a.glb\"\n[[bake]]\ninput = \"b.lua\"\noutput = \"a.glb\"\n", ":4: bake 2 writes"),
            ("[[bake]]\ninput = \"a.lua\"\noutput = \"a.glb\"\nfps = { a = 1 }\n", ":4: bake 1: 'fps' is a table"),
            ("[bakes]\n", ":1: unknown key 'bakes'"),
            ("[[bake]]\ninput = \"a.lua\"\noutput = \"a.glb\"\nfps = 30\nfps = 31\n", ":5: "),
            ("[defaults]\noutput = \"x.glb\"\n", ":2: [defaults]: 'output' differs for every bake"),
            ("", "no bakes"),
        ];
        for (text, want) in cases {
            let e = manifest(text)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(want), "{text:?}\n  got: {e}\n want: {want}");
        }
    }
}
