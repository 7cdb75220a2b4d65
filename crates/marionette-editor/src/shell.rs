//! The window: raw winit 0.30 (`ApplicationHandler`) + `egui_winit::State` (input) +
//! `egui_wgpu::Renderer` (drawing) on our own [`GpuContext`] — no eframe, so the device, the
//! surface and the frame loop stay ours (the viewport renders with the same device the UI
//! draws with, and `--screenshot` can read back the exact frame). A window resized to 0x0 (or
//! minimised) skips frames; an outdated or lost surface is reconfigured and the frame retried; a
//! lost GPU device is recreated with the editor's state (take, playhead, edits, camera) kept.
//! Closing with unsaved take edits asks first. `MARIONETTE_LOSE_DEVICE_AT=N` destroys the
//! device at frame N (fault injection for the device-loss test).

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::mutex::RwLock;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use super::app::{Editor, EditorOptions};
use super::screenshot;
use super::stats::FrameStats;
use marionette_render::{GpuContext, SurfaceTarget};

/// How the window runs.
pub struct ShellOptions {
    /// What to open.
    pub editor: EditorOptions,
    /// Window size in physical pixels.
    pub size: [u32; 2],
    /// Save the whole window after `frames` frames to this PNG and exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    pub frames: u32,
}

/// What a finished run reports.
pub struct ShellOutcome {
    /// The frame time split.
    pub stats: FrameStats,
    /// The adapter used.
    pub adapter: String,
}

/// Creates the event loop; fails (with winit's reason) when no display is reachable.
pub fn event_loop() -> Result<EventLoop<()>, String> {
    let no_display =
        std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none();
    if no_display {
        return Err("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)".into());
    }
    EventLoop::new().map_err(|e| format!("cannot open the display: {e}"))
}

/// Environment variable: destroy the GPU device at this frame (tests recovery).
pub const LOSE_DEVICE_ENV: &str = "MARIONETTE_LOSE_DEVICE_AT";

struct Running {
    lost: Arc<AtomicBool>,
    window: Arc<Window>,
    gpu: Rc<GpuContext>,
    surface: SurfaceTarget,
    state: egui_winit::State,
    renderer: Arc<RwLock<egui_wgpu::Renderer>>,
    editor: Editor,
}

struct App {
    opts: ShellOptions,
    running: Option<Running>,
    error: Option<String>,
    frames: u32,
    first_frame: Option<Instant>,
    next_repaint: Option<Instant>,
    outcome: Option<ShellOutcome>,
}

