//! The editor driven headlessly with egui_kittest on lavapipe: the same `Editor::ui` the window
//! runs, found by AccessKit labels. Playback, scrubbing, takes, parameters, key edits with
//! undo/redo, hot reload, script and runtime errors and the sidecar; the pose shown is compared
//! with `run`'s evaluation.

mod bake;
mod contacts;
mod dense_lane;
mod dialogs;
mod errors;
mod graph_view;
mod passes;
mod playback;
mod record_pick;
mod reload;
mod rigging;
mod sidecar;
mod truth;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use egui_kittest::Harness;
use marionette::editor::{Editor, EditorOptions, Msaa};
use marionette::render::GpuContext;

/// The project's own files.
pub fn project(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Editor options for `script` on the bundled mannequin (no MSAA, no sidecar unless asked).
pub fn options(script: &Path, sidecar: bool) -> EditorOptions {
    EditorOptions {
        script: script.to_path_buf(),
        rig: marionette::rigs::RigChoice::fallback(project("assets/mannequin.glb")),
        take: None,
        time: None,
        play: false,
        msaa: Msaa::Off,
        sidecar,
        save_sidecar: sidecar,
        select: None,
        panels: Vec::new(),
    }
}

/// The error opening the editor with `opts` (which must fail).
pub fn open_error(opts: &EditorOptions) -> String {
    let gpu =
        Rc::new(GpuContext::headless().expect("a wgpu adapter (install mesa-vulkan-drivers)"));
    let setup = egui_wgpu::WgpuSetup::Existing(egui_wgpu::WgpuSetupExisting {
        instance: gpu.instance.clone(),
        adapter: gpu.adapter.clone(),
        device: gpu.device.clone(),
        queue: gpu.queue.clone(),
    });
    let rs =
        egui_kittest::wgpu::create_render_state(setup, egui_wgpu::RendererOptions::PREDICTABLE);
    match Editor::new(gpu, rs.renderer.clone(), opts) {
        Ok(_) => panic!("the editor should not open"),
        Err(e) => e.to_string(),
    }
}

/// A harness running the editor at 1280x720, 30 steps per second, rendering with wgpu on the
/// editor's own device (lavapipe without a GPU).
pub fn harness(opts: &EditorOptions) -> Harness<'static, Editor> {
    let gpu =
        Rc::new(GpuContext::headless().expect("a wgpu adapter (install mesa-vulkan-drivers)"));
    let setup = egui_wgpu::WgpuSetup::Existing(egui_wgpu::WgpuSetupExisting {
        instance: gpu.instance.clone(),
        adapter: gpu.adapter.clone(),
        device: gpu.device.clone(),
        queue: gpu.queue.clone(),
    });
    let rs =
        egui_kittest::wgpu::create_render_state(setup, egui_wgpu::RendererOptions::PREDICTABLE);
    let editor = Editor::new(gpu, rs.renderer.clone(), opts).expect("the editor opens");
    Harness::builder()
        .with_size([1280.0, 720.0])
        .with_step_dt(1.0 / 30.0)
        .renderer(egui_kittest::wgpu::WgpuTestRenderer::from_render_state(rs))
        .build_ui_state(|ui, ed: &mut Editor| ed.ui(ui), editor)
}

/// A temporary folder holding a copy of scripts/locomotion.lua; removed on drop.
pub struct TempScript {
    /// The folder.
    pub dir: PathBuf,
    /// The script copy.
    pub script: PathBuf,
}

impl TempScript {
    /// Copies the locomotion script into a fresh folder named after `name`.
    pub fn new(name: &str) -> TempScript {
        let dir =
            std::env::temp_dir().join(format!("marionette-editor-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let script = dir.join("locomotion.lua");
        std::fs::copy(project("scripts/locomotion.lua"), &script).expect("copy the script");
        TempScript { dir, script }
    }
}

impl Drop for TempScript {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
