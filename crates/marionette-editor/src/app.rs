//! The editor: its options, its state ([`Editor`]: the parts the sidecar saves and those that
//! live while the window is open, see `state`), opening a script, and the take operations every
//! action builds on (select, edit with undo, replay, undo/redo, open the bake dialog).
//! One frame of its UI ([`Editor::ui`]) is in `frame`, what panels ask ([`crate::action::Action`])
//! is performed in `apply`, hot reload in `reload`. It needs only an egui `Ui`, a [`GpuContext`]
//! and egui's wgpu renderer, so the window shell and headless tests (egui_kittest) drive exactly
//! the same code.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use egui::mutex::RwLock;

use super::bake_dialog::BakeDialog;
use super::console::{Console, Level};
use super::session::Session;
use super::state::{Layout, SidecarFile, WindowState};
use super::stats::FrameStats;
use super::take_lanes::TakeLanes;
use super::undo::History;
use super::viewport::Viewport;
use marionette_anim::graph::Take;
use marionette_render::GpuContext;
use marionette_script::ScriptError;

/// How the editor opens.
#[derive(Clone, Debug)]
pub struct EditorOptions {
    /// The Lua script.
    pub script: PathBuf,
    /// Which file is the character (`--rig`, and the one used when the script names none).
    pub rig: marionette_script::rigs::RigChoice,
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
    /// Select a joint, or a mesh with morph targets (its weights then show in the
    /// outliner), or a named node of the graph (the graph view shows it), when the script
    /// loads.
    pub select: Option<String>,
    /// Panels to open whatever the sidecar says (`--panel graph`).
    pub panels: Vec<Panel>,
}

/// A panel that `--panel` opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The joint tree (left).
    Outliner,
    /// Parameters and states (right).
    Inspector,
    /// The console (bottom).
    Console,
    /// The graph view.
    Graph,
}

