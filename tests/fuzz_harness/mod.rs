//! What each fuzz target does with its bytes, shared by the cargo-fuzz targets
//! (`fuzz/fuzz_targets/*.rs` include this file with `#[path]`) and the stable replay test
//! (`tests/bake/fuzz_corpus.rs`), so a corpus file replays through exactly the code the fuzzer ran.
//!
//! It lives here rather than in the library because it is test code that uses the public API
//! only (what `inspect`, `sample`, `bake` and `check` call): the library gains no feature flag
//! and no API for it.
//!
//! Every function returns `Ok(summary)` when the input went all the way through and
//! `Err(message)` when the product refused it cleanly. It **panics** when a promise is broken:
//! a panic inside the library, an import error that does not name the file, an imported model
//! whose parts disagree (a track that does not validate, an index past the end of what it
//! indexes), or a bake whose output does not import again with the baked clips.
//!
//! Inputs are kept fast on purpose: clips are baked at [`BAKE_FPS`] and only when they have at
//! most [`MAX_FRAMES`] frames on at most [`MAX_JOINTS`] joints; a script's takes are played for
//! at most [`MAX_SEEK`] seconds and baked under the same frame limit. The Lua sandbox limits are
//! the product's defaults.

#![allow(dead_code)] // each fuzz target uses one entry point

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use marionette_anim::Model;
use marionette_anim::SamplingCache;
use marionette_bake as bake;
use marionette_bake::{
    self, bake_take, reduce, take_frames, BakeJob, BakeSource, Curves, ReduceOptions, ScriptBake,
    Selection,
};
use marionette_io::{
    import, import_bvh_slice, import_fbx_slice, import_slice, ImportOptions, SourceFormat,
};
use marionette_script::{load, HostOptions, Rig, ScriptedGraph};

/// Frames per second of every bake.
pub const BAKE_FPS: f32 = 10.0;
/// Clips and takes with more frames than this (at [`BAKE_FPS`]) are not baked.
pub const MAX_FRAMES: usize = 64;
/// Models with more joints than this are not baked (deep hierarchies are slow to bake).
pub const MAX_JOINTS: usize = 512;
/// A script's live graph and takes are evaluated up to this time, in seconds.
pub const MAX_SEEK: f32 = 0.5;

/// The fuzz targets, by the name of their `fuzz/fuzz_targets/<name>.rs` and corpus folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// [`import_glb`].
    ImportGlb,
    /// [`import_gltf`].
    ImportGltf,
    /// [`bake_clips`].
    BakeClips,
    /// [`script_load`].
    ScriptLoad,
    /// [`import_bvh`].
    ImportBvh,
    /// [`import_fbx`].
    ImportFbx,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 6] = [
        Target::ImportGlb,
        Target::ImportGltf,
        Target::BakeClips,
        Target::ScriptLoad,
        Target::ImportBvh,
        Target::ImportFbx,
    ];

    /// The target's name (its fuzz target and corpus folder).
    pub fn name(self) -> &'static str {
        match self {
            Target::ImportGlb => "import_glb",
            Target::ImportGltf => "import_gltf",
            Target::BakeClips => "bake_clips",
            Target::ScriptLoad => "script_load",
            Target::ImportBvh => "import_bvh",
            Target::ImportFbx => "import_fbx",
        }
    }

    /// Runs the target's harness on `bytes`.
    pub fn run(self, bytes: &[u8]) -> Result<String, String> {
        match self {
            Target::ImportGlb => import_glb(bytes),
            Target::ImportGltf => import_gltf(bytes),
            Target::BakeClips => bake_clips(bytes),
            Target::ScriptLoad => script_load(bytes),
            Target::ImportBvh => import_bvh(bytes),
            Target::ImportFbx => import_fbx(bytes),
        }
    }
}

/// The bytes as a `.glb` file: imported as given and, when the GLB header or chunk lengths do
/// not match the bytes (most mutations that insert or remove bytes), once more with the
/// lengths repaired, so mutated JSON and BIN chunks reach the importer instead of stopping at
/// the container check.
pub fn import_glb(bytes: &[u8]) -> Result<String, String> {
    let first = import_checked(bytes, "fuzz.glb");
    match repaired_glb(bytes) {
        Some(fixed) if fixed != bytes => import_checked(&fixed, "fuzz.glb").or(first),
        _ => first,
    }
}

