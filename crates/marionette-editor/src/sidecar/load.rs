//! Reading a sidecar: the file is input like a script. Its version is checked first (newer:
//! refused, the file left as it is; older: upgraded one version at a time), then its fields,
//! then each take on its own against the rules every take follows, so one bad take does not
//! cost the rest of the file.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::{KeptTake, Sidecar, SidecarError, StoredTake};
use marionette_anim::graph::TakeError;
use marionette_io::files::confine;

/// An upgrade of the sidecar format by one version: a file of version `n` (as JSON) to `n + 1`.
type Upgrade = fn(Value) -> Result<Value, String>;

/// `UPGRADES[i]` turns a version `i + 1` file into version `i + 2`. A change of the format
/// adds its upgrade here, which makes it the next [`VERSION`].
const UPGRADES: &[Upgrade] = &[v1_to_v2, v2_to_v3];

/// Version 2 adds each take's `script` (the script's take it was edited from,
/// [`super::ScriptBase`]). A version 1 take has none: it reads as unknown, and the editor takes
/// the script's take of the day the file is opened as the one edited. Nothing else changed.
fn v1_to_v2(value: Value) -> Result<Value, String> {
    Ok(value)
}

/// Version 3 adds each track's `eases` (a key's tangent: `"auto"`, `"flat"`, `"linear"`,
/// `"step"` or `[slope_in, slope_out]`). A version 2 track has none: its keys follow its
/// `step` as before. Nothing else changed; an older Marionette refuses a version 3 file
/// rather than drop its eases.
fn v2_to_v3(value: Value) -> Result<Value, String> {
    Ok(value)
}

/// The sidecar format this build writes, and the newest it reads.
pub const VERSION: u64 = UPGRADES.len() as u64 + 1;

/// Why a parsed file cannot be used.
#[derive(Debug, PartialEq)]
enum Refusal {
    /// Not a sidecar of any version: set aside.
    Corrupt(String),
    /// A newer format: left untouched.
    Newer(u64),
}

/// Loads the sidecar at `path`: `Ok(None)` when there is none. A file that does not parse (or
/// of a version that never existed) is renamed aside and reported as
/// [`SidecarError::Corrupt`]; a newer one is left untouched ([`SidecarError::Newer`]); a take
/// that is not valid is kept in [`Sidecar::kept`] with what is wrong, the rest loads.
pub fn load(path: &Path) -> Result<Option<Sidecar>, SidecarError> {
    match read(path) {
        Err(SidecarError::Invalid { path, message }) => Err(set_aside(&path, message)),
        other => other,
    }
}

/// Reads the sidecar at `path` without changing anything on disk (as the command line does:
/// it only reads): like [`load`], but a file that does not parse is reported as
/// [`SidecarError::Invalid`] and left where it is.
pub fn read(path: &Path) -> Result<Option<Sidecar>, SidecarError> {
    // a regular file only (marionette_io::files::confine): a FIFO in its place must not block the editor;
    // inside the script's folder, as every file a script's project reads (a link leading out
    // is refused)
    let shown = path.display().to_string();
    let folder = confine::project_folder(path);
    let scope = confine::Scope::new(confine::ScopeKind::Project, &folder);
    if let Some(refused) = scope
        .and_then(|s| s.check(path, &shown))
        .err()
        .filter(|e| e.is_refusal())
    {
        return Err(SidecarError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(refused.to_string()),
        });
    }
    let text = match confine::read_text(path, &shown, confine::SCRIPT_FILE_LIMIT) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => {
            let source = match e {
                confine::ReadError::Io { error, .. } => error,
                refused => std::io::Error::other(refused.to_string()),
            };
            return Err(SidecarError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let read = serde_json::from_str::<Value>(&text)
        .map_err(|e| Refusal::Corrupt(e.to_string()))
        .and_then(from_value);
    match read {
        Ok(sidecar) => Ok(Some(sidecar)),
        Err(Refusal::Newer(version)) => Err(SidecarError::Newer {
            path: path.to_path_buf(),
            version,
            supported: VERSION,
        }),
        Err(Refusal::Corrupt(message)) => Err(SidecarError::Invalid {
            path: path.to_path_buf(),
            message,
        }),
    }
}

/// Renames a corrupt file to `*.corrupt-<unix secs>.json` beside it.
fn set_aside(path: &Path, message: String) -> SidecarError {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let stem = path
        .file_name()
        .map(|s| s.to_string_lossy().trim_end_matches(".json").to_string())
        .unwrap_or_default();
    let aside = path.with_file_name(format!("{stem}.corrupt-{secs}.json"));
    match std::fs::rename(path, &aside) {
        Ok(()) => SidecarError::Corrupt {
            path: path.to_path_buf(),
            aside,
            message,
        },
        Err(source) => SidecarError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// A parsed file as a sidecar of the current version.
fn from_value(value: Value) -> Result<Sidecar, Refusal> {
    let version = match value.get("version") {
        Some(v) => v
            .as_u64()
            .ok_or_else(|| Refusal::Corrupt(format!("version must be a whole number, got {v}")))?,
        None => return Err(Refusal::Corrupt("it has no version".into())),
    };
    if version > VERSION {
        return Err(Refusal::Newer(version));
    }
    let mut value = upgrade(value, version, UPGRADES).map_err(Refusal::Corrupt)?;
    let Some(fields) = value.as_object_mut() else {
        return Err(Refusal::Corrupt("not a JSON object".into()));
    };
    fields.insert("version".into(), Value::from(VERSION));
    let takes = match fields.remove("takes") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(takes)) => takes,
        Some(other) => {
            return Err(Refusal::Corrupt(format!(
                "takes must be a list, got {other}"
            )))
        }
    };
    let mut sidecar: Sidecar =
        serde_json::from_value(value).map_err(|e| Refusal::Corrupt(e.to_string()))?;
    for (i, raw) in takes.into_iter().enumerate() {
        match read_take(&raw) {
            Ok(take) => sidecar.takes.push(take),
            Err(problem) => sidecar.kept.push(KeptTake {
                name: raw
                    .get("name")
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("#{}", i + 1), str::to_string),
                problem,
                raw,
            }),
        }
    }
    Ok(sidecar)
}

/// One stored take, if it reads as a take and follows the rules every take follows (the same
/// as a script's, [`marionette_anim::graph::Take::check`]); else what is wrong.
fn read_take(raw: &Value) -> Result<StoredTake, String> {
    let stored = StoredTake::deserialize(raw).map_err(|e| e.to_string())?;
    match stored.take.check() {
        Ok(()) => Ok(stored),
        Err(TakeError::Invalid {
            param: Some(param),
            problem,
            ..
        }) => Err(format!("{param}: {problem}")),
        Err(TakeError::Invalid { problem, .. }) => Err(problem),
        Err(other) => Err(other.to_string()),
    }
}

/// A file of `version` (at most [`VERSION`]) brought to the current format by the `steps` after
/// it (`steps[i]` upgrades version `i + 1`); version 0 never existed.
fn upgrade(mut value: Value, version: u64, steps: &[Upgrade]) -> Result<Value, String> {
    let Some(from) = version.checked_sub(1) else {
        return Err("version 0 does not exist (the first is 1)".into());
    };
    for (i, step) in steps.iter().enumerate().skip(from as usize) {
        value = step(value).map_err(|e| format!("upgrading version {} failed: {e}", i + 1))?;
    }
    Ok(value)
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
