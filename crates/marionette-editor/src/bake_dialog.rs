//! The bake dialog: which takes, fps (the take's own or a fixed rate), tolerance, output path,
//! animation-only and overwrite; a progress bar and a Cancel button while it runs (a cancelled
//! bake writes nothing); the result in the console.
//! It calls [`marionette_bake::run`] — the code `marionette bake` runs — on a worker thread, so the
//! same settings write the same bytes. Takes edited or recorded in the editor (kept in the
//! sidecar, not in the script) are baked as they are in the editor, through
//! [`BakeJob::takes`]; the others as the script defines them.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};

use egui::ProgressBar;

use super::action::Action;
use marionette_anim::graph::Take;
use marionette_anim::time;
use marionette_bake::{
    run, BakeError, BakeJob, BakeProgress, BakeSource, Cancel, Curves, Selection,
};

/// A message from the bake thread.
enum Msg {
    Progress(f32, String),
    Done(Result<String, String>),
}

/// The dialog's settings and the bake in flight.
#[derive(Default)]
pub struct BakeDialog {
    /// The dialog is shown.
    pub open: bool,
    /// The editor's takes (the script's, edited or recorded) and whether each is baked.
    pub takes: Vec<(String, bool)>,
    /// The takes that differ from the script (edited or recorded in the editor).
    pub edited: Vec<Take>,
    /// Key profile (linear plays the same everywhere, Blender included).
    pub curves: Curves,
    /// Every key a float (`--quantize off`); unset, rotations are 16-bit where the budget
    /// allows.
    pub float_keys: bool,
    /// Use a fixed rate instead of each take's own.
    pub fixed_fps: bool,
    /// The fixed rate.
    pub fps: f32,
    /// Key reduction budget, millimetres.
    pub tolerance_mm: f32,
    /// Output `.glb` / `.gltf`.
    pub output: String,
    /// Skeleton and animations only.
    pub animation_only: bool,
    /// Replace an existing output.
    pub force: bool,
    /// Bake the takes after their bake passes (opens as the take bar's "Passes" is).
    pub passes: bool,
    rig: marionette_script::rigs::RigChoice,
    script: PathBuf,
    running: Option<Receiver<Msg>>,
    cancel: Option<Cancel>,
    progress: f32,
    status: String,
}

impl BakeDialog {
    /// Opens the dialog with the CLI's defaults for `script` (every take, each at its own
    /// rate, 0.1 mm, `<stem>.glb` next to the script).
    pub fn open(
        &mut self,
        script: &Path,
        rig: &marionette_script::rigs::RigChoice,
        takes: Vec<String>,
        edited: Vec<Take>,
        passes: bool,
    ) {
        self.passes = passes;
        let stem = script
            .file_stem()
            .map_or_else(|| "bake".into(), |s| s.to_string_lossy().into_owned());
        if self.script != script || self.output.is_empty() {
            self.output = script
                .with_file_name(format!("{stem}.glb"))
                .display()
                .to_string();
            self.fps = 30.0;
            self.tolerance_mm = 0.1;
        }
        self.takes = takes.into_iter().map(|t| (t, true)).collect();
        self.edited = edited;
        self.script = script.to_path_buf();
        self.rig = rig.clone();
        self.open = true;
    }

    /// True while a bake runs.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The job the current settings describe.
    pub fn job(&self) -> BakeJob {
        let mut job = BakeJob::new(
            BakeSource::Script {
                script: self.script.clone(),
                rig: self.rig.clone(),
            },
            PathBuf::from(&self.output),
        );
        let chosen: Vec<String> = self
            .takes
            .iter()
            .filter(|(_, on)| *on)
            .map(|(t, _)| t.clone())
            .collect();
        if chosen.len() != self.takes.len() {
            job.selection = Selection::Named(chosen);
        }
        job.fps = self.fixed_fps.then_some(self.fps);
        job.tolerance_mm = self.tolerance_mm;
        job.animation_only = self.animation_only;
        job.force = self.force;
        job.curves = self.curves;
        job.quantize = !self.float_keys;
        job.takes = self.edited.clone();
        job.passes = self.passes;
        job
    }

    /// Asks the running bake to stop at its next frame; it then writes nothing.
    pub fn cancel(&mut self) {
        if let Some(c) = &self.cancel {
            c.cancel();
            self.status = "cancelling".into();
        }
    }

