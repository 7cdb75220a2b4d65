//! ufbx's numbers (f64) as Marionette's (f32, glam), with the unit override applied to lengths.

use glam::{Mat4, Quat, Vec2, Vec3};

use marionette_anim::Transform;

/// A ufbx vector, `scale`d (a length).
pub(crate) fn vec3(v: ufbx::Vec3, scale: f64) -> Vec3 {
    Vec3::new(
        (v.x * scale) as f32,
        (v.y * scale) as f32,
        (v.z * scale) as f32,
    )
}

/// A ufbx direction (not scaled).
pub(crate) fn dir3(v: ufbx::Vec3) -> Vec3 {
    Vec3::new(v.x as f32, v.y as f32, v.z as f32)
}

/// A ufbx UV.
pub(crate) fn vec2(v: ufbx::Vec2) -> Vec2 {
    Vec2::new(v.x as f32, v.y as f32)
}

/// A ufbx rotation, normalised.
pub(crate) fn quat(q: ufbx::Quat) -> Quat {
    Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32).normalize()
}

/// A ufbx transform, its translation `scale`d.
pub(crate) fn transform(t: &ufbx::Transform, scale: f64) -> Transform {
    Transform::new(vec3(t.translation, scale), quat(t.rotation), dir3(t.scale))
}

/// A ufbx affine matrix, its translation `scale`d.
pub(crate) fn matrix(m: &ufbx::Matrix, scale: f64) -> Mat4 {
    Mat4::from_cols_array(&[
        m.m00 as f32,
        m.m10 as f32,
        m.m20 as f32,
        0.0,
        m.m01 as f32,
        m.m11 as f32,
        m.m21 as f32,
        0.0,
        m.m02 as f32,
        m.m12 as f32,
        m.m22 as f32,
        0.0,
        (m.m03 * scale) as f32,
        (m.m13 * scale) as f32,
        (m.m23 * scale) as f32,
        1.0,
    ])
}
