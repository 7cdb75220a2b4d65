//! The editor's state and one frame of its UI: [`Editor::ui`] runs the script (hot reload),
//! advances the playhead, evaluates the pose and lays out the panels around the viewport.
//! It needs only an egui `Ui`, a [`GpuContext`] and egui's wgpu renderer, so the window shell
//! and headless tests (egui_kittest) drive exactly the same code.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use egui::mutex::RwLock;
use glam::Mat4;

use super::console::{Console, Level};
use super::session::Session;
use super::sidecar::Panels;
use super::stats::{FrameStats, Phase};
use super::take_edit::Recording;
use super::timeline::{timeline, ParamLane, TimelineInput, TimelineState, Transport};
use super::undo::History;
use super::viewport::{PoseFrame, Viewport};
use crate::anim::graph::Take;
use crate::anim::Transform;
use crate::render::GpuContext;
use crate::script::{Reload, ScriptError};

/// How the editor opens.
#[derive(Clone, Debug)]
pub struct EditorOptions {
    /// The Lua script.
    pub script: PathBuf,
    /// The default rig (when the script names none).
    pub rig: Option<PathBuf>,
    /// Take to show first (default: the sidecar's, else the script's first).
    pub take: Option<String>,
    /// Playhead to start at.
    pub time: Option<f64>,
    /// Start playing.
    pub play: bool,
    /// 4x MSAA in the viewport where supported (off for image snapshots).
    pub msaa: bool,
    /// Read the sidecar next to the script.
    pub sidecar: bool,
    /// Write it (autosave, Ctrl+S, on close); off for screenshots.
    pub save_sidecar: bool,
}

impl EditorOptions {
    /// Options for `script` with MSAA and the sidecar on.
    pub fn new(script: impl Into<PathBuf>) -> Self {
        EditorOptions {
            script: script.into(),
            rig: None,
            take: None,
            time: None,
            play: false,
            msaa: true,
            sidecar: true,
            save_sidecar: true,
        }
    }
}

