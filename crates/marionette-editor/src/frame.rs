//! One frame of the editor UI ([`Editor::ui`]): the order of its steps — shortcuts, hot reload,
//! playback and ghosts, the recording's sample — and of its panels around the viewport. Each
//! panel draws from `&` views of the state and returns [`crate::action::Action`]s, applied
//! right after it (so the panels drawn next see their effect, as the frame always did); then
//! the bake's progress, the dialogs and the autosave.

use std::time::{Duration, Instant};

use super::action::Action;
use super::app::Editor;
use super::console::Level;
use super::stats::Phase;
use super::viewport::{PoseFrame, SourceSkeleton, ViewportScene};
use super::{
    bake_dialog, drivers, graph_view, help, outliner, params, persist, retarget_panel, states,
    take_bar, take_lanes, timeline_panel, title_bar, toolbar,
};

impl Editor {
    /// One frame of the editor UI. See the module docs.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        if let Some(last) = self.window.frame_start.replace(frame_start) {
            self.window.frame_interval = frame_start - last;
        }
        let ctx = ui.ctx().clone();
        self.window.now = ctx.input(|i| i.time);
        let dt = f64::from(ctx.input(|i| i.stable_dt).clamp(0.0, 0.1));
        let keys = help::shortcuts(&ctx);
        self.apply_all(keys);

        let t = Instant::now();
        self.poll_script();
        self.stats.add(Phase::Script, t.elapsed());

        let t = Instant::now();
        if self.window.transport.playing {
            self.advance(dt);
        }
        self.collect_ghosts();
        self.collect_compare();
        self.stats.add(Phase::Graph, t.elapsed());
        self.sample_recording();
        self.report_runtime_error();

        let actions = title_bar::ui(ui, self);
        self.apply_all(actions);
        if self.layout.panels.console {
            egui::Panel::bottom("console")
                .resizable(true)
                .default_size(52.0)
                .show(ui, |ui| self.console.ui(ui));
        }
        // a third of the window by default (at 1080 p the state and weight lanes fit), resized
        // by dragging its top edge
        let timeline_height = (ui.available_height() * 0.34).max(245.0);
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(timeline_height)
            .show(ui, |ui| {
                let actions = take_bar::ui(
                    ui,
                    &self.session,
                    self.window.recording,
                    self.lanes.pending(),
                );
                self.apply_all(actions);
                let t = Instant::now();
                let slice = take_lanes::slice_for(self.window.frame_interval);
                self.lanes.update(&mut self.session, slice);
                self.stats.add(Phase::Graph, t.elapsed());
                // a take's broken motion assertions, live, as `check` prints them
                for line in self.lanes.failures.drain(..) {
                    self.console.push(Level::Error, line);
                }
                let lit = self.lit_weight_lane();
                let actions = timeline_panel::ui(
                    ui,
                    &mut self.layout.timeline,
                    &self.session,
                    &self.lanes,
                    self.window.transport,
                    lit.as_deref(),
                );
                self.apply_all(actions);
            });
        if self.layout.panels.outliner {
            egui::Panel::left("outliner")
                .resizable(true)
                .default_size(230.0)
                .show(ui, |ui| {
                    let w = &mut self.window;
                    let selection = outliner::Selection {
                        joint: w.selected_joint,
                        morphs: w.selected_morphs,
                    };
                    let picked =
                        outliner::joint_list(ui, &self.session, selection, &mut w.outliner_search);
                    self.apply_all(picked);
                    match self.window.selected_morphs {
                        Some(set) => outliner::morph_details(ui, &self.session, set),
                        None => {
                            outliner::joint_details(ui, &self.session, self.window.selected_joint)
                        }
                    }
                });
        }
        if self.layout.panels.inspector {
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(290.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let take_mode = self.session.take_index().is_some();
                        let view = params::View {
                            session: &self.session,
                            recording: self.window.recording,
                            key_param: self.window.key_param.as_deref(),
                        };
                        let actions = params::ui(ui, &view);
                        self.apply_all(actions);
                        if take_mode {
                            ui.separator();
                            let view = params::View {
                                session: &self.session,
                                recording: self.window.recording,
                                key_param: self.window.key_param.as_deref(),
                            };
                            let actions = params::key_list(ui, &view);
                            self.apply_all(actions);
                        }
                        ui.separator();
                        states::ui(ui, &self.session);
                        retarget_panel::ui(ui, &self.session);
                    });
                });
        }
        if self.layout.panels.graph {
            let wide = ui.available_width() * 0.5;
            egui::Panel::right("graph view")
                .resizable(true)
                .default_size(wide.max(320.0))
                .show(ui, |ui| {
                    let w = &mut self.window;
                    let actions =
                        graph_view::ui(ui, &mut w.graph_view, &self.session, w.selected_node);
                    self.apply_all(actions);
                });
        }
        let mut render_time = Duration::ZERO;
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| {
                let actions = toolbar::ui(ui, &self.viewport.overlays);
                self.apply_all(actions);
                let t = Instant::now();
                self.viewport_ui(ui);
                render_time = t.elapsed();
            });
        self.stats.add(Phase::Render, render_time);
        let actions = help::window(&ctx, self.window.help_open);
        self.apply_all(actions);
        self.follow_bake(&ctx);
        let actions = bake_dialog::ui(&ctx, &mut self.bake);
        self.apply_all(actions);
        let actions =
            persist::close_dialog(&ctx, self.window.confirm_close, self.file.refused.is_some());
        self.apply_all(actions);
        self.autosave();
        if self.window.transport.playing || self.lanes.pending().is_some() {
            ctx.request_repaint();
        } else {
            // The watcher is polled each frame: keep polling while idle.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        let total = frame_start.elapsed();
        self.stats.add_ui(total);
    }

    /// A finished bake's outcome in the console (and the dialog's status); keeps repainting
    /// while one runs.
    fn follow_bake(&mut self, ctx: &egui::Context) {
        if let Some(result) = self.bake.poll() {
            match result {
                Ok(text) => {
                    self.bake.set_status("done");
                    for line in text.lines() {
                        self.console.push(Level::Ok, line.to_string());
                    }
                }
                Err(e) => {
                    self.bake.set_status("failed (see the console)");
                    self.console.push(Level::Error, format!("bake: {e}"));
                }
            }
        }
        if self.bake.is_running() {
            ctx.request_repaint_after(Duration::from_millis(30));
        }
    }

    /// The weight lane of the node selected in the graph view, by the name the lanes give it
    /// (its own name, else its clip's, else its kind and id).
    fn lit_weight_lane(&self) -> Option<String> {
        let node = self.window.selected_node?;
        let g = self.session.running()?.graph();
        let n = g.nodes().find(|n| n.id == node)?;
        Some(match (n.name, n.clip) {
            (Some(name), _) | (None, Some(name)) => name.to_string(),
            (None, None) => format!("{} #{}", n.kind, n.id.index()),
        })
    }

    /// The skeleton's colours and their legend: who drives each bone (toolbar: Drivers), else
    /// the joints the node selected in the graph view drives, else none (the usual colours).
    pub fn joint_colors(&self) -> drivers::JointColors {
        match (self.session.running(), self.window.selected_node) {
            (Some(g), _) if self.viewport.overlays.drivers => drivers::by_writer(g.graph()),
            (Some(g), Some(node)) => drivers::of_node(g.graph(), node),
            _ => drivers::JointColors::default(),
        }
    }

    /// The pose shown by the viewport: the session's pose at the playhead, and the sources of
    /// its retarget nodes beside it.
    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        let model = self.session.model().clone();
        let sources = if self.viewport.overlays.sources {
            source_skeletons(&self.session)
        } else {
            Vec::new()
        };
        let gizmos = match self.session.running() {
            Some(g) if self.viewport.overlays.rig => g.graph().gizmos(self.session.pose()),
            _ => Vec::new(),
        };
        let drivers::JointColors {
            colors: joint_colors,
            legend,
        } = self.joint_colors();
        let ghosts = if self.viewport.overlays.ghosts {
            self.window.ghosts.as_slice()
        } else {
            &[]
        };
        let scene = ViewportScene {
            model: &model,
            pose: PoseFrame {
                local: self.session.pose(),
                morphs: self.session.morphs(),
                world: self.session.world(),
            },
            ghosts,
            selected: self.window.selected_joint,
            sources: &sources,
            gizmos: &gizmos,
            joint_colors: &joint_colors,
            legend: &legend,
            compare: self.window.compare.as_ref(),
        };
        let r = self
            .viewport
            .show(ui, &self.gpu, &self.egui_renderer, &scene);
        if let Some(pick) = r.picked {
            self.apply(Action::SelectJoint(pick));
        }
    }
}

