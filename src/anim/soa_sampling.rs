//! Structure-of-arrays clip sampling in `f32`: channels are taken eight at a time, their
//! current key pairs gathered (with the scalar path's key cursors) into one [`Group`] of lanes
//! on the stack (`lo[]`, `hi[]`, `ax[]`, `ay[]`, ...), and interpolated at once (8 `f32` lanes
//! with AVX2, chosen at run time; otherwise what the compiler makes of the loops).
//!
//! Vectors are lerped exactly as the scalar path does (`a * (1 - s) + b * s`, same bits).
//! Rotations follow [`Clip::sample`]'s rules per lane (equal keys hold, the far key is
//! sign-aligned, keys closer than the scalar path's `NLERP_DOT` take the normalised lerp, the
//! others slerp with the same `acos` and `sinc` polynomials) but in `f32`. Results are within
//! 1e-6 of the `f64` scalar reference (tests: every frame of every clip of the mannequin and the
//! Fox at 60 fps, local TRS and model matrices); the graph and the bake keep the scalar path.
//! CUBICSPLINE or malformed channels go through the scalar code itself.
//!
//! An ozz-style variant that kept every channel's key pair in lanes inside the context, across
//! frames, refreshing only the lanes whose key interval ended, was measured in the same runs
//! (`marionette bench crowd`, Fox, 1000 characters): its fastest frames were 5-7% under the
//! scalar path's but its medians 10-45% over (1.1 KB of lanes per clip and character: the
//! crowd's 2.3 MB of lanes left the cache), so the context keeps only cursors (git history).
//! Measured state: `README.md`, "Performance".

use glam::{Quat, Vec3};

use super::sampling::{sample_track, seek};
use super::{Clip, Interpolation, Track, Transform};

/// Which part of a joint a channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Translation,
    Rotation,
    Scale,
}

/// Where a channel comes from and goes to.
#[derive(Clone, Copy, Debug)]
struct Source {
    /// Index into `clip.tracks`.
    track: u32,
    /// The joint written.
    joint: u16,
    part: Part,
}

/// Lanes per kernel step (one AVX2 register of `f32`, two SSE2 ones); lanes are padded to it.
const LANES: usize = 8;

/// A lane mask: all bits set (true) or none.
const ON: u32 = u32::MAX;

/// The key pairs of [`LANES`] channels of one value width (`W` = 3 for vectors, 4 for
/// quaternions), SoA. Between two keys, `lo` and `hi` are their times.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Group<const W: usize> {
    lo: [f32; LANES],
    hi: [f32; LANES],
    /// [`ON`]: the lane holds `a` (before the first key, from the last key on, STEP, equal
    /// keys, padding).
    hold: [u32; LANES],
    a: [[f32; LANES]; W],
    b: [[f32; LANES]; W],
}

impl<const W: usize> Group<W> {
    #[inline(always)]
    fn hold(&mut self, j: usize, v: [f32; W], lo: f32, hi: f32) {
        for (c, x) in v.into_iter().enumerate() {
            self.a[c][j] = x;
        }
        self.hold[j] = ON;
        (self.lo[j], self.hi[j]) = (lo, hi);
    }

    /// Padding: holds zero forever.
    const PAD: Self = Self {
        lo: [f32::NEG_INFINITY; LANES],
        hi: [f32::INFINITY; LANES],
        hold: [ON; LANES],
        a: [[0.0; LANES]; W],
        b: [[0.0; LANES]; W],
    };
}

/// Values the lanes carry.
trait LaneValue: Copy {
    fn to_lanes<const W: usize>(self) -> [f32; W];
}

impl LaneValue for Vec3 {
    #[inline(always)]
    fn to_lanes<const W: usize>(self) -> [f32; W] {
        let mut out = [0.0; W];
        out[..3].copy_from_slice(&self.to_array());
        out
    }
}

impl LaneValue for Quat {
    #[inline(always)]
    fn to_lanes<const W: usize>(self) -> [f32; W] {
        let mut out = [0.0; W];
        out[..4].copy_from_slice(&self.to_array());
        out
    }
}

