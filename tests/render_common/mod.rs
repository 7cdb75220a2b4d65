//! Helpers shared by the `render_*` integration tests: a GPU context (skip locally, fail under
//! CI when no adapter exists), golden-image comparison with a tolerance, and test models.

#![allow(dead_code)]
#![allow(unused_imports)] // each test binary uses a different subset of these helpers

use std::path::{Path, PathBuf};

use marionette_render::{GpuContext, RenderError};

/// A headless GPU context, or `None` (after printing why) when there is no adapter and `CI` is
/// unset. Under CI a missing adapter fails the test: the renderer must really be exercised.
pub fn gpu() -> Option<GpuContext> {
    match GpuContext::headless() {
        Ok(ctx) => Some(ctx),
        Err(RenderError::NoAdapter(msg)) => marionette_testkit::missing(&format!(
            "no wgpu adapter (install mesa-vulkan-drivers): {msg}"
        )),
        Err(e) => panic!("cannot create a wgpu context: {e}"),
    }
}

pub use marionette_testkit::testdata_file;

/// The bundled mannequin.
pub fn mannequin() -> marionette_anim::Model {
    marionette_anim::mannequin::build()
}

/// Where tests write images for people to look at (`target/render-tests`).
pub fn output_dir() -> PathBuf {
    let dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) => PathBuf::from(t),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
    }
    .join("render-tests");
    std::fs::create_dir_all(&dir).expect("cannot create the render test output directory");
    dir
}

/// Largest per-channel difference allowed before a pixel counts as different.
pub const CHANNEL_TOLERANCE: u8 = 8;
/// Fraction of pixels allowed to differ by more than [`CHANNEL_TOLERANCE`].
pub const PIXEL_FRACTION: f64 = 0.005;

/// Pixels whose largest channel difference exceeds `tolerance`, and a diff image (differing
/// pixels red over a dimmed copy of `expected`).
pub fn diff(
    expected: &image::RgbaImage,
    actual: &image::RgbaImage,
    tolerance: u8,
) -> (usize, image::RgbaImage) {
    assert_eq!(
        expected.dimensions(),
        actual.dimensions(),
        "image sizes differ"
    );
    let mut out = image::RgbaImage::new(expected.width(), expected.height());
    let mut count = 0;
    for ((e, a), o) in expected.pixels().zip(actual.pixels()).zip(out.pixels_mut()) {
        let d =
            e.0.iter()
                .zip(a.0.iter())
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
        if d > tolerance {
            count += 1;
            *o = image::Rgba([255, 0, 0, 255]);
        } else {
            let g = (e.0[0] as u16 + e.0[1] as u16 + e.0[2] as u16) / 9;
            *o = image::Rgba([g as u8, g as u8, g as u8, 255]);
        }
    }
    (count, out)
}

/// Compares `actual` with `tests/golden/render/NAME.png` (channel diff <= 8 on all but 0.5% of
/// pixels). `MARIONETTE_BLESS=1` rewrites the golden. On failure writes `NAME.actual.png` and
/// `NAME.diff.png` next to the golden and panics.
pub fn assert_golden(name: &str, actual: &image::RgbaImage) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/render");
    let golden = dir.join(format!("{name}.png"));
    if std::env::var("MARIONETTE_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(&dir).expect("cannot create golden dir");
        actual.save(&golden).expect("cannot write golden");
        eprintln!("blessed {}", golden.display());
        return;
    }
    let expected = match image::open(&golden) {
        Ok(img) => img.to_rgba8(),
        Err(e) => panic!(
            "cannot read golden {}: {e} (run with MARIONETTE_BLESS=1 to create it)",
            golden.display()
        ),
    };
    let (count, diff_img) = diff(&expected, actual, CHANNEL_TOLERANCE);
    let total = (actual.width() * actual.height()) as usize;
    let allowed = (total as f64 * PIXEL_FRACTION) as usize;
    if count > allowed {
        let a = dir.join(format!("{name}.actual.png"));
        let d = dir.join(format!("{name}.diff.png"));
        actual.save(&a).expect("cannot write actual image");
        diff_img.save(&d).expect("cannot write diff image");
        panic!(
            "{name}: {count} of {total} pixels differ by more than {CHANNEL_TOLERANCE} (allowed {allowed}); \
             see {} and {}",
            a.display(),
            d.display()
        );
    }
}

/// Pixels that differ from the background colour (a coverage measure).
pub fn foreground_pixels(img: &image::RgbaImage) -> usize {
    let bg = img.get_pixel(0, 0).0;
    img.pixels()
        .filter(|p| p.0.iter().zip(bg.iter()).any(|(a, b)| a.abs_diff(*b) > 12))
        .count()
}
