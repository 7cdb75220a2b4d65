//! The outliner: the joint tree (or, while searching, the matching joints and meshes), click to
//! select; the selected joint's local and world translation / rotation / scale at the playhead,
//! what last changed it (a post op, a masked layer or the base node) and each layer's mask
//! weight at it. Meshes with morph targets are listed under the joint they follow (`face
//! (mesh, 3 morphs)`); a selected one shows its morph weights at the playhead.

use egui::RichText;
use glam::{EulerRot, Mat4, Quat, Vec3};

use super::action::Action;
use super::session::Session;
use marionette_anim::graph::Writer;
use marionette_anim::local_to_model;

/// What the outliner has selected: a joint, or a mesh with morph targets (its morph set).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Selection {
    /// The selected joint.
    pub joint: Option<u16>,
    /// The selected morph set.
    pub morphs: Option<usize>,
}

/// One row of the joint tree: a joint (index, depth) or a mesh with morph targets (its morph
/// set, depth).
#[derive(Clone, Copy)]
enum Row {
    Joint(usize, usize),
    Mesh(usize, usize),
}

/// The panel's upper half: the search field and the joint tree with the meshes that have
/// morph targets under the joints they follow; a click selects (or deselects) one.
pub fn joint_list(
    ui: &mut egui::Ui,
    session: &Session,
    selection: Selection,
    search: &mut String,
) -> Option<Action> {
    let selected = selection.joint;
    ui.heading("Outliner");
    ui.horizontal(|ui| {
        let id = ui.label("Search").id;
        ui.add(
            egui::TextEdit::singleline(search)
                .hint_text("joint or mesh name")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(id);
    });
    let skeleton = &session.model().skeleton;
    let names = skeleton.names();
    let parents = skeleton.parents();
    let sets = skeleton.morphs().sets();
    let search = search.to_lowercase();
    // the rows in order (only those on screen are drawn: a rig of thousands of joints costs
    // what its visible rows do)
    let matches = |name: &str| search.is_empty() || name.to_lowercase().contains(&search);
    let mut rows: Vec<Row> = Vec::new();
    // the meshes following `joint` (`None`: every mesh, as a search lists them)
    let mesh_rows = |rows: &mut Vec<Row>, joint: Option<Option<u16>>, depth: usize| {
        let follows = |m: &&marionette_anim::MorphSet| joint.is_none_or(|j| m.joint == j);
        for (s, set) in sets.iter().enumerate().filter(|(_, m)| follows(m)) {
            if matches(&set.name) {
                rows.push(Row::Mesh(s, depth));
            }
        }
    };
    let mut depths: Vec<usize> = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        // (a Skeleton is parent-first: a parent's depth is known before its child's, and it has
        // at most u16::MAX joints, so `i as u16` fits)
        let depth = parents[i].map_or(0, |p| depths.get(p as usize).map_or(0, |d| d + 1));
        depths.push(depth);
        if !matches(name) {
            continue;
        }
        if search.is_empty() {
            rows.push(Row::Joint(i, depth));
            mesh_rows(&mut rows, Some(Some(i as u16)), depth + 1);
        } else {
            rows.push(Row::Joint(i, 0));
        }
    }
    // meshes that follow no joint; while searching, every matching mesh
    mesh_rows(
        &mut rows,
        if search.is_empty() { Some(None) } else { None },
        0,
    );
    let mut picked = None;
    let avail = (ui.available_height() - 190.0).max(80.0);
    let row_height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical()
        .max_height(avail)
        .auto_shrink([false, true])
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for row in &rows[range] {
                ui.horizontal(|ui| match *row {
                    Row::Joint(i, depth) => {
                        ui.add_space(depth as f32 * 10.0);
                        let on = selected == Some(i as u16);
                        if ui.selectable_label(on, &names[i]).clicked() {
                            let j = if on { None } else { Some(i as u16) };
                            picked = Some(Action::SelectJoint(j));
                        }
                    }
                    Row::Mesh(s, depth) => {
                        ui.add_space(depth as f32 * 10.0);
                        let on = selection.morphs == Some(s);
                        let set = &sets[s];
                        let label = format!("{} (mesh, {} morphs)", set.name, set.targets.len());
                        if ui.selectable_label(on, label).clicked() {
                            picked = Some(Action::SelectMorphSet(if on { None } else { Some(s) }));
                        }
                    }
                });
            }
        });
    ui.separator();
    picked
}