/// Fills lane `j` from `track` at `t`: the scalar sampler's regions (before the first key,
/// between keys `k` and `k + 1`, from the last key on) and its cursor search.
#[inline(always)]
fn fill<T: LaneValue, const W: usize>(
    g: &mut Group<W>,
    j: usize,
    track: &Track<T>,
    t: f32,
    cursor: &mut usize,
) {
    let times = track.times.as_slice();
    let values = track.values.as_slice();
    let n = times.len(); // prepare() admits only well-formed LINEAR / STEP tracks
    if t.is_nan() || t <= times[0] {
        return g.hold(j, values[0].to_lanes(), f32::NEG_INFINITY, times[0]);
    }
    if t >= times[n - 1] {
        return g.hold(j, values[n - 1].to_lanes(), times[n - 1], f32::INFINITY);
    }
    let k = seek(times, t, cursor);
    let (t0, t1) = (times[k], times[k + 1]);
    if track.interpolation == Interpolation::Linear {
        let (a, b) = (values[k].to_lanes::<W>(), values[k + 1].to_lanes::<W>());
        for c in 0..W {
            g.a[c][j] = a[c];
            g.b[c][j] = b[c];
        }
        g.hold[j] = 0;
        (g.lo[j], g.hi[j]) = (t0, t1);
    } else {
        g.hold(j, values[k].to_lanes(), t0, t1);
    }
}

/// A per-player sampling context for [`Clip::sample_soa`]: the clip's channels and a key cursor
/// per channel. Sized on first use with a clip; no allocation per frame afterwards. Any cursor
/// gives the same result (a context used with another clip rebuilds itself).
#[derive(Clone, Debug)]
pub struct SoaSamplingContext {
    /// `(tracks address, tracks length, channel count)` of the clip it was built for (a track
    /// added or removed in place also rebuilds it).
    owner: (usize, usize, usize),
    /// LINEAR / STEP translation and scale channels, with their cursors.
    vec3: Vec<(Source, usize)>,
    /// LINEAR / STEP rotation channels, with their cursors.
    quat: Vec<(Source, usize)>,
    /// CUBICSPLINE (and malformed) channels: sampled by the scalar path with their cursor.
    cubic: Vec<(Source, usize)>,
    /// The clip's tracks are not sorted by joint (or repeat one): the scalar path samples it.
    irregular: bool,
    /// The scalar path's cursors for an irregular clip.
    scalar: super::SamplingCache,
}

impl Default for SoaSamplingContext {
    fn default() -> Self {
        Self {
            owner: (0, 0, 0),
            vec3: Vec::new(),
            quat: Vec::new(),
            cubic: Vec::new(),
            irregular: false,
            scalar: super::SamplingCache::new(),
        }
    }
}

impl SoaSamplingContext {
    /// An empty context; it sizes itself on the first [`Clip::sample_soa`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every cursor (the next sample searches from the first key).
    pub fn reset(&mut self) {
        for (_, c) in self
            .vec3
            .iter_mut()
            .chain(&mut self.quat)
            .chain(&mut self.cubic)
        {
            *c = 0;
        }
        self.scalar.reset();
    }

    /// Number of channels sampled by the vector kernels (the rest: CUBICSPLINE channels).
    pub fn vector_channels(&self) -> usize {
        self.vec3.len() + self.quat.len()
    }

    fn prepare(&mut self, clip: &Clip) {
        let owner = (
            clip.tracks.as_ptr() as usize,
            clip.tracks.len(),
            clip.channel_count(),
        );
        if owner == self.owner {
            return;
        }
        self.owner = owner;
        self.vec3.clear();
        self.quat.clear();
        self.cubic.clear();
        self.irregular = clip.tracks.windows(2).any(|w| w[0].joint >= w[1].joint);
        for (ti, jt) in clip.tracks.iter().enumerate() {
            let src = |part| Source {
                track: ti as u32,
                joint: jt.joint,
                part,
            };
            let add3 = |track: &Option<Track<Vec3>>, part, me: &mut Self| {
                if let Some(tr) = track {
                    if tr.interpolation == Interpolation::CubicSpline || !well_formed(tr) {
                        me.cubic.push((src(part), 0));
                    } else {
                        me.vec3.push((src(part), 0));
                    }
                }
            };
            add3(&jt.translation, Part::Translation, self);
            add3(&jt.scale, Part::Scale, self);
            if let Some(tr) = &jt.rotation {
                if tr.interpolation == Interpolation::CubicSpline || !well_formed(tr) {
                    self.cubic.push((src(Part::Rotation), 0));
                } else {
                    self.quat.push((src(Part::Rotation), 0));
                }
            }
        }
    }
}

/// Tracks the scalar sampler interpolates (the others yield the rest value, and go through it).
fn well_formed<T>(track: &Track<T>) -> bool {
    let stride = if track.interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    !track.times.is_empty() && track.values.len() >= track.times.len() * stride
}