/// The bytes as a `.gltf` file (JSON; external files are refused: there is no folder).
pub fn import_gltf(bytes: &[u8]) -> Result<String, String> {
    import_checked(bytes, "fuzz.gltf")
}

/// The bytes as a `.bvh` file (unit guessed, as without `--unit`).
pub fn import_bvh(bytes: &[u8]) -> Result<String, String> {
    import_checked(bytes, "fuzz.bvh")
}

/// The bytes as an `.fbx` file.
pub fn import_fbx(bytes: &[u8]) -> Result<String, String> {
    import_checked(bytes, "fuzz.fbx")
}

/// Imports `bytes` as `inspect` and `sample` would, then checks the model and builds both
/// reports. Returns the model summary or the import error.
fn import_checked(bytes: &[u8], label: &str) -> Result<String, String> {
    let model = imported(bytes, label)?;
    check_model(&model);
    let report = marionette::report::inspect(&model);
    let json = serde_json::to_string(&report).expect("the inspect report serialises");
    assert!(!json.is_empty());
    for clip in 0..model.clips.len().min(4) {
        let end = model.clips[clip].end;
        for time in [0.0, end * 0.5, end] {
            let sample = marionette::report::sample_model(&model, Some(clip), time)
                .map_err(|e| format!("sample: {e}"))?;
            serde_json::to_string(&sample).expect("the sample report serialises");
        }
    }
    Ok(format!(
        "{} joints, {} skins, {} meshes, {} clips, {} warnings",
        model.skeleton.len(),
        model.skins.len(),
        model.meshes.len(),
        model.clips.len(),
        model.warnings.len()
    ))
}

/// The importer of `label`'s extension, with no folder (nothing outside the bytes is read);
/// an error must name the file first (`fuzz.bvh:12: ...` names its line too).
fn imported(bytes: &[u8], label: &str) -> Result<Model, String> {
    let path = Path::new(label);
    let options = ImportOptions::default();
    let result = match SourceFormat::from_extension(path) {
        Some(SourceFormat::Bvh) => import_bvh_slice(bytes, path, label, &options),
        Some(SourceFormat::Fbx) => import_fbx_slice(bytes, path, label, &options),
        _ => import_slice(bytes, None, label),
    };
    result.map_err(|e| {
        let message = e.to_string();
        assert!(
            message.starts_with(&format!("{label}:")),
            "an import error does not name the file: {message}"
        );
        message
    })
}