impl Panel {
    /// Every panel with its name on the command line.
    pub const NAMES: [(&'static str, Panel); 4] = [
        ("outliner", Panel::Outliner),
        ("inspector", Panel::Inspector),
        ("console", Panel::Console),
        ("graph", Panel::Graph),
    ];
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
            rig: Default::default(),
            take: None,
            time: None,
            play: false,
            msaa: Msaa::Auto,
            sidecar: true,
            save_sidecar: true,
            select: None,
            panels: Vec::new(),
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

/// What opening does once the script loads, when it did not load at first: read the sidecar
/// (its edits are never touched while the script's own takes are unknown), allow saving it,
/// select the take asked for.
pub(crate) struct OnLoad {
    pub(crate) sidecar: bool,
    pub(crate) save: bool,
    pub(crate) take: Option<String>,
}

/// The editor. See the module docs.
pub struct Editor {
    pub(crate) gpu: Rc<GpuContext>,
    pub(crate) egui_renderer: Arc<RwLock<egui_wgpu::Renderer>>,
    /// The script, takes and playhead (its takes, selected take and playhead are saved).
    pub(crate) session: Session,
    /// The 3D view (its camera and overlays are saved).
    pub(crate) viewport: Viewport,
    /// Panels and the timeline's view (saved).
    pub(crate) layout: Layout,
    /// What lives only while the window is open.
    pub(crate) window: WindowState,
    /// The console.
    pub(crate) console: Console,
    /// The bake dialog.
    pub(crate) bake: BakeDialog,
    /// Frame time split.
    pub(crate) stats: FrameStats,
    /// The sidecar file: what was last written, where, whether it may be.
    pub(crate) file: SidecarFile,
    pub(crate) history: History,
    pub(crate) lanes: TakeLanes,
    pub(crate) rig: marionette_script::rigs::RigChoice,
    /// Opening steps waiting for the script's first load.
    pub(crate) on_load: Option<OnLoad>,
}

/// Read access to the state, for the window's drivers (the shell, the tests); the panels read
/// the same through `&` views and change it only through [`Editor::apply`].
impl Editor {
    /// The script, takes and playhead.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The 3D view: camera and overlays.
    pub fn viewport(&self) -> &Viewport {
        &self.viewport
    }

    /// Panels and the timeline's view.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// What lives only while the window is open: transport, recording, selection, dialogs.
    pub fn window(&self) -> &WindowState {
        &self.window
    }

    /// The console.
    pub fn console(&self) -> &Console {
        &self.console
    }

    /// The bake dialog.
    pub fn bake_dialog(&self) -> &BakeDialog {
        &self.bake
    }

    /// The last frames' time split.
    pub fn stats(&self) -> &FrameStats {
        &self.stats
    }

    /// The sidecar file: what was last written, where, whether it may be.
    pub fn sidecar_file(&self) -> &SidecarFile {
        &self.file
    }

    /// The session, for a driver that reads its running graph (which needs `&mut`) or sets a
    /// parameter as the inspector's slider does.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The window state, to set what a person sets by hand in a widget (a search field, the
    /// selection, the transport) when driving the editor without one.
    pub fn window_mut(&mut self) -> &mut WindowState {
        &mut self.window
    }

    /// The 3D view, to set the camera as a person orbits it.
    pub fn viewport_mut(&mut self) -> &mut Viewport {
        &mut self.viewport
    }

    /// The bake dialog, to fill its fields as a person types them.
    pub fn bake_dialog_mut(&mut self) -> &mut BakeDialog {
        &mut self.bake
    }
}

impl Editor {
    /// Opens the script of `opts` on `gpu`, drawing through `egui_renderer` (which must use
    /// `gpu`'s device).
    pub fn new(
        gpu: Rc<GpuContext>,
        egui_renderer: Arc<RwLock<egui_wgpu::Renderer>>,
        opts: &EditorOptions,
    ) -> Result<Editor, EditorError> {
        let session = Session::open(&opts.script, &opts.rig)?;
        let viewport = Viewport::new(
            &gpu,
            session.model(),
            opts.msaa.wanted(gpu.adapter.get_info().device_type),
        )?;
        let mut console = Console::default();
        let loaded = session.is_loaded();
        let what = if loaded {
            match session.takes.len() {
                1 => "1 take".to_string(),
                n => format!("{n} takes"),
            }
        } else {
            "the script did not load: the rig is shown at rest until a save fixes it".to_string()
        };
        // which character (on the same line, short: the console's height stays; `check` says
        // why at length)
        let origin = session.running().map_or(String::new(), |running| {
            let (who, _) = marionette_script::rigs::character_origin(
                &opts.script,
                &opts.rig,
                &running.script().rig,
            );
            format!(", character {who}")
        });
        console.push(
            Level::Info,
            format!(
                "opened {} ({} joints, {what}){origin}",
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
            layout: Layout::default(),
            window: WindowState::default(),
            console,
            bake: BakeDialog::default(),
            stats: FrameStats::default(),
            file: SidecarFile {
                save_enabled: opts.save_sidecar && loaded,
                ..SidecarFile::default()
            },
            history: History::default(),
            lanes: TakeLanes::default(),
            rig: opts.rig.clone(),
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
            ed.window.transport.playing = opts.play;
            ed.open_panels(&opts.panels);
            return Ok(ed);
        }
        if opts.sidecar {
            ed.load_sidecar();
        }
        ed.open_panels(&opts.panels);
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
        if let Some(name) = &opts.select {
            ed.select_named(name).map_err(|m| {
                EditorError::Script(ScriptError::msg(format!("{}: {m}", opts.script.display())))
            })?;
        }
        ed.window.transport.playing = opts.play;
        Ok(ed)
    }

    /// Opens `panels` (`--panel`), over what the sidecar said.
    fn open_panels(&mut self, panels: &[Panel]) {
        let p = &mut self.layout.panels;
        for panel in panels {
            match panel {
                Panel::Outliner => p.outliner = true,
                Panel::Inspector => p.inspector = true,
                Panel::Console => p.console = true,
                Panel::Graph => p.graph = true,
            }
        }
    }

    /// Selects a take (`None`: live parameters), reporting a failure in the console.
    pub fn select_take(&mut self, take: Option<usize>) {
        if let Err(e) = self.session.select(take) {
            self.console.push(Level::Error, e.headline());
        }
        self.window.recording = false;
        self.window.record = None;
        self.say_pass_notes();
    }

    /// Plays takes after their bake passes or the raw graph (the take bar's "Passes").
    pub fn set_passes(&mut self, on: bool) {
        if let Err(e) = self.session.set_passes(on) {
            self.console.push(Level::Error, e.headline());
        }
        if !on {
            self.console
                .push(Level::Info, "passes off: the take plays the raw graph");
        }
        self.say_pass_notes();
    }

    /// What the selected take's bake passes did, one console line each.
    fn say_pass_notes(&mut self) {
        for note in self.session.pass_notes() {
            self.console.push(Level::Info, format!("passes: {note}"));
        }
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
        let passes = self.session.passes_on();
        self.bake.open(&script, &self.rig, takes, edited, passes);
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