/// Opens the editor window on `event_loop` and runs until it closes (or the screenshot is
/// written).
pub fn run(event_loop: EventLoop<()>, opts: ShellOptions) -> Result<ShellOutcome, String> {
    let mut app = App {
        opts,
        running: None,
        error: None,
        frames: 0,
        first_frame: None,
        next_repaint: None,
        outcome: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop: {e}"))?;
    if let Some(e) = app.error {
        return Err(e);
    }
    app.outcome
        .ok_or_else(|| "the window closed before it was shown".to_string())
}

impl App {
    fn start(&mut self, el: &ActiveEventLoop) -> Result<Running, String> {
        let [w, h] = self.opts.size;
        let attrs = Window::default_attributes()
            .with_title(format!(
                "Marionette — {}",
                self.opts.editor.script.display()
            ))
            .with_inner_size(winit::dpi::PhysicalSize::new(w, h));
        let window = Arc::new(
            el.create_window(attrs)
                .map_err(|e| format!("window: {e}"))?,
        );
        self.init(el, window)
    }

    /// The GPU, surface, egui state and editor for `window`.
    fn init(&mut self, el: &ActiveEventLoop, window: Arc<Window>) -> Result<Running, String> {
        let desc = wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            el.owned_display_handle(),
        ));
        let instance = wgpu::Instance::new(desc);
        let size = window.inner_size();
        let (gpu, mut surface) =
            GpuContext::with_surface(instance, window.clone(), size.width, size.height)
                .map_err(|e| e.to_string())?;
        // egui blends in gamma space: prefer a non-sRGB swap chain format.
        let caps = surface.surface.get_capabilities(&gpu.adapter);
        if let Some(f) = caps.formats.iter().find(|f| !f.is_srgb()) {
            surface.config.format = *f;
            surface.surface.configure(&gpu.device, &surface.config);
        }
        let renderer = Arc::new(RwLock::new(egui_wgpu::Renderer::new(
            &gpu.device,
            surface.config.format,
            egui_wgpu::RendererOptions::default(),
        )));
        let ctx = egui::Context::default();
        let max_side = gpu.device.limits().max_texture_dimension_2d as usize;
        let state = egui_winit::State::new(
            ctx,
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(max_side),
        );
        let lost = Arc::new(AtomicBool::new(false));
        let flag = lost.clone();
        gpu.device.set_device_lost_callback(move |reason, msg| {
            eprintln!("marionette: GPU device lost ({reason:?}): {msg}");
            flag.store(true, Ordering::SeqCst);
        });
        let gpu = Rc::new(gpu);
        let editor = Editor::new(gpu.clone(), renderer.clone(), &self.opts.editor)
            .map_err(|e| e.to_string())?;
        Ok(Running {
            lost,
            window,
            gpu,
            surface,
            state,
            renderer,
            editor,
        })
    }

    /// Rebuilds everything GPU-side after a device loss, keeping the editor's state.
    fn recover(&mut self, el: &ActiveEventLoop) {
        let Some(old) = self.running.take() else {
            return;
        };
        let state = old.editor.sidecar_state();
        let saved = old.editor.file.saved.clone();
        let stats = old.editor.stats.clone();
        let window = old.window.clone();
        drop(old);
        match self.init(el, window) {
            Ok(mut r) => {
                r.editor.apply_state(&state);
                r.editor.file.saved = saved;
                r.editor.stats = stats;
                r.editor.console.push(
                    super::console::Level::Warn,
                    "the GPU device was lost; it was recreated and the session kept",
                );
                r.window.request_redraw();
                self.running = Some(r);
            }
            Err(e) => {
                self.error = Some(format!(
                    "the GPU device was lost and could not be recreated: {e}"
                ));
                el.exit();
            }
        }
    }

    fn frame(&mut self, el: &ActiveEventLoop) {
        let inject = std::env::var(LOSE_DEVICE_ENV)
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
            .is_some_and(|n| n == self.frames);
        if let Some(r) = self.running.as_ref() {
            if inject {
                r.gpu.device.destroy();
                let _ = r.gpu.device.poll(wgpu::PollType::Poll);
                r.lost.store(true, Ordering::SeqCst);
            }
            if r.lost.load(Ordering::SeqCst) {
                self.recover(el);
            }
        }
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let size = r.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return;
        }
        let start = Instant::now();
        self.first_frame.get_or_insert(start);
        let raw = r.state.take_egui_input(&r.window);
        let ctx = r.state.egui_ctx().clone();
        let editor = &mut r.editor;
        let mut output = ctx.run_ui(raw, |ui| editor.ui(ui));
        let platform = std::mem::take(&mut output.platform_output);
        r.state.handle_platform_output(&r.window, platform);
        let delay = output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map_or(Duration::MAX, |v| v.repaint_delay);
        let present = Instant::now();
        let px = [r.surface.config.width, r.surface.config.height];
        let frame = screenshot::begin(&r.gpu, &r.renderer, &ctx, output, px);
        let shot_now = self.opts.screenshot.is_some() && self.frames + 1 >= self.opts.frames;
        match r.surface.acquire(&r.gpu) {
            Some(texture) => {
                let view = texture
                    .texture
                    .create_view(&wgpu::TextureViewDescriptor::default());
                screenshot::draw(&r.gpu, &r.renderer, &frame, &view);
                r.window.pre_present_notify();
                r.gpu.queue.present(texture);
            }
            None => r.window.request_redraw(),
        }
        if shot_now {
            let result = screenshot::capture(&r.gpu, &r.renderer, &frame, r.surface.config.format);
            let saved = result.map_err(|e| e.to_string()).and_then(|img| {
                let path = self.opts.screenshot.as_deref();
                match path {
                    Some(p) => marionette_render::save_image(&img, p).map_err(|e| e.to_string()),
                    None => Ok(()),
                }
            });
            if let Err(e) = saved {
                self.error = Some(e);
            }
        }
        screenshot::end(&r.renderer, frame);
        r.editor.stats.present += present.elapsed();
        for e in r.gpu.take_errors() {
            r.editor.console.push(super::console::Level::Error, e);
        }
        self.frames += 1;
        if shot_now || r.editor.window.quit {
            self.finish(el);
            return;
        }
        if self.opts.screenshot.is_some() || delay.is_zero() {
            r.window.request_redraw();
        } else if delay != Duration::MAX {
            self.next_repaint = Some(Instant::now() + delay);
        }
    }

    fn finish(&mut self, el: &ActiveEventLoop) {
        if let Some(r) = self.running.as_mut() {
            let mut stats = r.editor.stats.clone();
            stats.wall = self.first_frame.map_or(Duration::ZERO, |t| t.elapsed());
            self.outcome = Some(ShellOutcome {
                stats,
                adapter: r.gpu.info.name.clone(),
            });
        }
        el.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match self.start(el) {
            Ok(r) => {
                r.window.request_redraw();
                self.running = Some(r);
            }
            Err(e) => {
                self.error = Some(e);
                el.exit();
            }
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let response = r.state.on_window_event(&r.window, &event);
        match event {
            WindowEvent::CloseRequested => {
                r.editor.request_close();
                if r.editor.window.quit {
                    self.finish(el);
                } else {
                    r.window.request_redraw();
                }
            }
            WindowEvent::Resized(size) => {
                r.surface.resize(&r.gpu, size.width, size.height);
                r.window.request_redraw();
            }
            WindowEvent::RedrawRequested => self.frame(el),
            _ => {
                if response.repaint {
                    r.window.request_redraw();
                }
            }
        }
    }

    fn about_to_wait(&mut self, el: &ActiveEventLoop) {
        match self.next_repaint {
            Some(t) if Instant::now() >= t => {
                self.next_repaint = None;
                if let Some(r) = &self.running {
                    r.window.request_redraw();
                }
                el.set_control_flow(ControlFlow::Wait);
            }
            Some(t) => el.set_control_flow(ControlFlow::WaitUntil(t)),
            None => el.set_control_flow(ControlFlow::Wait),
        }
    }
}