/// The promises an imported [`Model`] keeps (see its docs and the importer's): every index
/// points at something that exists and every track validates.
fn check_model(model: &Model) {
    let joints = model.skeleton.len();
    assert_eq!(model.joint_nodes.len(), joints, "a glTF node per joint");
    for (i, p) in model.skeleton.parents().iter().enumerate() {
        if let Some(p) = p {
            assert!((*p as usize) < i, "joint {i}: parent {p} is not before it");
        }
    }
    for (s, skin) in model.skins.iter().enumerate() {
        assert_eq!(skin.joints.len(), skin.inverse_bind.len(), "skins[{s}]");
        for &j in &skin.joints {
            assert!((j as usize) < joints, "skins[{s}]: joint {j} of {joints}");
        }
    }
    for (m, mesh) in model.meshes.iter().enumerate() {
        let n = mesh.positions.len();
        assert!(mesh.indices.len().is_multiple_of(3), "meshes[{m}]: indices");
        for &i in &mesh.indices {
            assert!((i as usize) < n, "meshes[{m}]: index {i} of {n} vertices");
        }
        assert!(
            mesh.normals.is_empty() || mesh.normals.len() == n,
            "meshes[{m}]: normals"
        );
        assert!(
            mesh.uvs.is_empty() || mesh.uvs.len() == n,
            "meshes[{m}]: uvs"
        );
        if let Some(t) = mesh.base_color_texture {
            assert!(t < model.images.len(), "meshes[{m}]: image {t}");
        }
        if let Some(j) = mesh.node_joint {
            assert!((j as usize) < joints, "meshes[{m}]: node joint {j}");
        }
        if let Some(s) = mesh.skin {
            let skin = model
                .skins
                .get(s)
                .unwrap_or_else(|| panic!("meshes[{m}]: skin {s} of {}", model.skins.len()));
            assert_eq!(mesh.joints.len(), n, "meshes[{m}]: JOINTS per vertex");
            assert_eq!(mesh.weights.len(), n, "meshes[{m}]: WEIGHTS per vertex");
            for (slots, weights) in mesh.joints.iter().zip(&mesh.weights) {
                for (&slot, &w) in slots.iter().zip(weights) {
                    assert!(w.is_finite(), "meshes[{m}]: weight {w}");
                    assert!(
                        w == 0.0 || (slot as usize) < skin.joints.len(),
                        "meshes[{m}]: influence slot {slot} of {}",
                        skin.joints.len()
                    );
                }
            }
        }
    }
    let mut names = std::collections::HashSet::new();
    for (c, clip) in model.clips.iter().enumerate() {
        assert!(
            names.insert(&clip.name),
            "clips[{c}]: name '{}' twice",
            clip.name
        );
        assert!(clip.end.is_finite(), "clips[{c}]: end {}", clip.end);
        for t in &clip.tracks {
            assert!((t.joint as usize) < joints, "clips[{c}]: joint {}", t.joint);
            let bad = [
                t.translation.as_ref().map(|k| k.validate()),
                t.rotation.as_ref().map(|k| k.validate()),
                t.scale.as_ref().map(|k| k.validate()),
            ];
            for e in bad.into_iter().flatten() {
                assert_eq!(e, Ok(()), "clips[{c}]: joint {}", t.joint);
            }
        }
        // sampling any clip at any finite time is defined
        let rest = model.skeleton.rest_pose();
        let mut pose = rest.to_vec();
        clip.sample(clip.end, rest, &mut SamplingCache::new(), &mut pose);
    }
}

/// A copy of GLB `bytes` whose header and chunk lengths match the bytes present: the JSON
/// chunk keeps its length (cut to what is there) and the rest is the BIN chunk. `None` when the
/// bytes do not start with a GLB header.
fn repaired_glb(bytes: &[u8]) -> Option<Vec<u8>> {
    if bytes.len() < 20 || &bytes[..4] != b"glTF" {
        return None;
    }
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let json_len = (u32_at(12) as usize).min(bytes.len() - 20);
    let json = &bytes[20..20 + json_len];
    let bin_start = (20 + json_len).div_ceil(4) * 4 + 8;
    let bin = bytes.get(bin_start..).unwrap_or(&[]);
    let mut out = Vec::with_capacity(bytes.len() + 8);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // the total, set below
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.resize(out.len().div_ceil(4) * 4, b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
    }
    let total = out.len() as u32;
    out[8..12].copy_from_slice(&total.to_le_bytes());
    Some(out)
}

