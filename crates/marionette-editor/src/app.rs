//! The editor's state and one frame of its UI: [`Editor::ui`] runs the script (hot reload),
//! advances the playhead, evaluates the pose and lays out the panels around the viewport.
//! It needs only an egui `Ui`, a [`GpuContext`] and egui's wgpu renderer, so the window shell
//! and headless tests (egui_kittest) drive exactly the same code.

use std::collections::HashSet;
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
use super::timeline::TimelineState;
use super::undo::History;
use super::viewport::{PoseFrame, Viewport, ViewportScene};
use marionette_anim::graph::Take;
use marionette_anim::Transform;
use marionette_render::GpuContext;
use marionette_script::{Reload, ScriptError};

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
    /// Multisampling in the viewport (off for image snapshots).
    pub msaa: Msaa,
    /// Read the sidecar next to the script.
    pub sidecar: bool,
    /// Write it (autosave, Ctrl+S, on close); off for screenshots.
    pub save_sidecar: bool,
}

/// Multisampling of the viewport.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Msaa {
    /// 4x on a GPU; none on a CPU rasteriser (lavapipe), where 4x halves the frame rate
    /// (measured: 11.5 -> 22-24 fps at 1280x720 on 2 busy cores).
    #[default]
    Auto,
    /// 4x wherever the adapter supports it.
    On,
    /// One sample.
    Off,
}

impl Msaa {
    /// Whether to ask for 4x multisampling on an adapter of type `device`.
    pub fn wanted(self, device: wgpu::DeviceType) -> bool {
        match self {
            Msaa::Auto => device != wgpu::DeviceType::Cpu,
            Msaa::On => true,
            Msaa::Off => false,
        }
    }
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
            msaa: Msaa::Auto,
            sidecar: true,
            save_sidecar: true,
        }
    }
}

