//! Helpers of the glTF-Validator conformance test (`crates/marionette-io/tests/codec/gltf_conformance.rs`): the expected
//! reports, what a file's data Marionette reads, importing a file in-process with a timeout,
//! and the classification of validator errors ([`classify`]).

pub mod classify;

pub use classify::unread;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

/// One message of a validator report.
#[derive(Clone, Debug)]
pub struct Message {
    /// The validator's code, e.g. `NODE_MATRIX_NON_TRS`.
    pub code: String,
    /// 0 error, 1 warning, 2 info, 3 hint.
    pub severity: u64,
    /// JSON pointer, e.g. `/nodes/0/matrix` (empty for the whole file).
    pub pointer: String,
}

/// The validator's expected report of one file.
pub struct Report {
    /// Its messages.
    pub messages: Vec<Message>,
}

impl Report {
    /// The report beside `file` (`X.gltf.report.json`).
    pub fn read(file: &Path) -> Self {
        let mut name = file.as_os_str().to_owned();
        name.push(".report.json");
        let text =
            std::fs::read(&name).unwrap_or_else(|e| panic!("{}: {e}", Path::new(&name).display()));
        let json: Value = serde_json::from_slice(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", Path::new(&name).display()));
        let messages = json["issues"]["messages"]
            .as_array()
            .map(|m| {
                m.iter()
                    .map(|m| Message {
                        code: m["code"].as_str().unwrap_or_default().to_string(),
                        severity: m["severity"].as_u64().unwrap_or(0),
                        pointer: m["pointer"].as_str().unwrap_or_default().to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self { messages }
    }

    /// The errors (severity 0).
    pub fn errors(&self) -> Vec<Message> {
        self.messages
            .iter()
            .filter(|m| m.severity == 0)
            .cloned()
            .collect()
    }
}

/// Which meshes and accessors of a file Marionette reads: meshes some node instantiates (their
/// triangle primitives' POSITION, NORMAL, TEXCOORD_0, JOINTS_n, WEIGHTS_n and indices), skins'
/// inverse bind matrices, and the samplers of channels that target a node's translation,
/// rotation or scale. `None` when the JSON cannot be read (then everything counts as read).
pub struct Reads {
    meshes: Option<BTreeSet<u64>>,
    accessors: Option<BTreeSet<u64>>,
}

/// The JSON of a `.gltf`, or of a `.glb`'s first chunk.
fn json_of(file: &Path) -> Option<Value> {
    let bytes = std::fs::read(file).ok()?;
    let json = if bytes.starts_with(b"glTF") {
        let len = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?) as usize;
        bytes.get(20..20 + len)?
    } else {
        &bytes[..]
    };
    serde_json::from_slice(json).ok()
}

impl Reads {
    /// What Marionette reads of `file`.
    pub fn of(file: &Path) -> Self {
        let Some(json) = json_of(file) else {
            return Self {
                meshes: None,
                accessors: None,
            };
        };
        let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
        let mut meshes = BTreeSet::new();
        let mut accessors = BTreeSet::new();
        for node in list(&json["nodes"]) {
            meshes.extend(node["mesh"].as_u64());
        }
        for &m in &meshes {
            for prim in list(&json["meshes"][m as usize]["primitives"]) {
                if prim["mode"].as_u64().unwrap_or(4) != 4 {
                    continue;
                }
                accessors.extend(prim["indices"].as_u64());
                if let Some(attributes) = prim["attributes"].as_object() {
                    for (name, a) in attributes {
                        if classify::read_attribute(name) {
                            accessors.extend(a.as_u64());
                        }
                    }
                }
            }
        }
        for skin in list(&json["skins"]) {
            accessors.extend(skin["inverseBindMatrices"].as_u64());
        }
        for anim in list(&json["animations"]) {
            for ch in list(&anim["channels"]) {
                let path = ch["target"]["path"].as_str().unwrap_or_default();
                if ch["target"]["node"].is_null()
                    || !matches!(path, "translation" | "rotation" | "scale")
                {
                    continue;
                }
                let Some(s) = ch["sampler"].as_u64() else {
                    continue;
                };
                let sampler = &anim["samplers"][s as usize];
                accessors.extend(sampler["input"].as_u64());
                accessors.extend(sampler["output"].as_u64());
            }
        }
        Self {
            meshes: Some(meshes),
            accessors: Some(accessors),
        }
    }

    /// Whether Marionette reads `meshes[m]` (`m` as written in a pointer).
    pub fn mesh(&self, m: &str) -> bool {
        Self::has(&self.meshes, m)
    }

    /// Whether Marionette reads `accessors[a]`.
    pub fn accessor(&self, a: &str) -> bool {
        Self::has(&self.accessors, a)
    }

    fn has(set: &Option<BTreeSet<u64>>, index: &str) -> bool {
        match (set, index.parse::<u64>()) {
            (Some(set), Ok(i)) => set.contains(&i),
            _ => true,
        }
    }
}

/// How an import went.
pub enum Outcome {
    /// Imported, with these warnings.
    Imported(Vec<String>),
    /// Refused with this error.
    Refused(String),
    /// The importer panicked (with this message).
    Panicked(String),
    /// It did not finish in time.
    Hung,
}

/// Imports `file` on a worker thread, catching a panic and giving up after `timeout`.
pub fn import_in_process(file: &Path, timeout: Duration) -> Outcome {
    let (send, receive) = mpsc::channel();
    let path = file.to_path_buf();
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(|| marionette_io::import(&path));
        let outcome = match result {
            Ok(Ok(model)) => Outcome::Imported(model.warnings),
            Ok(Err(e)) => Outcome::Refused(e.to_string()),
            Err(panic) => Outcome::Panicked(
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default(),
            ),
        };
        let _ = send.send(outcome);
    });
    receive.recv_timeout(timeout).unwrap_or(Outcome::Hung)
}
