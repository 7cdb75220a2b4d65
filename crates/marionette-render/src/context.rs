//! GPU device setup: adapter choice (hardware first, any adapter as fallback, or forced by
//! `MARIONETTE_ADAPTER`), headless or with a window surface, and capture of validation errors.

use std::sync::{Arc, Mutex};

use super::RenderError;

/// Environment variable that forces an adapter whose name contains its value (case-insensitive).
pub const ADAPTER_ENV: &str = "MARIONETTE_ADAPTER";

/// A wgpu device and queue plus what the renderer needs to know about them.
pub struct GpuContext {
    /// The wgpu instance (kept for surface creation).
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The logical device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// Adapter name, backend and type, as logged.
    pub info: wgpu::AdapterInfo,
    errors: Arc<Mutex<Vec<String>>>,
}

/// A window surface configured for a [`GpuContext`].
pub struct SurfaceTarget {
    /// The surface.
    pub surface: wgpu::Surface<'static>,
    /// Its current configuration (format, size, present mode).
    pub config: wgpu::SurfaceConfiguration,
}

impl SurfaceTarget {
    /// The next swap-chain texture to draw into; reconfigures and returns `None` when the
    /// surface is outdated or lost (skip this frame), and `None` on timeout or occlusion.
    pub fn acquire(&self, ctx: &GpuContext) -> Option<wgpu::SurfaceTexture> {
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => Some(t),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&ctx.device, &self.config);
                None
            }
            _ => None,
        }
    }

    /// Resizes the swap chain (ignores zero sizes, e.g. a minimised window).
    pub fn resize(&mut self, ctx: &GpuContext, width: u32, height: u32) {
        if width == 0 || height == 0 {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&ctx.device, &self.config);
    }
}

/// Ranks an adapter (lower is better): discrete, integrated, virtual, other, then CPU; within a
/// type, native APIs (Vulkan, Metal, DX12) before GL.
fn adapter_rank(info: &wgpu::AdapterInfo) -> (u32, u32) {
    let kind = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    let api = match info.backend {
        wgpu::Backend::Vulkan | wgpu::Backend::Metal | wgpu::Backend::Dx12 => 0,
        _ => 1,
    };
    (kind, api)
}

/// Picks the adapter index: the first whose name contains `forced` (case-insensitive) when given,
/// otherwise the best-ranked (hardware before software). `None` when nothing matches.
pub fn choose_adapter(infos: &[wgpu::AdapterInfo], forced: Option<&str>) -> Option<usize> {
    if let Some(f) = forced {
        let f = f.to_lowercase();
        return infos
            .iter()
            .position(|i| i.name.to_lowercase().contains(&f));
    }
    (0..infos.len()).min_by_key(|&i| adapter_rank(&infos[i]))
}