/// The panel's lower half when a mesh with morph targets is selected: each target's weight at
/// the playhead (as `run --json` prints it, `post` applied).
pub fn morph_details(ui: &mut egui::Ui, session: &Session, set: usize) {
    let morphs = session.model().skeleton.morphs();
    let Some(info) = morphs.sets().get(set) else {
        ui.weak("The selected mesh is gone (the rig changed).");
        return;
    };
    ui.label(RichText::new(&info.name).strong());
    let names = session.model().skeleton.names();
    let follows = info
        .joint
        .and_then(|j| names.get(usize::from(j)))
        .map_or("no joint".to_string(), |n| format!("follows {n}"));
    ui.weak(format!("{} morph targets, {follows}", info.targets.len()));
    let weights = session.morphs();
    egui::Grid::new("morph weights")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (t, k) in morphs.range(set).enumerate() {
                let w = weights.get(k).copied().unwrap_or(0.0);
                ui.label(&info.targets[t]);
                ui.add(
                    egui::ProgressBar::new(w.clamp(0.0, 1.0))
                        .text(format!("{w:.3}"))
                        .desired_width(110.0),
                );
                ui.end_row();
            }
        });
}

/// The panel's lower half: the selected joint's local and world transform at the playhead and
/// what last changed it.
pub fn joint_details(ui: &mut egui::Ui, session: &Session, selected: Option<u16>) {
    let skeleton = &session.model().skeleton;
    let names = skeleton.names();
    let Some(j) = selected.map(usize::from).filter(|&j| j < names.len()) else {
        ui.weak("Select a joint here or click one in the viewport.");
        return;
    };
    ui.label(RichText::new(&names[j]).strong());
    let pose = session.pose();
    let Some(local) = pose.get(j) else {
        return;
    };
    let mut model_space = vec![Mat4::IDENTITY; skeleton.len()];
    local_to_model(skeleton, pose, 0..skeleton.len(), &mut model_space);
    let world = session.world() * skeleton.armature() * model_space[j];
    let (ws, wr, wt) = world.to_scale_rotation_translation();
    egui::Grid::new("trs")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            ui.weak("x");
            ui.weak("y");
            ui.weak("z");
            ui.end_row();
            row(ui, "local T", local.translation);
            row(ui, "local R°", euler(local.rotation));
            row(ui, "local S", local.scale);
            row(ui, "world T", wt);
            row(ui, "world R°", euler(wr));
            row(ui, "world S", ws);
        });
    let q = local.rotation;
    ui.monospace(format!(
        "local quat ({:.3}, {:.3}, {:.3}, {:.3})",
        q.x, q.y, q.z, q.w
    ));
    provenance(session, ui, j);
}

/// What wrote the joint this frame, and every layer's weight at it.
fn provenance(session: &Session, ui: &mut egui::Ui, joint: usize) {
    let Some(scripted) = session.running() else {
        return;
    };
    let lua_post = scripted.script().has_post();
    let Some(src) = scripted.graph().joint_source(joint) else {
        return;
    };
    let label = |name: Option<&str>, kind: &str| match name {
        Some(n) => format!("{kind} '{n}'"),
        None => kind.to_string(),
    };
    let writer = match &src.writer {
        Writer::Post {
            index,
            kind,
            weight,
        } => format!("post op {} ({kind}, weight {weight:.2})", index + 1),
        Writer::Layer(l) => format!(
            "{} (mask {:.2} x weight {:.2})",
            label(l.name, l.kind),
            l.mask,
            l.weight
        ),
        Writer::Node { name, kind, .. } => label(*name, kind),
    };
    ui.horizontal_wrapped(|ui| {
        ui.weak("last changed by");
        ui.label(writer);
    });
    if lua_post {
        ui.weak("then the script's post function, which may change any joint");
    }
    if src.root_motion {
        ui.weak("root motion is extracted from this joint");
    }
    if src.layers.is_empty() {
        return;
    }
    egui::Grid::new("layer weights")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            ui.weak("layer");
            ui.weak("mask");
            ui.weak("weight");
            ui.end_row();
            for l in &src.layers {
                ui.label(label(l.name, l.kind));
                ui.monospace(format!("{:.2}", l.mask));
                ui.monospace(format!("{:.2}", l.weight));
                ui.end_row();
            }
        });
}

fn euler(q: Quat) -> Vec3 {
    let (x, y, z) = q.to_euler(EulerRot::XYZ);
    Vec3::new(x, y, z) * (180.0 / std::f32::consts::PI)
}

fn row(ui: &mut egui::Ui, name: &str, v: Vec3) {
    ui.label(name);
    for c in v.to_array() {
        ui.monospace(format!("{c:8.3}"));
    }
    ui.end_row();
}
