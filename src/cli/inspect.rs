//! `marionette inspect FILE [--json]`.

use std::path::PathBuf;

use marionette::report::{inspect_with, InspectReport};

use super::table::render;

/// Arguments of `inspect`.
#[derive(clap::Args)]
pub struct Args {
    /// The .gltf, .glb, .bvh or .fbx file.
    pub file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Report joints turning faster than this many degrees per second between two keys (a
    /// capture's glitches: a marker swap).
    #[arg(long, value_name = "DEG_PER_S", default_value_t = marionette::anim::fast_turns::DEFAULT_TURN_LIMIT)]
    pub turn_limit: f32,
}

/// Imports the file and prints its report.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let model = super::load(&args.file)?;
    let report = inspect_with(&model, super::turn_limit(args.turn_limit)?);
    if args.json {
        return super::print_json(&report);
    }
    super::print(&text(&report))
}

/// The human-readable report: a joint tree and tables.
pub fn text(r: &InspectReport) -> String {
    let mut out = vec![r.file.clone()];
    out.push(format!("skeleton: {} joints", r.joint_count));
    // Depth-first, so each joint's subtree sits under it (children listed once, so any
    // hierarchy prints in linear time; indentation stops at MAX_INDENT levels, deeper joints
    // say their depth).
    const MAX_INDENT: usize = 32;
    let index: std::collections::HashMap<&str, usize> = r
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| (j.name.as_str(), i))
        .collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); r.joints.len() + 1];
    for (i, j) in r.joints.iter().enumerate() {
        let slot = match j.parent.as_deref() {
            None => r.joints.len(),
            Some(p) => index.get(p).copied().unwrap_or(r.joints.len()),
        };
        children[slot].push(i);
    }
    let mut stack: Vec<usize> = children[r.joints.len()].iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        let j = &r.joints[i];
        let deep = if j.depth > MAX_INDENT {
            format!("[depth {}] ", j.depth)
        } else {
            String::new()
        };
        out.push(format!(
            "  {}{deep}{} (node {})",
            "  ".repeat(j.depth.min(MAX_INDENT)),
            j.name,
            j.node
        ));
        stack.extend(children[i].iter().rev().copied());
    }
    out.push(format!("skins: {}", r.skins.len()));
    let rows: Vec<Vec<String>> = r
        .skins
        .iter()
        .enumerate()
        .map(|(i, s)| vec![i.to_string(), s.name.clone(), s.joints.len().to_string()])
        .collect();
    if !rows.is_empty() {
        out.push(render(&["#", "name", "joints"], &rows));
    }
    out.push(format!("meshes: {}", r.meshes.len()));
    let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
    let rows: Vec<Vec<String>> = r
        .meshes
        .iter()
        .map(|m| {
            let follows = match (&m.skin, &m.attached_to) {
                (Some(s), _) => format!("skin {s}"),
                (None, Some(j)) => format!("joint {j}"),
                (None, None) => "-".into(),
            };
            vec![
                m.name.clone(),
                follows,
                m.vertices.to_string(),
                m.triangles.to_string(),
                m.max_influences.to_string(),
                m.morph_targets.to_string(),
                yes(m.normals),
                yes(m.uvs),
                yes(m.textured),
            ]
        })
        .collect();
    if !rows.is_empty() {
        let headers = [
            "name",
            "follows",
            "vertices",
            "triangles",
            "max influences",
            "morph targets",
            "normals",
            "uvs",
            "textured",
        ];
        out.push(render(&headers, &rows));
    }
    if !r.springs.is_empty() {
        out.push(format!(
            "spring bones (VRMC_springBone; a script takes them with rig:springs()): {}",
            r.springs.len()
        ));
        for s in &r.springs {
            out.push(format!(
                "  {}: {} ({} collider(s))",
                if s.name.is_empty() {
                    "(unnamed)"
                } else {
                    &s.name
                },
                s.joints.join(" > "),
                s.colliders
            ));
        }
    }
    if !r.morphs.is_empty() {
        let count: usize = r.morphs.iter().map(|m| m.targets.len()).sum();
        out.push(format!(
            "morph targets: {count} in {} mesh(es)",
            r.morphs.len()
        ));
        for m in &r.morphs {
            let follows = m.follows.as_deref().unwrap_or("no joint");
            let targets: Vec<String> = m
                .targets
                .iter()
                .zip(&m.defaults)
                .map(|(t, d)| {
                    if *d == 0.0 {
                        t.clone()
                    } else {
                        format!("{t}={d}")
                    }
                })
                .collect();
            out.push(format!(
                "  {} (follows {follows}): {}",
                m.name,
                targets.join(", ")
            ));
        }
    }
    out.push(format!("clips: {}", r.clips.len()));
    let rows: Vec<Vec<String>> = r
        .clips
        .iter()
        .enumerate()
        .map(|(i, c)| {
            vec![
                i.to_string(),
                c.name.clone(),
                format!("{:.3}s", c.duration),
                if c.weights > 0 {
                    format!(
                        "{} (T{} R{} S{} W{})",
                        c.channels, c.translation, c.rotation, c.scale, c.weights
                    )
                } else {
                    format!(
                        "{} (T{} R{} S{})",
                        c.channels, c.translation, c.rotation, c.scale
                    )
                },
                c.joints.to_string(),
                c.max_keys.to_string(),
                c.interpolations.join(","),
                c.baked.as_ref().map_or_else(
                    || "-".to_string(),
                    |b| {
                        format!(
                            "{}, {} frames, {} markers, {} events{}",
                            match (b.fps, b.time_base.as_str()) {
                                (Some(f), "source") => format!("source keys on {f} fps"),
                                (None, _) => "source keys".to_string(),
                                (Some(f), _) => format!("{f} fps"),
                            } + &b
                                .tolerance_mm
                                .map_or(String::new(), |t| format!(" within {t:.4} mm"))
                                + &b.shell_mm
                                    .map_or(String::new(), |s| format!(" at {s} mm shells")),
                            b.frames,
                            b.markers,
                            b.events,
                            b.curves
                                .as_ref()
                                .map_or(String::new(), |c| format!(", {c}"))
                                + if b.quantize { ", 16-bit rotations" } else { "" }
                        )
                    },
                ),
            ]
        })
        .collect();
    if !rows.is_empty() {
        let headers = [
            "#",
            "name",
            "duration",
            "channels",
            "joints",
            "keys",
            "interpolation",
            "baked",
        ];
        out.push(render(&headers, &rows));
    }
    if !r.images.is_empty() {
        out.push(format!("images: {}", r.images.len()));
        for (i, im) in r.images.iter().enumerate() {
            let name = im.name.as_deref().unwrap_or("-");
            out.push(format!("  {i} {name} {} {} bytes", im.mime_type, im.bytes));
        }
    }
    out.push(format!("warnings: {}", r.warnings.len()));
    for w in &r.warnings {
        out.push(format!("  - {w}"));
    }
    if !r.fast_turns.is_empty() {
        out.push(format!(
            "fast turns (over {} degrees/s between two keys: a capture's glitch? --turn-limit sets the limit): {}",
            r.turn_limit,
            r.fast_turns.len()
        ));
        for f in &r.fast_turns {
            out.push(format!("  - {}", f.describe()));
        }
    }
    out.join("\n")
}
