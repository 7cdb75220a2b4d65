//! What a headless render is asked: a [`RenderRequest`] (a single frame or a contact sheet) and
//! the times of a sheet. [`super::source`] renders one ([`render_source`](super::render_source),
//! [`render_model`](super::render_model)).

use super::scene::ViewOptions;

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderRequest {
    /// Image width in pixels (the whole sheet for contact sheets).
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Clip index (`None` = rest pose).
    pub clip: Option<usize>,
    /// Time in the clip, seconds (ignored for sheets).
    pub time: f32,
    /// Debug views.
    pub view: ViewOptions,
    /// Contact sheet: columns x rows of frames spread evenly over the clip (or the pose
    /// source's range).
    pub sheet: Option<(u32, u32)>,
}

impl Default for RenderRequest {
    fn default() -> Self {
        Self {
            width: 256,
            height: 256,
            clip: None,
            time: 0.0,
            view: ViewOptions::default(),
            sheet: None,
        }
    }
}

/// Times of a `count`-frame contact sheet: evenly spaced from `start` to `end` (both
/// included).
pub fn sheet_times(start: f32, end: f32, count: u32) -> Vec<f32> {
    match count {
        0 => Vec::new(),
        1 => vec![start],
        n => (0..n)
            .map(|i| start + (end - start) * i as f32 / (n - 1) as f32)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sheet times include both ends and are evenly spaced.
    #[test]
    fn sheet_times_even() {
        assert_eq!(sheet_times(0.0, 1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(sheet_times(2.0, 3.0, 1), vec![2.0]);
        assert!(sheet_times(0.0, 1.0, 0).is_empty());
    }
}
