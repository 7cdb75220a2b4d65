//! `marionette sample FILE [--clip NAME|INDEX] --time SECONDS [--skin N] [--json]`.

use std::path::PathBuf;

use anyhow::Context;
use marionette::report::{sample_model, sample_skin, SampleReport};

use super::table::render;

/// Arguments of `sample`.
#[derive(clap::Args)]
pub struct Args {
    /// The .gltf, .glb, .bvh or .fbx file.
    pub file: PathBuf,
    /// Clip name or index (default: the first clip, or the rest pose if there is none).
    #[arg(long)]
    pub clip: Option<String>,
    /// Time in seconds, at least 0 (glTF semantics: no trimming; past the end holds the last
    /// key).
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::seconds_f32)]
    pub time: f32,
    /// Report the joints of this skin (default: the first skin).
    #[arg(long, conflicts_with = "all_joints")]
    pub skin: Option<usize>,
    /// Report every skeleton joint instead of one skin's joints.
    #[arg(long)]
    pub all_joints: bool,
    /// Print the pose as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Imports the file, samples it and prints the pose.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let model = super::load_noting(&args.file)?;
    let clip = match &args.clip {
        Some(spec) => Some(model.find_clip(spec)?),
        None => (!model.clips.is_empty()).then_some(0),
    };
    let report = if args.all_joints || (args.skin.is_none() && model.skins.is_empty()) {
        sample_model(&model, clip, args.time)?
    } else {
        let skin = args.skin.unwrap_or(0);
        sample_skin(&model, clip, args.time, skin)
            .with_context(|| format!("cannot sample {}", args.file.display()))?
    };
    if args.json {
        return super::print_json(&report);
    }
    super::print(&text(&report))
}

fn fmt(v: &[f32]) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:.4}")).collect();
    parts.join(" ")
}

/// The human-readable pose: one row per joint with local TRS and world position.
pub fn text(r: &SampleReport) -> String {
    let head = format!(
        "clip: {}  time: {}s  joints: {}",
        r.clip.as_deref().unwrap_or("(rest pose)"),
        r.time,
        r.joints.len()
    );
    let rows: Vec<Vec<String>> = r
        .joints
        .iter()
        .map(|j| {
            let w = &j.world;
            vec![
                j.name.clone(),
                j.node.to_string(),
                j.parent.map_or("-".into(), |p| p.to_string()),
                fmt(&j.translation),
                fmt(&j.rotation),
                fmt(&j.scale),
                format!("{:.4} {:.4} {:.4}", w[12], w[13], w[14]),
            ]
        })
        .collect();
    let headers = [
        "joint",
        "node",
        "parent",
        "translation",
        "rotation xyzw",
        "scale",
        "world position",
    ];
    format!(
        "{head}\n{}{}",
        render(&headers, &rows),
        morph_text(&r.morphs)
    )
}

/// The morph weights, a line per mesh (`morph weights of face: blink 0.000, smile 1.000`),
/// after a newline; empty for a model without morph targets.
pub(super) fn morph_text(morphs: &[marionette::report::MorphSample]) -> String {
    let mut out = String::new();
    for m in morphs {
        let weights: Vec<String> = m
            .targets
            .iter()
            .zip(&m.weights)
            .map(|(t, w)| format!("{t} {w:.3}"))
            .collect();
        out += &format!("\nmorph weights of {}: {}", m.mesh, weights.join(", "));
    }
    out
}