/// Errors opening the editor (a script that does not load still opens, see
/// [`Session::open`]).
#[derive(Debug, thiserror::Error)]
pub enum EditorError {
    /// No rig to show, an unknown `--take`, or the script cannot be watched.
    #[error("{0}")]
    Script(#[from] ScriptError),
    /// The viewport could not be created.
    #[error("viewport: {0}")]
    Render(#[from] marionette_render::RenderError),
}

/// A flash message under the title bar (e.g. "reloaded in 12 ms").
pub(crate) struct Flash {
    pub text: String,
    pub until: f64,
}

/// What opening does once the script loads, when it did not load at first: read the sidecar
/// (its edits are never touched while the script's own takes are unknown), allow saving it,
/// select the take asked for.
pub(crate) struct OnLoad {
    sidecar: bool,
    save: bool,
    take: Option<String>,
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
    pub(crate) sidecar_file: super::persist::SidecarFile,
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
    /// Runtime errors already written to the console since the last reload, as (take or
    /// "live", `file:line`, or the message where the line is unknown): one line per distinct
    /// error, not one per frame (nor per value a message may quote).
    pub(crate) runtime_reported: HashSet<(String, String)>,
    /// Opening steps waiting for the script's first load.
    pub(crate) on_load: Option<OnLoad>,
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
        let viewport = Viewport::new(
            &gpu,
            session.model(),
            opts.msaa.wanted(gpu.adapter.get_info().device_type),
        )?;
        let mut console = Console::default();
        let loaded = session.is_loaded();
        let what = if loaded {
            format!("{} takes", session.takes.len())
        } else {
            "the script did not load: the rig is shown at rest until a save fixes it".to_string()
        };
        console.push(
            Level::Info,
            format!(
                "opened {} ({} joints, {what})",
                opts.script.display(),
                session.model().skeleton.len(),
            ),
        );
        for w in &session.model().warnings {
            console.push(Level::Warn, w.clone());
        }
        if let Some(e) = session.error() {
            for line in &e.printed {
                console.push(Level::Print, line.clone());
            }
            console.push(Level::Error, e.to_string());
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
            save_enabled: opts.save_sidecar && loaded,
            sidecar_file: Default::default(),
            last_autosave: 0.0,
            confirm_close: false,
            quit: false,
            bake: Default::default(),
            rig: opts.rig.clone(),
            stats: FrameStats::default(),
            timeline: TimelineState::default(),
            lanes: Default::default(),
            now: 0.0,
            runtime_reported: HashSet::new(),
            on_load: None,
        };
        for line in ed.session.log() {
            ed.console.push(Level::Print, line);
        }
        if !loaded {
            ed.on_load = Some(OnLoad {
                sidecar: opts.sidecar,
                save: opts.save_sidecar,
                take: opts.take.clone(),
            });
            if let Some(t) = opts.time {
                ed.session.seek(t);
            }
            ed.playing = opts.play;
            return Ok(ed);
        }
        if opts.sidecar {
            ed.load_sidecar();
        }
        if let Some(name) = &opts.take {
            // as `run`, `render` and `bake` do: a take asked for by name must exist
            let Some(i) = ed.session.takes.iter().position(|t| &t.name == name) else {
                let names = ed.session.takes.iter().map(|t| t.name.as_str());
                return Err(EditorError::Script(ScriptError::msg(format!(
                    "{}: {}",
                    opts.script.display(),
                    marionette_script::spec::unknown_take(name, names)
                ))));
            };
            ed.select_take(Some(i));
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

    pub(crate) fn replay(&mut self) {
        if let Err(e) = self.session.replay() {
            self.console.push(Level::Error, e.headline());
        }
    }

    /// Opens the bake dialog on the script's takes.
    pub fn open_bake(&mut self) {
        let takes = self.session.takes.iter().map(|t| t.name.clone()).collect();
        let edited = (0..self.session.takes.len())
            .filter(|&i| self.session.is_edited(i))
            .map(|i| self.session.takes[i].clone())
            .collect();
        let script = self.session.path().to_path_buf();
        self.bake.open(&script, self.rig.as_deref(), takes, edited);
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
        let model = self.session.model().clone();
        let Some(reload) = self.session.poll() else {
            return;
        };
        if !Rc::ptr_eq(&model, self.session.model()) {
            self.new_model();
        }
        let loaded = matches!(reload, Reload::Loaded { .. });
        self.after_reload(reload);
        if self.session.is_loaded() {
            if let Some(todo) = self.on_load.take() {
                self.first_load(todo);
            } else if loaded {
                self.report_conflicts();
            }
        }
    }

    /// The script loaded for the first time with another model than the one shown at rest
    /// (the rig it names): the viewport draws the new one.
    fn new_model(&mut self) {
        let model = self.session.model().clone();
        let msaa = self.viewport.multisampled();
        match Viewport::new(&self.gpu, &model, msaa) {
            Ok(mut v) => {
                v.overlays = self.viewport.overlays.clone();
                self.viewport = v;
                self.selected_joint = None;
                self.ghosts.clear();
            }
            Err(e) => self.console.push(Level::Error, format!("viewport: {e}")),
        }
    }

    /// What opening left for the script's first load: the sidecar, saving, `--take`.
    fn first_load(&mut self, todo: OnLoad) {
        self.save_enabled = todo.save;
        if todo.sidecar {
            let t = self.session.time();
            self.load_sidecar();
            if self.saved.is_none() {
                self.session.seek(t);
            }
        }
        if let Some(name) = &todo.take {
            match self.session.takes.iter().position(|t| &t.name == name) {
                Some(i) => {
                    let t = self.session.time();
                    self.select_take(Some(i));
                    self.session.seek(t);
                }
                None => self.console.push(
                    Level::Error,
                    format!("{}: unknown take '{name}'", self.session.path().display()),
                ),
            }
        }
    }

    /// Writes the playhead's runtime error (`post` or a Lua predicate that threw) to the
    /// console, once per distinct error and take; the banner shows it while it lasts.
    fn report_runtime_error(&mut self) {
        let Some(e) = self.session.runtime_error() else {
            return;
        };
        let take = self
            .session
            .take()
            .map_or_else(|| "live".to_string(), |t| t.name.clone());
        let at = e
            .location
            .as_ref()
            .map_or_else(|| e.message.clone(), |l| format!("{}:{}", l.file, l.line));
        if !self.runtime_reported.insert((take, at)) {
            return;
        }
        let line = format!(
            "runtime error in {} (the pose is shown without post): {}",
            self.runtime_context(),
            e.headline()
        );
        self.console.push(Level::Error, line);
    }

    /// Where the playhead is, for runtime errors: "take 'walk' at 1.50 s" or "live
    /// parameters at 3.20 s".
    pub(crate) fn runtime_context(&self) -> String {
        let t = self.session.time();
        match self.session.take() {
            Some(take) => format!("take '{}' at {t:.2} s", take.name),
            None => format!("live parameters at {t:.2} s"),
        }
    }

    /// Reports a reload's outcome.
    pub(crate) fn after_reload(&mut self, reload: Reload) {
        match reload {
            Reload::Loaded { took } => {
                self.runtime_reported.clear();
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
            Reload::Failed(e) => {
                // what the script printed before it failed, then every mistake found
                for line in &e.printed {
                    self.console.push(Level::Print, line.clone());
                }
                self.console.push(Level::Error, e.to_string());
            }
        }
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
        self.report_runtime_error();

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

    /// The pose shown by the viewport: the session's pose at the playhead.
    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        let model = self.session.model().clone();
        let ghosts = if self.viewport.overlays.ghosts {
            self.ghosts.as_slice()
        } else {
            &[]
        };
        let scene = ViewportScene {
            model: &model,
            pose: PoseFrame {
                local: self.session.pose(),
                world: self.session.world(),
            },
            ghosts,
            selected: self.selected_joint,
        };
        let r = self
            .viewport
            .show(ui, &self.gpu, &self.egui_renderer, &scene);
        if let Some(pick) = r.picked {
            self.selected_joint = pick;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Msaa;
    use wgpu::DeviceType;

    /// Auto multisamples on GPUs but not on a CPU rasteriser; On and Off are what they say.
    #[test]
    fn msaa_choice() {
        assert!(Msaa::Auto.wanted(DeviceType::DiscreteGpu));
        assert!(Msaa::Auto.wanted(DeviceType::IntegratedGpu));
        assert!(!Msaa::Auto.wanted(DeviceType::Cpu));
        assert!(Msaa::On.wanted(DeviceType::Cpu));
        assert!(!Msaa::Off.wanted(DeviceType::DiscreteGpu));
    }
}
