//! The mannequin's skin: tapered elliptical tubes with ellipsoid caps, one per body part, with
//! weights blended across each joint over a short falloff.

use std::f32::consts::{FRAC_PI_2, TAU};

use glam::{Vec2, Vec3};

use super::rig::{j, Landmarks as L};
use crate::SkinnedMesh;

/// Segments around each ring.
const SIDES: usize = 16;
/// Approximate ring spacing along a tube, metres.
const RING_SPACING: f32 = 0.025;
/// Rings in each end cap (plus the pole vertex).
const CAP_RINGS: usize = 5;

/// One control point of a tube: centre, radii along the tube's side axis and the other axis,
/// and the joint that drives the segment starting here.
#[derive(Clone, Copy)]
pub(super) struct Pt {
    c: Vec3,
    ra: f32,
    rb: f32,
    bone: usize,
}

pub(super) fn pt(c: Vec3, ra: f32, rb: f32, bone: usize) -> Pt {
    Pt { c, ra, rb, bone }
}

/// A body part: control points, the reference direction of radius `ra`, cap lengths and the
/// weight falloff (half-width of the blend across each interior point).
pub(super) struct Tube {
    pub pts: Vec<Pt>,
    pub side: Vec3,
    pub caps: (f32, f32),
    pub falloff: f32,
}

/// One ring of vertices: centre, axes, radii, ellipsoid parameters and skin weights.
#[derive(Clone, Copy)]
struct Ring {
    c: Vec3,
    t: Vec3,
    a: Vec3,
    b: Vec3,
    ra: f32,
    rb: f32,
    /// Cap angle (0 on the tube body, towards `±pi/2` at the poles) and cap length.
    psi: f32,
    rc: f32,
    v: f32,
    joints: [u16; 4],
    weights: [f32; 4],
}

fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

