//! Orbit camera (orbit / pan / zoom around a target) and auto-framing of bounds.

use glam::{Mat4, Vec3};

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
}

impl Bounds {
    /// An empty box (adding any point makes it that point).
    pub const EMPTY: Bounds = Bounds {
        min: Vec3::splat(f32::INFINITY),
        max: Vec3::splat(f32::NEG_INFINITY),
    };

    /// Grows the box to contain `p` (non-finite points are ignored).
    pub fn add(&mut self, p: Vec3) {
        if p.is_finite() {
            self.min = self.min.min(p);
            self.max = self.max.max(p);
        }
    }

    /// True when no point was added.
    pub fn is_empty(&self) -> bool {
        self.min.x > self.max.x
    }

    /// Centre of the box.
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Radius of the bounding sphere around [`Self::center`].
    pub fn radius(&self) -> f32 {
        (self.max - self.min).length() * 0.5
    }
}

/// A perspective camera orbiting a target point, Y up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// Point looked at.
    pub target: Vec3,
    /// Rotation around +Y in radians; 0 looks from +Z towards -Z.
    pub yaw: f32,
    /// Elevation in radians (positive looks down from above), clamped to +-89 degrees.
    pub pitch: f32,
    /// Distance from the target.
    pub distance: f32,
    /// Vertical field of view in radians.
    pub fov_y: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: Vec3::new(0.0, 1.0, 0.0),
            yaw: 0.5,
            pitch: 0.25,
            distance: 4.0,
            fov_y: 40f32.to_radians(),
        }
    }
}

const PITCH_LIMIT: f32 = 89.0 * std::f32::consts::PI / 180.0;

impl OrbitCamera {
    /// Camera position.
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + self.distance * Vec3::new(sy * cp, sp, cy * cp)
    }

    /// World to view matrix.
    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    /// Near and far planes scaled to the distance, so small and huge models both work.
    fn planes(&self) -> (f32, f32) {
        let d = self.distance.max(1e-4);
        (d * 0.01, d * 100.0)
    }

    /// View-projection matrix for an aspect ratio (width / height), wgpu depth range 0..1.
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        let (near, far) = self.planes();
        glam::camera::rh::proj::directx::perspective(self.fov_y, aspect.max(1e-4), near, far)
            * self.view()
    }

    /// Rotates around the target by `dyaw` and `dpitch` radians.
    pub fn orbit(&mut self, dyaw: f32, dpitch: f32) {
        self.yaw += dyaw;
        self.pitch = (self.pitch + dpitch).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Moves target and eye in the view plane by fractions of the distance (right, up).
    pub fn pan(&mut self, right: f32, up: f32) {
        let view = self.view();
        let r = view.row(0).truncate();
        let u = view.row(1).truncate();
        self.target += (r * right + u * up) * self.distance;
    }

    /// Multiplies the distance by `factor` (< 1 zooms in).
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).clamp(1e-3, 1e6);
        }
    }

    /// Looks at the centre of `bounds` from a distance where its bounding sphere fits the view
    /// for `aspect`, keeping yaw and pitch. Empty bounds leave the camera unchanged.
    pub fn frame(&mut self, bounds: &Bounds, aspect: f32) {
        if bounds.is_empty() {
            return;
        }
        let radius = bounds.radius().max(1e-3);
        let half_v = self.fov_y * 0.5;
        let half_h = (half_v.tan() * aspect.max(1e-4)).atan();
        let half = half_v.min(half_h);
        self.target = bounds.center();
        self.distance = radius / half.sin() * 1.05;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Yaw 0 and pitch 0 put the eye on +Z at the given distance.
    #[test]
    fn eye_position() {
        let c = OrbitCamera {
            target: Vec3::new(0.0, 1.0, 0.0),
            yaw: 0.0,
            pitch: 0.0,
            distance: 3.0,
            fov_y: 1.0,
        };
        assert!(c.eye().abs_diff_eq(Vec3::new(0.0, 1.0, 3.0), 1e-6));
        let mut c2 = c;
        c2.orbit(std::f32::consts::FRAC_PI_2, 0.0);
        assert!(c2.eye().abs_diff_eq(Vec3::new(3.0, 1.0, 0.0), 1e-5));
        c2.orbit(0.0, 10.0);
        assert!((c2.pitch - PITCH_LIMIT).abs() < 1e-6);
    }

    /// Panning right from yaw 0 moves the target along +X; zoom scales the distance.
    #[test]
    fn pan_and_zoom() {
        let mut c = OrbitCamera {
            target: Vec3::ZERO,
            yaw: 0.0,
            pitch: 0.0,
            distance: 2.0,
            fov_y: 1.0,
        };
        c.pan(0.5, 0.0);
        assert!(c.target.abs_diff_eq(Vec3::new(1.0, 0.0, 0.0), 1e-5));
        c.zoom(0.5);
        assert!((c.distance - 1.0).abs() < 1e-6);
        c.zoom(-1.0);
        assert!((c.distance - 1.0).abs() < 1e-6);
    }

    /// After framing, every corner of the box projects inside the viewport.
    #[test]
    fn framing_contains_bounds() {
        let b = Bounds {
            min: Vec3::new(-0.3, 0.0, -0.2),
            max: Vec3::new(0.4, 1.8, 0.25),
        };
        for aspect in [0.5, 1.0, 2.0] {
            let mut c = OrbitCamera::default();
            c.frame(&b, aspect);
            let vp = c.view_proj(aspect);
            for i in 0..8 {
                let p = Vec3::new(
                    if i & 1 == 0 { b.min.x } else { b.max.x },
                    if i & 2 == 0 { b.min.y } else { b.max.y },
                    if i & 4 == 0 { b.min.z } else { b.max.z },
                );
                let clip = vp * p.extend(1.0);
                let ndc = clip.truncate() / clip.w;
                assert!(ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0, "{aspect} {ndc}");
                assert!(ndc.z > 0.0 && ndc.z < 1.0);
            }
        }
    }
}