    /// Starts the bake on a worker thread.
    pub fn start(&mut self) {
        let job = self.job();
        self.cancel = Some(job.cancel.clone());
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut progress = |p: BakeProgress<'_>| {
                let msg = match p {
                    BakeProgress::Loading => Msg::Progress(0.0, "loading".into()),
                    BakeProgress::Sampling {
                        take,
                        index,
                        count,
                        done,
                        total,
                    } => {
                        let f = (index as f32 + done as f32 / total.max(1) as f32)
                            / count.max(1) as f32;
                        Msg::Progress(f * 0.9, format!("sampling {take} {done}/{total}"))
                    }
                    BakeProgress::Reducing { take, index, count } => Msg::Progress(
                        (index as f32 + 1.0) / count.max(1) as f32 * 0.9,
                        format!("reducing {take}"),
                    ),
                    BakeProgress::Writing => Msg::Progress(0.95, "writing".into()),
                };
                let _ = tx.send(msg);
            };
            let result = run(&job, &mut progress)
                .map(|report| {
                    let mut lines: Vec<String> = report
                        .takes
                        .iter()
                        .map(|t| format!("baked {} -> {}", t.name, t.output.display()))
                        .collect();
                    lines.extend(
                        report
                            .files
                            .iter()
                            .map(|f| format!("wrote {} ({} bytes)", f.path.display(), f.bytes)),
                    );
                    lines.extend(report.notes);
                    lines.join("\n")
                })
                .map_err(|e| match e {
                    BakeError::Exists { path } => {
                        format!("'{path}' exists; tick Overwrite to replace it")
                    }
                    e => e.to_string(),
                });
            let _ = tx.send(Msg::Done(result));
        });
        self.running = Some(rx);
        self.progress = 0.0;
        self.status = "starting".into();
    }

    /// Shows `status` under the progress bar.
    pub fn set_status(&mut self, status: &str) {
        self.status = status.to_string();
    }

    /// Drains the worker's messages; returns the outcome when the bake finished.
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        let rx = self.running.as_ref()?;
        let mut done = None;
        while let Ok(msg) = rx.try_recv() {
            match msg {
                Msg::Progress(f, s) => {
                    self.progress = f;
                    self.status = s;
                }
                Msg::Done(r) => done = Some(r),
            }
        }
        if done.is_some() {
            self.running = None;
            self.cancel = None;
            self.progress = 1.0;
        }
        done
    }
}

/// Draws the dialog over its settings (edited in place: they are the dialog's form); Bake now
/// and Cancel are actions (the editor follows the running bake, see `frame`).
pub fn ui(ctx: &egui::Context, d: &mut BakeDialog) -> Vec<Action> {
    let mut out = Vec::new();
    let mut open = d.open;
    egui::Window::new("Bake")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label("Takes");
            for (name, on) in &mut d.takes {
                let label = if d.edited.iter().any(|t| &t.name == name) {
                    format!("{name} (as edited)")
                } else {
                    name.clone()
                };
                ui.checkbox(on, label);
            }
            ui.horizontal(|ui| {
                ui.checkbox(&mut d.fixed_fps, "Fixed fps");
                ui.add_enabled(
                    d.fixed_fps,
                    egui::DragValue::new(&mut d.fps)
                        .range(time::FPS_RANGE)
                        .suffix(" fps"),
                );
            });
            ui.horizontal(|ui| {
                let id = ui.label("Tolerance").id;
                ui.add(
                    egui::DragValue::new(&mut d.tolerance_mm)
                        .range(0.001..=100.0)
                        .speed(0.01)
                        .suffix(" mm"),
                )
                .labelled_by(id);
            });
            ui.horizontal(|ui| {
                let id = ui.label("Output").id;
                ui.add(egui::TextEdit::singleline(&mut d.output).desired_width(320.0))
                    .labelled_by(id);
            });
            ui.horizontal(|ui| {
                ui.label("Keys");
                ui.radio_value(&mut d.curves, Curves::Linear, "linear")
                    .on_hover_text("LINEAR keys: play the same in Blender, three.js and engines");
                ui.radio_value(&mut d.curves, Curves::Cubic, "cubic")
                    .on_hover_text("CUBICSPLINE: fewer keys, for clients that honour tangents");
            });
            ui.checkbox(&mut d.float_keys, "Float keys").on_hover_text(
                "every key a float (--quantize off); unset, rotations are 16-bit integers where \
                 the budget allows: smaller files, the same budget",
            );
            ui.checkbox(&mut d.animation_only, "Animation only");
            ui.checkbox(&mut d.force, "Overwrite");
            ui.checkbox(&mut d.passes, "Bake passes").on_hover_text(
                "run the takes' passes = { ... } before baking, as the take bar's Passes shows them",
            );
            ui.separator();
            let running = d.is_running();
            let any = d.takes.iter().any(|(_, on)| *on);
            if ui
                .add_enabled(!running && any, egui::Button::new("Bake now"))
                .clicked()
            {
                out.push(Action::StartBake);
            }
            if running && ui.button("Cancel").clicked() {
                out.push(Action::CancelBake);
            }
            if running || d.progress > 0.0 {
                ui.add(ProgressBar::new(d.progress).text(d.status.clone()));
            }
        });
    d.open = open;
    out
}