impl Clip {
    /// [`Clip::sample`] through a [`SoaSamplingContext`]: the same pose within 1e-6 (vectors
    /// bit for bit), interpolated by `f32` vector kernels, eight channels at a time.
    pub fn sample_soa(
        &self,
        time: f32,
        rest: &[Transform],
        ctx: &mut SoaSamplingContext,
        out: &mut [Transform],
    ) {
        ctx.prepare(self);
        if ctx.irregular {
            // rare hand-built clips: the reference path
            return self.sample(time, rest, &mut ctx.scalar, out);
        }
        let n = out.len().min(rest.len());
        let out = &mut out[..n];
        out.copy_from_slice(&rest[..n]);
        let tracks = &self.tracks;
        // gather eight channels' key pairs, interpolate them at once, write their joints
        let avx2 = kernels::uses_avx2();
        for chunk in ctx.quat.chunks_mut(LANES) {
            let mut g = Group::PAD;
            for (j, (src, cursor)) in chunk.iter_mut().enumerate() {
                if let Some(track) = &tracks[src.track as usize].rotation {
                    fill(&mut g, j, track, time, cursor);
                }
            }
            let r = kernels::quat(avx2, time, &g);
            for (j, (src, _)) in chunk.iter().enumerate() {
                if let Some(o) = out.get_mut(src.joint as usize) {
                    o.rotation = Quat::from_xyzw(r[0][j], r[1][j], r[2][j], r[3][j]);
                }
            }
        }
        for chunk in ctx.vec3.chunks_mut(LANES) {
            let mut g = Group::PAD;
            for (j, (src, cursor)) in chunk.iter_mut().enumerate() {
                let jt = &tracks[src.track as usize];
                let track = match src.part {
                    Part::Translation => &jt.translation,
                    _ => &jt.scale,
                };
                if let Some(track) = track {
                    fill(&mut g, j, track, time, cursor);
                }
            }
            let r = kernels::vec3(avx2, time, &g);
            for (j, (src, _)) in chunk.iter().enumerate() {
                if let Some(o) = out.get_mut(src.joint as usize) {
                    let x = Vec3::new(r[0][j], r[1][j], r[2][j]);
                    match src.part {
                        Part::Translation => o.translation = x,
                        _ => o.scale = x,
                    }
                }
            }
        }
        for (src, cursor) in &mut ctx.cubic {
            let Some(o) = out.get_mut(src.joint as usize) else {
                continue;
            };
            let jt = &tracks[src.track as usize];
            match src.part {
                Part::Translation => {
                    if let Some(tr) = &jt.translation {
                        o.translation = sample_track(tr, time, cursor).unwrap_or(o.translation);
                    }
                }
                Part::Scale => {
                    if let Some(tr) = &jt.scale {
                        o.scale = sample_track(tr, time, cursor).unwrap_or(o.scale);
                    }
                }
                Part::Rotation => {
                    if let Some(tr) = &jt.rotation {
                        o.rotation = sample_track(tr, time, cursor).unwrap_or(o.rotation);
                    }
                }
            }
        }
    }
}

/// The interpolation kernels, one lane group at a time: explicit AVX2 (chosen at run time) and
/// the same maths as plain loops elsewhere. No fused multiply-adds, so vectors get the scalar
/// path's bits.
#[allow(clippy::needless_range_loop)] // lane loops read best indexed, as the AVX2 ones
mod kernels {
    use super::{Group, LANES};

