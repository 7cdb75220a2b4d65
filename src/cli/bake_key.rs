//! The content key of a manifest bake's output, written beside it as `OUT.key` (`out/a.glb.key`):
//! a text file listing what the output was made from (the Marionette version, the bake's
//! settings as the manifest writes them, and a SHA-256 of every file the bake read: the script
//! and what it `require`s, the rig and the clips' files, the sidecar of editor edits, the
//! default rig it could have found) and of the files it wrote, then a `key` line hashing them
//! all. A bake whose key file still matches (every hash, the settings, the version) is skipped.
//!
//! The paths are written relative to the manifest's folder, and the settings as written in it,
//! so a key made on one machine holds on another (a CI cache restored into a new checkout).
//!
//! ```text
//! marionette-bake-key 1
//! version 0.1.0
//! settings input=locomotion.lua output=out/loco.glb take=walk_to_run
//! file 5b1c... locomotion.lua
//! file absent locomotion.marionette.json
//! output 9e0f... out/loco.glb
//! key 77aa...
//! ```

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The first line of every key file; a later format has a higher number.
const HEADER: &str = "marionette-bake-key 1";

/// The mark of a path read against the working folder, not the manifest's.
const CWD: &str = "cwd:";

/// The key file of `output`: `output` with `.key` added.
pub fn key_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".key");
    PathBuf::from(name)
}

/// The Marionette that bakes, as a key file names it: its version and what its bakes write
/// ([`marionette::bake::OUTPUT_REVISION`]).
fn version() -> String {
    format!(
        "{} (output {})",
        env!("CARGO_PKG_VERSION"),
        marionette::bake::OUTPUT_REVISION
    )
}

/// SHA-256 of a file's bytes in hex, or `absent`.
fn hash_file(path: &Path) -> String {
    match std::fs::read(path) {
        Ok(bytes) => hex(&Sha256::digest(&bytes)),
        Err(_) => "absent".to_string(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `path` as the key file writes it: relative to `base` when it lies under it.
fn shown(path: &Path, base: &Path) -> String {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let base = if base.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base
    };
    let (p, b) = (abs(path), abs(base));
    let rel = p.strip_prefix(&b).map(Path::to_path_buf).unwrap_or(p);
    rel.display().to_string().replace('\\', "/")
}

/// A key file's text: `settings`, the `inputs` read and the `outputs` written (paths resolved
/// against the current folder, written relative to `base`), and the files looked for in the
/// working folder, `from_cwd` (written `cwd:PATH`, read again against the working folder).
pub fn render(
    base: &Path,
    settings: &str,
    (inputs, from_cwd): (&[PathBuf], &[PathBuf]),
    outputs: &[PathBuf],
) -> String {
    let mut inputs: Vec<String> = inputs
        .iter()
        .map(|p| format!("file {} {}", hash_file(p), shown(p, base)))
        .chain(from_cwd.iter().map(|p| {
            format!(
                "file {} {CWD}{}",
                hash_file(p),
                p.display().to_string().replace('\\', "/")
            )
        }))
        .collect();
    inputs.sort();
    inputs.dedup();
    let mut text = format!("{HEADER}\nversion {}\nsettings {settings}\n", version());
    for line in inputs {
        text.push_str(&line);
        text.push('\n');
    }
    for p in outputs {
        text.push_str(&format!("output {} {}\n", hash_file(p), shown(p, base)));
    }
    let key = hex(&Sha256::digest(text.as_bytes()));
    text.push_str(&format!("key {key}\n"));
    text
}

/// Why the output of a bake is not up to date according to its key file `text` (`None`: it is,
/// every file hashing as listed, the same settings, the same Marionette).
pub fn stale(base: &Path, settings: &str, text: &str) -> Option<String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(HEADER) => {}
        Some(h) if h.starts_with("marionette-bake-key ") => {
            return Some(format!("its key file is a later format ({h}); re-baking"))
        }
        _ => return Some("its key file is not one Marionette wrote".into()),
    }
    let Some(body_end) = text.rfind("key ") else {
        return Some("its key file has no key".into());
    };
    let (body, key) = text.split_at(body_end);
    if key.trim_end() != format!("key {}", hex(&Sha256::digest(body.as_bytes()))) {
        return Some("its key file was edited".into());
    }
    for line in lines {
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        match kind {
            "version" if rest != version() => {
                return Some(format!("it was baked by Marionette {rest}"))
            }
            "settings" if rest != settings => return Some("its settings changed".into()),
            "file" | "output" => {
                let (hash, path) = rest.split_once(' ').unwrap_or((rest, ""));
                let now = match path.strip_prefix(CWD) {
                    Some(p) => hash_file(Path::new(p)),
                    None => hash_file(&base.join(path)),
                };
                if now != hash {
                    let what = if now == "absent" {
                        "is missing"
                    } else {
                        "changed"
                    };
                    return Some(format!("{path} {what}"));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key holds while nothing changes; a changed input, setting, edit or output is named.
    #[test]
    fn a_key_names_what_changed() {
        let dir = std::env::temp_dir().join(format!("marionette-key-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("out")).unwrap();
        let (script, out) = (dir.join("a.lua"), dir.join("out/a.glb"));
        std::fs::write(&script, "return 1").unwrap();
        std::fs::write(&out, "glb").unwrap();
        let missing = dir.join("a.marionette.json");
        let text = render(
            &dir,
            "input=a.lua",
            (
                &[script.clone(), missing.clone()],
                &[PathBuf::from("no/such/rig.glb")],
            ),
            std::slice::from_ref(&out),
        );
        assert!(
            text.starts_with("marionette-bake-key 1\nversion "),
            "{text}"
        );
        assert!(text.contains("\nfile absent a.marionette.json\n"), "{text}");
        assert!(
            text.contains("\nfile absent cwd:no/such/rig.glb\n"),
            "{text}"
        );
        assert!(text.contains(" out/a.glb\nkey "), "{text}");
        assert_eq!(stale(&dir, "input=a.lua", &text), None);
        assert_eq!(
            stale(&dir, "input=a.lua fps=30", &text).as_deref(),
            Some("its settings changed")
        );
        std::fs::write(&missing, "{}").unwrap();
        assert_eq!(
            stale(&dir, "input=a.lua", &text).as_deref(),
            Some("a.marionette.json changed")
        );
        std::fs::remove_file(&missing).unwrap();
        std::fs::write(&out, "edited").unwrap();
        assert_eq!(
            stale(&dir, "input=a.lua", &text).as_deref(),
            Some("out/a.glb changed")
        );
        std::fs::remove_file(&out).unwrap();
        assert_eq!(
            stale(&dir, "input=a.lua", &text).as_deref(),
            Some("out/a.glb is missing")
        );
        let edited = text.replace("input=a.lua", "input=b.lua");
        assert_eq!(
            stale(&dir, "input=b.lua", &edited).as_deref(),
            Some("its key file was edited")
        );
        let later = text.replace("marionette-bake-key 1", "marionette-bake-key 2");
        assert!(stale(&dir, "input=a.lua", &later)
            .unwrap()
            .contains("later format"));
        assert_eq!(key_path(&out), dir.join("out/a.glb.key"));
    }
}