/// The source rig of each retarget node evaluated in the last frame, posed as the node read it,
/// standing beside the character (1.2 m to its right per source, over the same ground) and
/// moving with it.
pub(crate) fn source_skeletons(session: &super::session::Session) -> Vec<SourceSkeleton> {
    let Some(running) = session.running() else {
        return Vec::new();
    };
    let place = session.world();
    let mut out = Vec::new();
    let mut seen: Vec<*const marionette_anim::Skeleton> = Vec::new();
    for r in running.graph().retargets() {
        // one skeleton per source rig: the first of its retargets in use
        if r.weight <= 0.0
            || r.source_pose.len() != r.source.len()
            || seen.contains(&(r.source as *const _))
        {
            continue;
        }
        let k = seen.len();
        seen.push(r.source);
        let armature = r.source.armature();
        // joints the retarget does not read (a BVH's End Sites, fingers) hang at their rest
        // from their parent
        let mut model = r.source_pose.to_vec();
        for (j, p) in r.source.parents().iter().enumerate() {
            if let (Some(p), false) = (p, r.retargeter.reads_source(j as u16)) {
                model[j] = model[*p as usize].mul_transform(&r.source.rest_pose()[j]);
            }
        }
        let world: Vec<glam::Mat4> = model.iter().map(|t| armature * t.to_matrix()).collect();
        // over the ground where the source's top joint stands, beside the character
        let top = world
            .first()
            .map_or(glam::Vec3::ZERO, |m| m.w_axis.truncate());
        let beside = glam::Mat4::from_translation(glam::Vec3::new(
            -1.2 * (k as f32 + 1.0) - top.x,
            0.0,
            -top.z,
        ));
        out.push(SourceSkeleton {
            joint_world: world.iter().map(|m| place * beside * *m).collect(),
            parents: r.source.parents().to_vec(),
        });
    }
    out
}