    /// Whether the AVX2 kernels run on this CPU.
    pub(super) fn uses_avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// [`vec3_portable`], with AVX2 when `avx2` (from [`uses_avx2`]).
    #[inline(always)]
    pub(super) fn vec3(avx2: bool, t: f32, g: &Group<3>) -> [[f32; LANES]; 3] {
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            // SAFETY: `avx2` comes from `uses_avx2`: the CPU supports AVX2.
            return unsafe { super::avx2::vec3(t, g) };
        }
        let _ = avx2;
        vec3_portable(t, g)
    }

    /// [`quat_portable`], with AVX2 when `avx2` (from [`uses_avx2`]).
    #[inline(always)]
    pub(super) fn quat(avx2: bool, t: f32, g: &Group<4>) -> [[f32; LANES]; 4] {
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            // SAFETY: `avx2` comes from `uses_avx2`: the CPU supports AVX2.
            return unsafe { super::avx2::quat(t, g) };
        }
        let _ = avx2;
        quat_portable(t, g)
    }

    /// `a * (1 - s) + b * s` (the scalar LINEAR vector), or `a` on holding lanes.
    pub(super) fn vec3_portable(t: f32, g: &Group<3>) -> [[f32; LANES]; 3] {
        let mut out = [[0.0; LANES]; 3];
        for j in 0..LANES {
            let s = (t - g.lo[j]) / (g.hi[j] - g.lo[j]);
            for c in 0..3 {
                let (a, b) = (g.a[c][j], g.b[c][j]);
                out[c][j] = if g.hold[j] != 0 {
                    a
                } else {
                    a * (1.0 - s) + b * s
                };
            }
        }
        out
    }

    /// `sin(x)/x` as a function of `y = x²` for `x` in `[0, π/2]`, in `f32` (Taylor to
    /// `x^10`: truncation under 4e-8).
    pub(super) const SINC: [f32; 6] = [
        1.0,
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5040.0,
        1.0 / 362_880.0,
        -1.0 / 39_916_800.0,
    ];

    #[inline(always)]
    fn sinc_sq(y: f32) -> f32 {
        let c = SINC;
        c[0] + y * (c[1] + y * (c[2] + y * (c[3] + y * (c[4] + y * c[5]))))
    }

    /// `acos(x) / sqrt(1 - x)` for `x` in `[0, 1]`: the scalar path's polynomial
    /// (`sampling::acos_factor`, Abramowitz and Stegun 4.4.46) in `f32`.
    pub(super) const ACOS: [f32; 8] = [
        std::f32::consts::FRAC_PI_2, // A&S's 1.5707963050, rounded to f32
        -0.214_598_8,
        0.088_978_99,
        -0.050_174_303,
        0.030_891_88,
        -0.017_088_126,
        0.006_670_09,
        -0.001_262_491_1,
    ];

    /// Keys at least this close (dot product) are lerped and normalised (the scalar path's
    /// `NLERP_DOT`, three.js's threshold).
    pub(super) const NEAR: f32 = 0.9995;

    #[inline(always)]
    fn acos_factor(x: f32) -> f32 {
        let c = ACOS;
        let mut p = c[7];
        for k in (0..7).rev() {
            p = c[k] + x * p;
        }
        p
    }

    /// Per lane: `a` when holding; otherwise `b` is sign-aligned with `a` (shortest path) and
    /// keys closer than [`NEAR`] are lerped and normalised, the others slerped:
    /// `a · sin(dθ)/sin θ + b · sin(sθ)/sin θ`, with `sin(xθ)/sin θ = x · sinc(xθ) / sinc(θ)`
    /// and `θ = sqrt(1 - dot) · acos_factor(dot)` as in the scalar path, all in `f32`.
    pub(super) fn quat_portable(t: f32, g: &Group<4>) -> [[f32; LANES]; 4] {
        let mut out = [[0.0; LANES]; 4];
        for j in 0..LANES {
            let a = [g.a[0][j], g.a[1][j], g.a[2][j], g.a[3][j]];
            let q = if g.hold[j] != 0 {
                a
            } else {
                let b = [g.b[0][j], g.b[1][j], g.b[2][j], g.b[3][j]];
                let dot = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
                let b = if dot < 0.0 { b.map(|x| -x) } else { b };
                let dot = dot.abs();
                let s = (t - g.lo[j]) / (g.hi[j] - g.lo[j]);
                let d = 1.0 - s;
                let near = dot >= NEAR;
                let (wa, wb) = if near {
                    (d, s)
                } else {
                    let theta = (1.0 - dot).sqrt() * acos_factor(dot);
                    let th2 = theta * theta;
                    let inv = 1.0 / sinc_sq(th2);
                    (
                        d * sinc_sq(d * d * th2) * inv,
                        s * sinc_sq(s * s * th2) * inv,
                    )
                };
                let q = [0, 1, 2, 3].map(|c| a[c] * wa + b[c] * wb);
                let k = if near {
                    1.0 / ((q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3])).sqrt()
                } else {
                    1.0
                };
                q.map(|x| x * k)
            };
            for c in 0..4 {
                out[c][j] = q[c];
            }
        }
        out
    }
}