impl Tube {
    /// Skin weights at arc length `s` (two joints at most).
    fn weights(&self, s: f32, cum: &[f32]) -> ([u16; 4], [f32; 4]) {
        let seg = (0..self.pts.len() - 1)
            .rev()
            .find(|&i| s >= cum[i])
            .unwrap_or(0);
        let mut a = self.pts[seg].bone;
        let mut b = a;
        let mut w = 0.0;
        // Blend into the next segment's joint, or from the previous one.
        if seg + 2 < self.pts.len() && cum[seg + 1] - s < self.falloff {
            b = self.pts[seg + 1].bone;
            w = smoothstep((s - cum[seg + 1] + self.falloff) / (2.0 * self.falloff));
        } else if seg > 0 && s - cum[seg] < self.falloff {
            a = self.pts[seg - 1].bone;
            b = self.pts[seg].bone;
            w = smoothstep((s - cum[seg] + self.falloff) / (2.0 * self.falloff));
        }
        if a == b || w <= 0.0 {
            return ([b.min(a) as u16, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        }
        if w >= 1.0 {
            return ([b as u16, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        }
        ([a as u16, b as u16, 0, 0], [1.0 - w, w, 0.0, 0.0])
    }

    fn rings(&self) -> Vec<Ring> {
        let n = self.pts.len();
        let mut cum = vec![0.0];
        for i in 1..n {
            cum.push(cum[i - 1] + (self.pts[i].c - self.pts[i - 1].c).length());
        }
        let total = cum[n - 1];
        let axes = |t: Vec3| {
            let a = (self.side - t * self.side.dot(t)).normalize();
            (a, t.cross(a))
        };
        let mut body = Vec::new();
        for i in 0..n - 1 {
            let (p, q) = (self.pts[i], self.pts[i + 1]);
            let t = (q.c - p.c).normalize();
            let steps = (((q.c - p.c).length() / RING_SPACING).ceil() as usize).max(1);
            let last = if i == n - 2 { steps + 1 } else { steps };
            for k in 0..last {
                let f = k as f32 / steps as f32;
                let s = cum[i] + f * (cum[i + 1] - cum[i]);
                let tt = if k == 0 && i > 0 {
                    (t + (p.c - self.pts[i - 1].c).normalize()).normalize()
                } else {
                    t
                };
                let (a, b) = axes(tt);
                let (joints, weights) = self.weights(s, &cum);
                body.push(Ring {
                    c: p.c.lerp(q.c, f),
                    t: tt,
                    a,
                    b,
                    ra: p.ra + (q.ra - p.ra) * f,
                    rb: p.rb + (q.rb - p.rb) * f,
                    psi: 0.0,
                    rc: 1.0,
                    v: s / total,
                    joints,
                    weights,
                });
            }
        }
        let mut out = Vec::new();
        let first = &body[0];
        for k in (1..=CAP_RINGS).rev() {
            out.push(cap_ring(
                first,
                -(k as f32) * FRAC_PI_2 / CAP_RINGS as f32,
                self.caps.0,
            ));
        }
        let last_index = body.len() - 1;
        let end_caps: Vec<Ring> = (1..=CAP_RINGS)
            .map(|k| {
                cap_ring(
                    &body[last_index],
                    k as f32 * FRAC_PI_2 / CAP_RINGS as f32,
                    self.caps.1,
                )
            })
            .collect();
        out.extend(body);
        out.extend(end_caps);
        out
    }
}

fn cap_ring(r: &Ring, psi: f32, rc: f32) -> Ring {
    Ring {
        psi,
        rc,
        v: if psi < 0.0 { 0.0 } else { 1.0 },
        ..*r
    }
}

/// Appends a tube's vertices and triangles to `mesh`.
pub(super) fn emit(mesh: &mut SkinnedMesh, tube: &Tube) {
    let rings = tube.rings();
    let base = mesh.positions.len() as u32;
    let row = (SIDES + 1) as u32;
    for r in &rings {
        for k in 0..=SIDES {
            let th = k as f32 / SIDES as f32 * TAU;
            let (s, c) = th.sin_cos();
            let (sp, cp) = r.psi.sin_cos();
            let radial = c * r.ra * r.a + s * r.rb * r.b;
            let p = r.c + cp * radial + sp * r.rc * r.t;
            // Pole rings collapse to a point; keep them as tiny rings so every triangle has area.
            let grad = cp.max(1e-3) * (c / r.ra * r.a + s / r.rb * r.b) + sp / r.rc * r.t;
            mesh.positions.push(p);
            mesh.normals.push(grad.normalize());
            let v = if r.psi == 0.0 {
                r.v
            } else {
                r.v + r.psi / TAU * 0.1
            };
            mesh.uvs
                .push(Vec2::new(k as f32 / SIDES as f32, v.clamp(0.0, 1.0)));
            mesh.joints.push(r.joints);
            mesh.weights.push(r.weights);
        }
    }
    for i in 0..rings.len() as u32 - 1 {
        for k in 0..SIDES as u32 {
            let (a, b) = (base + i * row + k, base + (i + 1) * row + k);
            mesh.indices
                .extend_from_slice(&[a, a + 1, b, a + 1, b + 1, b]);
        }
    }
}

fn tubes() -> Vec<Tube> {
    let y = |v: f32| Vec3::new(0.0, v, 0.0);
    let mut t = vec![
        Tube {
            pts: vec![
                pt(y(0.87), 0.15, 0.105, j::PELVIS),
                pt(y(1.0), 0.165, 0.115, j::PELVIS),
                pt(Vec3::new(0.0, 1.1, -0.01), 0.145, 0.105, j::SPINE_01),
                pt(Vec3::new(0.0, 1.23, -0.015), 0.15, 0.105, j::SPINE_02),
                pt(Vec3::new(0.0, 1.36, -0.01), 0.175, 0.115, j::CHEST),
                pt(Vec3::new(0.0, 1.5, -0.01), 0.13, 0.085, j::CHEST),
            ],
            side: Vec3::X,
            caps: (0.07, 0.05),
            falloff: 0.05,
        },
        Tube {
            pts: vec![
                pt(Vec3::new(0.0, 1.46, -0.01), 0.055, 0.05, j::CHEST),
                pt(Vec3::new(0.0, 1.52, -0.01), 0.05, 0.048, j::NECK),
                pt(Vec3::new(0.0, 1.63, 0.0), 0.048, 0.048, j::HEAD),
            ],
            side: Vec3::X,
            caps: (0.03, 0.03),
            falloff: 0.03,
        },
        Tube {
            pts: vec![
                pt(Vec3::new(0.0, 1.66, 0.015), 0.088, 0.1, j::HEAD),
                pt(Vec3::new(0.0, 1.74, 0.015), 0.095, 0.105, j::HEAD),
            ],
            side: Vec3::X,
            caps: (0.07, 0.075),
            falloff: 0.03,
        },
    ];
    for side in 0..2 {
        let sx = L::sx(side);
        let (sh, el, wr) = (L::shoulder(side), L::elbow(side), L::wrist(side));
        t.push(Tube {
            pts: vec![
                pt(
                    Vec3::new(0.13 * sx, 1.46, -0.015),
                    0.06,
                    0.058,
                    j::CLAVICLE[side],
                ),
                pt(sh, 0.058, 0.056, j::UPPERARM[side]),
                pt(el, 0.042, 0.04, j::FOREARM[side]),
                pt(wr, 0.032, 0.026, j::FOREARM[side]),
            ],
            side: Vec3::Z,
            caps: (0.05, 0.03),
            falloff: 0.05,
        });
        t.push(Tube {
            pts: vec![
                pt(wr.lerp(el, 0.1), 0.03, 0.024, j::FOREARM[side]),
                pt(wr, 0.04, 0.02, j::HAND[side]),
                pt(
                    Vec3::new(0.86 * sx, 1.46, -0.02),
                    0.045,
                    0.017,
                    j::HAND[side],
                ),
            ],
            side: Vec3::Z,
            caps: (0.02, 0.04),
            falloff: 0.02,
        });
        let (hip, knee, ankle) = (L::hip(side), L::knee(side), L::ankle(side));
        t.push(Tube {
            pts: vec![
                pt(hip + Vec3::new(0.0, 0.07, 0.0), 0.1, 0.1, j::PELVIS),
                pt(hip, 0.095, 0.095, j::THIGH[side]),
                pt(hip.lerp(knee, 0.45), 0.075, 0.078, j::THIGH[side]),
                pt(knee, 0.055, 0.055, j::CALF[side]),
                pt(knee.lerp(ankle, 0.45), 0.056, 0.058, j::CALF[side]),
                pt(ankle, 0.037, 0.037, j::CALF[side]),
            ],
            side: Vec3::X,
            caps: (0.1, 0.04),
            falloff: 0.05,
        });
        let heel = L::heel(side);
        t.push(Tube {
            pts: vec![
                pt(
                    heel + Vec3::new(0.0, 0.045, 0.025),
                    0.045,
                    0.045,
                    j::FOOT[side],
                ),
                pt(Vec3::new(heel.x, 0.035, 0.13), 0.05, 0.035, j::TOE[side]),
                pt(Vec3::new(heel.x, 0.03, 0.19), 0.045, 0.03, j::TOE[side]),
            ],
            side: Vec3::X,
            caps: (0.03, 0.025),
            falloff: 0.03,
        });
    }
    t
}

/// The mannequin's mesh in bind pose, skinned to skin 0 (whose joint slots are the joints).
pub fn build() -> SkinnedMesh {
    let mut mesh = SkinnedMesh {
        name: "mannequin".into(),
        skin: Some(0),
        base_color: [0.62, 0.64, 0.68, 1.0],
        ..Default::default()
    };
    for tube in tubes() {
        emit(&mut mesh, &tube);
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Halfway across a joint's falloff both joints weigh one half; far from it one joint rules.
    #[test]
    fn weights_blend_across_joint() {
        let tube = Tube {
            pts: vec![
                pt(Vec3::ZERO, 0.1, 0.1, 3),
                pt(Vec3::Y, 0.1, 0.1, 4),
                pt(Vec3::Y * 2.0, 0.1, 0.1, 4),
            ],
            side: Vec3::X,
            caps: (0.1, 0.1),
            falloff: 0.1,
        };
        let cum = [0.0, 1.0, 2.0];
        assert_eq!(
            tube.weights(1.0, &cum),
            ([3, 4, 0, 0], [0.5, 0.5, 0.0, 0.0])
        );
        assert_eq!(tube.weights(0.5, &cum).0[0], 3);
        assert_eq!(
            tube.weights(1.5, &cum),
            ([4, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
        );
    }
}