impl GpuContext {
    /// Creates a headless context (no window): used by `marionette render`, tests and benches.
    /// wgpu's environment variables apply (e.g. `WGPU_BACKEND=gl`).
    pub fn headless() -> Result<Self, RenderError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::from_instance(instance, None)
    }

    /// Creates a context whose adapter can present to `target` (a window), and configures the
    /// surface at `width` x `height`.
    pub fn with_surface(
        instance: wgpu::Instance,
        target: impl Into<wgpu::SurfaceTarget<'static>>,
        width: u32,
        height: u32,
    ) -> Result<(Self, SurfaceTarget), RenderError> {
        let surface = instance
            .create_surface(target)
            .map_err(|e| RenderError::Surface(e.to_string()))?;
        let ctx = Self::from_instance(instance, Some(&surface))?;
        let config = surface
            .get_default_config(&ctx.adapter, width.max(1), height.max(1))
            .ok_or_else(|| {
                RenderError::Surface(format!("adapter {} cannot present", ctx.info.name))
            })?;
        surface.configure(&ctx.device, &config);
        Ok((ctx, SurfaceTarget { surface, config }))
    }

    fn from_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, RenderError> {
        let forced = std::env::var(ADAPTER_ENV).ok().filter(|s| !s.is_empty());
        let mut adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        if let Some(s) = surface {
            adapters.retain(|a| a.is_surface_supported(s));
        }
        let infos: Vec<wgpu::AdapterInfo> = adapters.iter().map(|a| a.get_info()).collect();
        let index = choose_adapter(&infos, forced.as_deref()).ok_or_else(|| {
            let names: Vec<String> = infos
                .iter()
                .map(|i| format!("{} ({:?})", i.name, i.backend))
                .collect();
            match &forced {
                Some(f) => RenderError::NoAdapter(format!(
                    "{ADAPTER_ENV}={f} matches none of [{}]",
                    names.join(", ")
                )),
                None => RenderError::NoAdapter(
                    "no wgpu adapter found (install mesa-vulkan-drivers for lavapipe)".into(),
                ),
            }
        })?;
        let adapter = adapters.swap_remove(index);
        let info = adapter.get_info();
        eprintln!(
            "marionette: wgpu adapter: {} ({:?}, {:?})",
            info.name, info.backend, info.device_type
        );
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("marionette device"),
            required_features: wgpu::Features::empty(),
            required_limits: required_limits(&adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| RenderError::Device(e.to_string()))?;
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            eprintln!("marionette: wgpu error: {e}");
            if let Ok(mut v) = sink.lock() {
                v.push(e.to_string());
            }
        }));
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            info,
            errors,
        })
    }

    /// Validation and other uncaptured wgpu errors since the last call (drained).
    pub fn take_errors(&self) -> Vec<String> {
        self.errors
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }

    /// The largest of 4 and 1 MSAA sample counts the adapter supports for `format` (and depth).
    pub fn sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        let color = self.adapter.get_texture_format_features(format);
        let depth = self
            .adapter
            .get_texture_format_features(super::DEPTH_FORMAT);
        if color.flags.sample_count_supported(4)
            && color
                .flags
                .contains(wgpu::TextureFormatFeatureFlags::MULTISAMPLE_RESOLVE)
            && depth.flags.sample_count_supported(4)
        {
            4
        } else {
            1
        }
    }

    /// Checks that a `width` x `height` image can be rendered and read back on this device:
    /// each side in `1..=max_texture_dimension_2d` and the read-back buffer (rows padded to
    /// 256 bytes) within `max_buffer_size`. Beyond them wgpu would fail with validation errors.
    pub fn check_image_size(&self, width: u32, height: u32) -> Result<(), RenderError> {
        let limits = self.device.limits();
        let max = limits.max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(RenderError::Size { width, height, max });
        }
        let align = u64::from(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let bytes = (u64::from(width) * 4).div_ceil(align) * align * u64::from(height);
        if bytes > limits.max_buffer_size {
            // the largest square that fits, a multiple of 64 pixels (rows need no padding)
            let side = (((limits.max_buffer_size / 4) as f64).sqrt() as u32 / 64 * 64).min(max);
            return Err(RenderError::ReadbackSize {
                width,
                height,
                mib: bytes.div_ceil(1 << 20),
                max_mib: limits.max_buffer_size >> 20,
                fits: side,
            });
        }
        Ok(())
    }

    /// Blocks until the GPU has finished all submitted work.
    pub fn wait_idle(&self) -> Result<(), RenderError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| RenderError::Device(e.to_string()))
    }
}

/// The limits Marionette asks of a device: wgpu's downlevel defaults at the adapter's
/// resolution, with room for 8 storage buffers per stage where the adapter has it (the capture
/// pass binds 5: palette, vertices, morph deltas, morph table, output; the mesh pipeline's
/// vertex stage 4). Every desktop Vulkan, Metal and D3D12 adapter, and lavapipe, has 8 or more.
fn required_limits(adapter: &wgpu::Limits) -> wgpu::Limits {
    let mut limits = wgpu::Limits::downlevel_defaults().using_resolution(adapter.clone());
    limits.max_storage_buffers_per_shader_stage =
        adapter.max_storage_buffers_per_shader_stage.min(8);
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, t: wgpu::DeviceType) -> wgpu::AdapterInfo {
        let mut i = wgpu::AdapterInfo::new(t, wgpu::Backend::Vulkan);
        i.name = name.into();
        i
    }

    /// Hardware is preferred over a CPU adapter; a forced substring wins regardless of type.
    #[test]
    fn adapter_choice() {
        let infos = [
            info("llvmpipe (LLVM 15)", wgpu::DeviceType::Cpu),
            info("NVIDIA H100", wgpu::DeviceType::DiscreteGpu),
        ];
        assert_eq!(choose_adapter(&infos, None), Some(1));
        let mut gl = info("llvmpipe GL", wgpu::DeviceType::Cpu);
        gl.backend = wgpu::Backend::Gl;
        let cpu_only = [gl, infos[0].clone()];
        assert_eq!(choose_adapter(&cpu_only, None), Some(1), "Vulkan before GL");
        assert_eq!(choose_adapter(&infos, Some("LLVMPIPE")), Some(0));
        assert_eq!(choose_adapter(&infos, Some("radeon")), None);
        assert_eq!(choose_adapter(&[], None), None);
    }
}