/// [`kernels`]' loops with AVX2 intrinsics, 8 lanes at a time, operation for operation.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::kernels::{ACOS, NEAR, SINC};
    use super::{Group, LANES};

    #[inline(always)]
    unsafe fn ld(v: &[f32; LANES]) -> __m256 {
        _mm256_loadu_ps(v.as_ptr())
    }

    #[inline(always)]
    unsafe fn mask(v: &[u32; LANES]) -> __m256 {
        _mm256_castsi256_ps(_mm256_loadu_si256(v.as_ptr().cast()))
    }

    #[inline(always)]
    unsafe fn st(v: __m256) -> [f32; LANES] {
        let mut out = [0.0; LANES];
        _mm256_storeu_ps(out.as_mut_ptr(), v);
        out
    }

    /// `(t - lo) / (hi - lo)` on 8 lanes.
    #[inline(always)]
    unsafe fn fraction<const W: usize>(t: f32, g: &Group<W>) -> __m256 {
        let lo = ld(&g.lo);
        _mm256_div_ps(
            _mm256_sub_ps(_mm256_set1_ps(t), lo),
            _mm256_sub_ps(ld(&g.hi), lo),
        )
    }

    /// # Safety
    /// The CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn vec3(t: f32, g: &Group<3>) -> [[f32; LANES]; 3] {
        let s = fraction(t, g);
        let d = _mm256_sub_ps(_mm256_set1_ps(1.0), s);
        let hold = mask(&g.hold);
        [0, 1, 2].map(|c| {
            let a = ld(&g.a[c]);
            let v = _mm256_add_ps(_mm256_mul_ps(a, d), _mm256_mul_ps(ld(&g.b[c]), s));
            st(_mm256_blendv_ps(v, a, hold))
        })
    }

    #[inline(always)]
    unsafe fn sinc_sq(y: __m256) -> __m256 {
        let c = |k: usize| _mm256_set1_ps(SINC[k]);
        let mut p = c(5);
        for k in (0..5).rev() {
            p = _mm256_add_ps(c(k), _mm256_mul_ps(y, p));
        }
        p
    }

    /// # Safety
    /// The CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn quat(t: f32, g: &Group<4>) -> [[f32; LANES]; 4] {
        let one = _mm256_set1_ps(1.0);
        let s = fraction(t, g);
        let d = _mm256_sub_ps(one, s);
        let hold = mask(&g.hold);
        let a = [0, 1, 2, 3].map(|c| ld(&g.a[c]));
        let b = [0, 1, 2, 3].map(|c| ld(&g.b[c]));
        let dot = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1])),
            _mm256_add_ps(_mm256_mul_ps(a[2], b[2]), _mm256_mul_ps(a[3], b[3])),
        );
        let sign = _mm256_and_ps(dot, _mm256_set1_ps(-0.0));
        let b = b.map(|v| _mm256_xor_ps(v, sign));
        let dot = _mm256_xor_ps(dot, sign);
        let near = _mm256_cmp_ps(dot, _mm256_set1_ps(NEAR), _CMP_GE_OQ);
        let mut af = _mm256_set1_ps(ACOS[7]);
        for k in (0..7).rev() {
            af = _mm256_add_ps(_mm256_set1_ps(ACOS[k]), _mm256_mul_ps(dot, af));
        }
        let theta = _mm256_mul_ps(_mm256_sqrt_ps(_mm256_sub_ps(one, dot)), af);
        let th2 = _mm256_mul_ps(theta, theta);
        let inv = _mm256_div_ps(one, sinc_sq(th2));
        let w = |x: __m256| {
            let y = _mm256_mul_ps(_mm256_mul_ps(x, x), th2);
            _mm256_mul_ps(_mm256_mul_ps(x, sinc_sq(y)), inv)
        };
        let wa = _mm256_blendv_ps(w(d), d, near);
        let wb = _mm256_blendv_ps(w(s), s, near);
        let q =
            [0, 1, 2, 3].map(|c| _mm256_add_ps(_mm256_mul_ps(a[c], wa), _mm256_mul_ps(b[c], wb)));
        let len2 = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(q[0], q[0]), _mm256_mul_ps(q[1], q[1])),
            _mm256_add_ps(_mm256_mul_ps(q[2], q[2]), _mm256_mul_ps(q[3], q[3])),
        );
        let k = _mm256_blendv_ps(one, _mm256_div_ps(one, _mm256_sqrt_ps(len2)), near);
        [0, 1, 2, 3].map(|c| st(_mm256_blendv_ps(_mm256_mul_ps(q[c], k), a[c], hold)))
    }
}

/// The instruction set the SoA kernels use on this CPU: `"avx2"` (8 `f32` lanes), `"sse2"`
/// (4), or `"portable"` (whatever the compiler vectorises them to on other architectures).
pub fn soa_simd_level() -> &'static str {
    if kernels::uses_avx2() {
        "avx2"
    } else if cfg!(target_arch = "x86_64") {
        "sse2"
    } else {
        "portable"
    }
}

#[cfg(test)]
#[path = "soa_sampling_tests.rs"]
mod tests;