/// Errors opening the editor.
#[derive(Debug, thiserror::Error)]
pub enum EditorError {
    /// The script did not load.
    #[error("{0}")]
    Script(#[from] ScriptError),
    /// The viewport could not be created.
    #[error("viewport: {0}")]
    Render(#[from] crate::render::RenderError),
}

/// A flash message under the title bar (e.g. "reloaded in 12 ms").
pub(crate) struct Flash {
    pub text: String,
    pub until: f64,
}

/// The editor. See the module docs.
pub struct Editor {
    pub(crate) gpu: Rc<GpuContext>,
    pub(crate) egui_renderer: Arc<RwLock<egui_wgpu::Renderer>>,
    /// The script, takes and playhead.
    pub session: Session,
    /// The 3D view.
    pub viewport: Viewport,
    /// The console.
    pub console: Console,
    /// Playing (the playhead advances by the frame's dt).
    pub playing: bool,
    /// Loop at the end of the take.
    pub looping: bool,
    /// Playback speed factor.
    pub speed: f32,
    /// Keys are written when parameters move (take mode); live mode records a new take.
    pub recording: bool,
    pub(crate) record: Option<Recording>,
    /// The selected joint.
    pub selected_joint: Option<u16>,
    /// The parameter whose keys the key list shows.
    pub key_param: Option<String>,
    pub(crate) history: History,
    pub(crate) flash: Option<Flash>,
    /// The help overlay is open.
    pub help_open: bool,
    /// Which panels show.
    pub panels: Panels,
    pub(crate) outliner_search: String,
    pub(crate) ghosts: Vec<(Vec<Transform>, Mat4)>,
    pub(crate) saved: Option<super::sidecar::Sidecar>,
    pub(crate) sidecar_path: Option<PathBuf>,
    pub(crate) save_enabled: bool,
    pub(crate) last_autosave: f64,
    /// The close-confirmation dialog is open.
    pub confirm_close: bool,
    /// The editor asks its shell to close (after confirmation).
    pub quit: bool,
    /// The bake dialog.
    pub bake: super::bake_dialog::BakeDialog,
    pub(crate) rig: Option<PathBuf>,
    /// Frame time split.
    pub stats: FrameStats,
    /// Timeline view (zoom, pan, lanes, selected key); saved in the sidecar.
    pub timeline: TimelineState,
    pub(crate) lanes: super::sweep::Lanes,
    pub(crate) now: f64,
}

impl Editor {
    /// Opens the script of `opts` on `gpu`, drawing through `egui_renderer` (which must use
    /// `gpu`'s device).
    pub fn new(
        gpu: Rc<GpuContext>,
        egui_renderer: Arc<RwLock<egui_wgpu::Renderer>>,
        opts: &EditorOptions,
    ) -> Result<Editor, EditorError> {
        let session = Session::open(&opts.script, opts.rig.as_deref())?;
        let viewport = Viewport::new(&gpu, session.model(), opts.msaa)?;
        let mut console = Console::default();
        console.push(
            Level::Info,
            format!(
                "opened {} ({} joints, {} takes)",
                opts.script.display(),
                session.model().skeleton.len(),
                session.takes.len()
            ),
        );
        for w in &session.model().warnings {
            console.push(Level::Warn, w.clone());
        }
        let mut ed = Editor {
            gpu,
            egui_renderer,
            session,
            viewport,
            console,
            playing: false,
            looping: true,
            speed: 1.0,
            recording: false,
            record: None,
            selected_joint: None,
            key_param: None,
            history: History::default(),
            flash: None,
            help_open: false,
            panels: Panels::default(),
            outliner_search: String::new(),
            ghosts: Vec::new(),
            saved: None,
            sidecar_path: None,
            save_enabled: opts.save_sidecar,
            last_autosave: 0.0,
            confirm_close: false,
            quit: false,
            bake: Default::default(),
            rig: opts.rig.clone(),
            stats: FrameStats::default(),
            timeline: TimelineState::default(),
            lanes: Default::default(),
            now: 0.0,
        };
        for line in ed.session.log() {
            ed.console.push(Level::Print, line);
        }
        if opts.sidecar {
            ed.load_sidecar();
        }
        if let Some(name) = &opts.take {
            match ed.session.takes.iter().position(|t| &t.name == name) {
                Some(i) => ed.select_take(Some(i)),
                None => ed
                    .console
                    .push(Level::Error, format!("no take named '{name}'")),
            }
        }
        if let Some(t) = opts.time {
            ed.session.seek(t);
        }
        ed.playing = opts.play;
        Ok(ed)
    }

    /// Selects a take (`None`: live parameters), reporting a failure in the console.
    pub fn select_take(&mut self, take: Option<usize>) {
        if let Err(e) = self.session.select(take) {
            self.console.push(Level::Error, e.headline());
        }
        self.recording = false;
        self.record = None;
    }

    /// Applies an edit to the takes: snapshot for undo, edit, replay the current take.
    pub fn edit_takes(&mut self, edit: impl FnOnce(&mut Vec<Take>, Option<usize>)) {
        let before = self.session.takes.clone();
        let current = self.session.take_index();
        edit(&mut self.session.takes, current);
        if self.session.takes != before {
            self.history.push(before);
            self.replay();
        }
    }

    fn replay(&mut self) {
        if let Err(e) = self.session.replay() {
            self.console.push(Level::Error, e.headline());
        }
    }

    /// Opens the bake dialog on the script's takes.
    pub fn open_bake(&mut self) {
        let takes = self
            .session
            .graph()
            .script()
            .spec
            .takes
            .iter()
            .map(|t| t.name.clone())
            .collect();
        let script = self.session.path().to_path_buf();
        self.bake.open(&script, self.rig.as_deref(), takes);
    }

    /// Undoes the last take edit.
    pub fn undo(&mut self) {
        if let Some(takes) = self.history.undo(self.session.takes.clone()) {
            self.session.takes = takes;
            self.replay();
            self.console.push(Level::Info, "undo");
        }
    }

    /// Redoes the last undone take edit.
    pub fn redo(&mut self) {
        if let Some(takes) = self.history.redo(self.session.takes.clone()) {
            self.session.takes = takes;
            self.replay();
            self.console.push(Level::Info, "redo");
        }
    }

    /// Polls hot reload: console lines, the "reloaded" flash, the error banner.
    fn poll_script(&mut self) {
        let Some(reload) = self.session.poll() else {
            return;
        };
        self.after_reload(reload);
    }

    /// Reports a reload's outcome.
    pub(crate) fn after_reload(&mut self, reload: Reload) {
        match reload {
            Reload::Loaded { took } => {
                let ms = took.as_secs_f64() * 1000.0;
                let text = format!("reloaded in {ms:.0} ms");
                self.console.push(
                    Level::Ok,
                    format!("{}: {text}", self.session.path().display()),
                );
                for line in self.session.log() {
                    self.console.push(Level::Print, line);
                }
                self.flash = Some(Flash {
                    text,
                    until: self.now + 2.5,
                });
            }
            Reload::Failed(e) => self.console.push(Level::Error, e.to_string()),
        }
    }

    /// Moves the playhead by `dt` seconds of playback (looping or stopping at the end).
    fn advance(&mut self, dt: f64) {
        let t = self.session.time() + dt * f64::from(self.speed);
        match self.session.duration() {
            Some(d) if t > f64::from(d) => {
                let d = f64::from(d);
                if self.looping && d > 0.0 {
                    self.session.seek(t % d);
                } else {
                    self.session.seek(d);
                    self.playing = false;
                }
            }
            Some(_) => self.session.seek(t),
            None => {
                self.session.seek(t);
                if let Some(r) = self.record.as_mut() {
                    r.time += dt as f32;
                }
            }
        }
    }

    /// Seeks the playhead to `t` seconds (pauses playback).
    pub fn seek(&mut self, t: f64) {
        self.playing = false;
        self.session.seek(t);
    }

    /// Steps one frame of the take's fps (`-1` back, `1` forward).
    pub fn step_frame(&mut self, dir: i32) {
        let fps = f64::from(self.session.fps());
        let frame = (self.session.time() * fps).round() + f64::from(dir);
        self.seek(frame.max(0.0) / fps);
    }

    /// One frame of the editor UI. See the module docs.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        let ctx = ui.ctx().clone();
        self.now = ctx.input(|i| i.time);
        let dt = f64::from(ctx.input(|i| i.stable_dt).clamp(0.0, 0.1));
        self.shortcuts(&ctx);

        let t = Instant::now();
        self.poll_script();
        self.stats.add(Phase::Script, t.elapsed());

        let t = Instant::now();
        if self.playing {
            self.advance(dt);
        }
        self.collect_ghosts();
        self.stats.add(Phase::Graph, t.elapsed());
        self.sample_recording();

        self.top_bar(ui);
        if self.panels.console {
            egui::Panel::bottom("console")
                .resizable(true)
                .default_size(52.0)
                .show(ui, |ui| self.console.ui(ui));
        }
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(245.0)
            .show(ui, |ui| {
                super::transport::ui(self, ui);
                self.timeline_ui(ui);
            });
        if self.panels.outliner {
            egui::Panel::left("outliner")
                .resizable(true)
                .default_size(230.0)
                .show(ui, |ui| super::outliner::ui(self, ui));
        }
        if self.panels.inspector {
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(290.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        super::params::ui(self, ui);
                        ui.separator();
                        super::states::ui(self, ui);
                    });
                });
        }
        let mut render_time = std::time::Duration::ZERO;
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| {
                self.viewport_toolbar(ui);
                let t = Instant::now();
                self.viewport_ui(ui);
                render_time = t.elapsed();
            });
        self.stats.add(Phase::Render, render_time);
        super::help::ui(self, &ctx);
        super::bake_dialog::ui(self, &ctx);
        self.close_dialog(&ctx);
        self.autosave();
        if self.playing {
            ctx.request_repaint();
        } else {
            // The watcher is polled each frame: keep polling while idle.
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        let total = frame_start.elapsed();
        self.stats.add_ui(total);
    }

    /// The timeline: transport, ruler, parameter keys (edited in place, one undo step per
    /// gesture), state bars and node weights of the take.
    fn timeline_ui(&mut self, ui: &mut egui::Ui) {
        let t = Instant::now();
        self.lanes.update(&mut self.session);
        self.stats.add(Phase::Graph, t.elapsed());
        let params: Vec<ParamLane> = {
            let p = self.session.graph().graph().params();
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
        };
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

    /// The pose shown by the viewport: the session's pose at the playhead.
    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        let model = self.session.model().clone();
        let frame = PoseFrame {
            local: self.session.pose(),
            world: self.session.world(),
        };
        let ghosts = if self.viewport.overlays.ghosts {
            self.ghosts.as_slice()
        } else {
            &[]
        };
        let r = self.viewport.show(
            ui,
            &self.gpu,
            &self.egui_renderer,
            &model,
            &frame,
            ghosts,
            self.selected_joint,
        );
        if let Some(pick) = r.picked {
            self.selected_joint = pick;
        }
    }

    /// Ghost poses around the playhead (take mode, when shown), then the playhead again.
    fn collect_ghosts(&mut self) {
        let n = 3;
        let show = self.viewport.overlays.ghosts && self.session.take_index().is_some();
        if !show {
            self.ghosts.clear();
            return;
        }
        let t = self.session.time();
        let step = 1.0 / 6.0;
        self.ghosts
            .resize_with(2 * n, || (Vec::new(), Mat4::IDENTITY));
        let ks: Vec<i32> = (-(n as i32)..=n as i32).filter(|&k| k != 0).collect();
        for (slot, k) in ks.into_iter().enumerate() {
            let tk = (t + f64::from(k) * step).max(0.0);
            let (local, world) = &mut self.ghosts[slot];
            *world = self.session.pose_at(tk, local);
        }
        self.session.seek(t);
    }

    /// Live recording: one sample of the parameter values per frame.
    fn sample_recording(&mut self) {
        if let Some(r) = self.record.as_mut() {
            let state = self.session.graph().play_state();
            r.sample(state.params);
        }
    }

    /// The title bar: script path, reload flash, panel toggles, bake, help.
    fn top_bar(&mut self, ui: &mut egui::Ui) {
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
            super::banner::ui(ui, &err);
        }
    }

    /// Overlay toggles above the viewport.
    fn viewport_toolbar(&mut self, ui: &mut egui::Ui) {
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
