//! The editor's chrome around the viewport: the title bar (script, reload flash, panel
//! toggles, bake, save, help, the error banner), the overlay toolbar above the viewport, and
//! the timeline panel wiring (lanes, transport, key edits with one undo step per gesture).

use std::time::Instant;

use super::app::Editor;
use super::banner::Banner;
use super::stats::Phase;
use super::timeline::{timeline, ParamLane, TimelineInput, Transport};

impl Editor {
    /// The timeline: transport, ruler, parameter keys (edited in place, one undo step per
    /// gesture), state bars and node weights of the take.
    pub(crate) fn timeline_ui(&mut self, ui: &mut egui::Ui) {
        let t = Instant::now();
        self.lanes.update(&mut self.session);
        self.stats.add(Phase::Graph, t.elapsed());
        let params: Vec<ParamLane> = self.session.graph().map_or_else(Vec::new, |g| {
            let p = g.graph().params();
            p.defs()
                .iter()
                .zip(p.values())
                .map(|(d, v)| ParamLane {
                    name: d.name.clone(),
                    kind: v.kind(),
                    range: (d.min, d.max),
                    value: *v,
                })
                .collect()
        });
        let mut transport = Transport {
            playing: self.playing,
            looping: self.looping,
            speed: self.speed,
        };
        let playhead = self.session.time() as f32;
        let duration = self
            .session
            .duration()
            .unwrap_or_else(|| (playhead * 1.25).max(10.0));
        let fps = self.session.fps();
        let mut take = self.session.take().cloned();
        let response = timeline(
            ui,
            &mut self.timeline,
            TimelineInput {
                take: take.as_mut(),
                params: &params,
                duration,
                fps,
                playhead,
                states: &self.lanes.states,
                weights: &self.lanes.weights,
                transport: &mut transport,
            },
        );
        self.playing = transport.playing;
        self.looping = transport.looping;
        self.speed = transport.speed;
        let current = self.session.take_index();
        if let (Some(before), Some(i)) = (response.edit_begun, current) {
            let mut snapshot = self.session.takes.clone();
            if let Some(slot) = snapshot.get_mut(i) {
                *slot = before;
            }
            self.history.push(snapshot);
        }
        if let (true, Some(i), Some(take)) = (response.changed, current, take) {
            if let Some(slot) = self.session.takes.get_mut(i) {
                *slot = take;
            }
            self.replay();
        }
        if let Some(t) = response.seek {
            self.seek(f64::from(t));
        }
    }

    /// The title bar: script path, reload flash, panel toggles, bake, help.
    pub(crate) fn top_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("title").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.strong("Marionette");
                ui.separator();
                ui.label(self.session.path().display().to_string());
                if let Some(f) = &self.flash {
                    if self.now < f.until {
                        ui.colored_label(egui::Color32::from_rgb(120, 210, 120), &f.text);
                    }
                }
                if self.is_dirty() {
                    ui.weak("* unsaved take edits");
                }
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.button("Help").on_hover_text("F1").clicked() {
                        self.help_open = !self.help_open;
                    }
                    if ui.button("Bake...").on_hover_text("Ctrl+B").clicked() {
                        self.open_bake();
                    }
                    if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
                        self.save_sidecar();
                    }
                    ui.toggle_value(&mut self.panels.console, "Console");
                    ui.toggle_value(&mut self.panels.inspector, "Inspector");
                    ui.toggle_value(&mut self.panels.outliner, "Outliner");
                });
            });
        });
        if let Some(err) = self.session.error().cloned() {
            let note = if self.session.is_loaded() {
                "the last good script keeps running"
            } else {
                "the rig is shown at rest; saving a fix loads the script"
            };
            let banner = Banner {
                id: "script error",
                title: "Script error",
                context: None,
                note,
            };
            super::banner::ui(ui, &banner, &err);
        }
        if let Some(err) = self.session.runtime_error().cloned() {
            let banner = Banner {
                id: "runtime error",
                title: "Runtime error",
                context: Some(format!("in {}", self.runtime_context())),
                note: "the pose is shown without post",
            };
            super::banner::ui(ui, &banner, &err);
        }
    }

    /// Overlay toggles above the viewport.
    pub(crate) fn viewport_toolbar(&mut self, ui: &mut egui::Ui) {
        egui::Frame::new()
            .inner_margin(egui::Margin::symmetric(6, 3))
            .fill(ui.visuals().panel_fill)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let o = &mut self.viewport.overlays;
                    ui.toggle_value(&mut o.grid, "Grid");
                    ui.toggle_value(&mut o.skeleton, "Skeleton");
                    ui.toggle_value(&mut o.axes, "Axes");
                    ui.toggle_value(&mut o.heatmap, "Weights")
                        .on_hover_text("skin-weight heatmap of the selected joint");
                    ui.toggle_value(&mut o.ghosts, "Ghosts");
                    ui.toggle_value(&mut o.follow_root, "Follow");
                    if ui.button("Frame (F)").on_hover_text("F").clicked() {
                        self.viewport.frame_request = true;
                    }
                });
            });
    }
}
