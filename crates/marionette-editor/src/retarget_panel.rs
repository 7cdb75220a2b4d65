//! The inspector's Retarget section: for each retarget node of the script, how the two rigs
//! were aligned (their rests or a T-pose, the translation scale) and the notes the retarget
//! made, then its joint map (the character's joints with the source joint each follows, chains,
//! the joints left to their rest), with *Copy as Lua*, which puts the map on the clipboard as
//! the table `retarget(clip, { map = ..., chains = ... })` takes (the map lives in the script).

use marionette_anim::retarget::{AutoMap, ReferencePose};
use marionette_script::retarget_map::to_lua;

use super::session::Session;

/// Draws the section (nothing when the script has no retarget node).
pub fn ui(ui: &mut egui::Ui, session: &Session) {
    let Some(running) = session.running() else {
        return;
    };
    let graph = running.graph();
    let list = graph.retargets();
    if list.is_empty() {
        return;
    }
    let target = graph.skeleton();
    let character = running.script().rig.short_name().to_string();
    ui.separator();
    ui.strong("Retarget");
    for r in &list {
        let title = r.name.unwrap_or("retarget");
        let from = title
            .strip_prefix("retarget from ")
            .and_then(|t| t.split(" (").next())
            .unwrap_or("source");
        let source = r.source;
        let map = r.retargeter.map();
        egui::CollapsingHeader::new(format!("{title}  ({:.0}%)", r.weight * 100.0))
            .id_salt(("retarget", r.node.index()))
            .default_open(list.len() == 1)
            .show(ui, |ui| {
                let unmapped: Vec<u16> = (0..target.len() as u16).filter(|&j| !map.maps(j)).collect();
                let auto = AutoMap {
                    map: map.clone(),
                    unmapped: unmapped.clone(),
                    notes: r.retargeter.notes().to_vec(),
                };
                if ui
                    .button("Copy as Lua")
                    .on_hover_text("the map as a table to paste into retarget(clip, { map = ..., chains = ... })")
                    .clicked()
                {
                    ui.ctx().copy_text(to_lua(target, source, &auto, (&character, from)));
                }
                // how the two rigs were aligned and what the retarget said about it, before the
                // map (which can be long)
                let rest = match r.retargeter.reference() {
                    ReferencePose::TPose => "a T-pose (arms out, legs straight down)",
                    _ => "each rig's rest pose",
                };
                let k = r.retargeter.scale();
                ui.label(format!("aligned in {rest}; translation scale {:.3}", k.x));
                let notes = r.retargeter.notes();
                if !notes.is_empty() {
                    ui.weak("notes:");
                    for note in notes {
                        ui.add(egui::Label::new(format!("- {note}")).wrap());
                    }
                }
                egui::Grid::new(("retarget map", r.node.index()))
                    .striped(true)
                    .num_columns(2)
                    .show(ui, |ui| {
                        for &(t, s) in &map.pairs {
                            ui.label(target.name(t));
                            ui.weak(format!("from {}", source.name(s)));
                            ui.end_row();
                        }
                        for c in &map.chains {
                            let t: Vec<&str> = c.target.iter().map(|&j| target.name(j)).collect();
                            let s: Vec<&str> = c.source.iter().map(|&j| source.name(j)).collect();
                            ui.label(t.join(", "));
                            ui.weak(format!("from the chain {}", s.join(", ")));
                            ui.end_row();
                        }
                    });
                if !unmapped.is_empty() {
                    let names: Vec<&str> = unmapped.iter().map(|&j| target.name(j)).collect();
                    ui.label(format!("rest pose: {}", names.join(", ")));
                }
            });
    }
}