/// The bytes as a rig (`.glb` when they start with the GLB magic, else `.gltf`), its clips
/// baked by [`bake::run`] exactly as `marionette bake RIG --fps 10` does, into a temporary
/// folder. Only inputs that import from memory are baked (so no file outside the folder is
/// read), and only the clips with at most [`MAX_FRAMES`] frames. A few bits of the input choose
/// the options: in place, cubic curves, animation only, `.gltf` output. The output must import
/// again with every baked clip, on the same skeleton (a copy of the rig) or on joints of
/// it (animation only).
pub fn bake_clips(bytes: &[u8]) -> Result<String, String> {
    let glb = bytes.starts_with(b"glTF");
    let label = if glb { "rig.glb" } else { "rig.gltf" };
    let model = imported(bytes, label)?;
    if model.skeleton.len() > MAX_JOINTS {
        return Err(format!("{} joints: not baked", model.skeleton.len()));
    }
    let eligible: Vec<usize> = (0..model.clips.len())
        .filter(|&c| bake::frame_count(model.clips[c].end, BAKE_FPS) <= MAX_FRAMES)
        .collect();
    if eligible.is_empty() {
        return Err(format!(
            "none of {} clips is short enough",
            model.clips.len()
        ));
    }
    let bits = bytes.iter().fold(0u8, |a, &b| a ^ b);
    let dir = TempDir::new();
    let rig = dir.path().join(label);
    std::fs::write(&rig, bytes).expect("the temporary folder is writable");
    let output = dir
        .path()
        .join(if bits & 8 != 0 { "out.gltf" } else { "out.glb" });
    let mut job = BakeJob::new(BakeSource::Clips { rig, into: None }, &output);
    job.fps = Some(BAKE_FPS);
    job.in_place = bits & 1 != 0;
    job.curves = if bits & 2 != 0 {
        Curves::Cubic
    } else {
        Curves::Linear
    };
    job.animation_only = bits & 4 != 0;
    if eligible.len() < model.clips.len() {
        job.selection = Selection::Named(eligible.iter().map(|c| c.to_string()).collect());
    }
    let report = bake::run(&job, &mut |_| {}).map_err(|e| e.to_string())?;
    assert_eq!(
        report.takes.len(),
        eligible.len(),
        "one result per clip baked"
    );
    let back = import(&output).unwrap_or_else(|e| panic!("the bake output does not import: {e}"));
    if job.animation_only {
        // skeleton nodes without a skin: only the animated joints (and those between) import
        for name in back.skeleton.names() {
            assert!(
                model.skeleton.names().contains(name),
                "the bake output has a joint '{name}' the rig does not have"
            );
        }
    } else {
        assert_eq!(
            back.skeleton.names(),
            model.skeleton.names(),
            "the bake output has another skeleton"
        );
    }
    for &c in &eligible {
        let name = &model.clips[c].name;
        assert!(
            back.clips.iter().any(|k| &k.name == name),
            "the bake output lacks clip '{name}'"
        );
    }
    Ok(format!("baked {} clips", report.takes.len()))
}

/// The bytes as a Lua script, loaded against the bundled mannequin through the script host
/// (sandbox, default limits; `marionette.rig("file")` is refused), compiled to a graph and
/// evaluated for a few frames live, then each take (at most four) played and, when short
/// enough, baked and key-reduced in memory.
pub fn script_load(bytes: &[u8]) -> Result<String, String> {
    let dir = TempDir::new();
    let path = dir.path().join("fuzz.lua");
    std::fs::write(&path, bytes).expect("the temporary folder is writable");
    let mut options = HostOptions::with_rig(mannequin_rig());
    options.project_root = Some(dir.path().to_path_buf());
    let loaded = load(&path, &options).map_err(|e| e.to_string())?;
    let takes: Vec<String> = loaded.spec.takes.iter().map(|t| t.name.clone()).collect();
    let mut graph = ScriptedGraph::new(loaded).map_err(|e| e.to_string())?;
    for step in 1..=3 {
        graph.seek(f64::from(step as f32 / 30.0));
    }
    if let Some(e) = graph.runtime_error() {
        return Err(e.to_string());
    }
    let skeleton = graph.script().rig.skeleton.clone();
    let mut baked = 0;
    for (i, take) in takes.iter().take(4).enumerate() {
        graph.play(Some(take)).map_err(|e| e.to_string())?;
        for t in [0.0, 1.0 / 30.0, MAX_SEEK] {
            graph.seek(f64::from(t));
        }
        if let Some(e) = graph.runtime_error() {
            return Err(e.to_string());
        }
        let options = ScriptBake {
            fps: Some(BAKE_FPS),
            in_place: i % 2 == 1,
        };
        let (_, frames) = take_frames(&graph, take, &options).map_err(|e| e.to_string())?;
        if frames <= MAX_FRAMES {
            let take =
                bake_take(&mut graph, take, &options, &mut |_, _| {}).map_err(|e| e.to_string())?;
            reduce(&skeleton, &take, &ReduceOptions::default()).map_err(|e| e.to_string())?;
            baked += 1;
        }
    }
    Ok(format!("{} takes, {baked} baked", takes.len()))
}

/// The bundled mannequin as a script rig, built once.
fn mannequin_rig() -> Rig {
    static RIG: OnceLock<Rig> = OnceLock::new();
    RIG.get_or_init(|| Rig::from_model("mannequin", &marionette_anim::mannequin::build()))
        .clone()
}

/// A fresh folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("marionette-fuzz-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&path).expect("the temporary folder can be created");
        TempDir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
