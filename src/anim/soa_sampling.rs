//! Structure-of-arrays clip sampling: every channel's key pair gathered into lanes
//! (`t0[]`, `dt[]`, `ax[]`, `ay[]`, ...) and interpolated many channels per instruction. With
//! AVX2 (detected at run time) vectors run 8 `f32` lanes and rotations 4 `f64` lanes (explicit
//! intrinsics); otherwise the same loops are left to the compiler (SSE2 on x86-64).
//!
//! Measured against the scalar path in the same run (`cargo bench --bench runtime`,
//! `marionette bench crowd`), this is not faster yet (0.6-0.9x): the gather is the scalar
//! path's key search, and the `f64` rotation maths that keep the results bit for bit leave the
//! vectors little to win. It is kept as the tested base for an `f32` kernel.
//!
//! A [`SoaSamplingContext`] holds, per player, the clip's channel list and one key cursor per
//! channel (the scalar path's forward search, so sequential playback is a stream); the lanes are
//! per-thread scratch, so a crowd's per-character state stays a few hundred bytes per clip.
//!
//! Results are **bit for bit** those of [`Clip::sample`] (the scalar reference): the kernels
//! evaluate the scalar path's expressions in the same order and precision (rotations in `f64`,
//! no fused multiply-adds, the slerp's nlerp-or-slerp choice made per lane), and CUBICSPLINE or
//! malformed channels go through the scalar code itself. Tests compare the two on every
//! bundled clip.

use std::cell::RefCell;

use glam::{Quat, Vec3};

use super::sampling::{acos_factor, sample_track, seek, sinc_sq, NLERP_DOT};
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

/// The lane holds its `a` value (before the first key, from the last key on, STEP, padding).
const HOLD: u32 = 1;

/// Gathered key pairs of one value width (`W` = 3 for vectors, 4 for quaternions), SoA.
#[derive(Clone, Debug)]
struct Lanes<const W: usize> {
    t0: Vec<f32>,
    dt: Vec<f32>,
    mode: Vec<u32>,
    a: [Vec<f32>; W],
    b: [Vec<f32>; W],
    out: [Vec<f32>; W],
}

impl<const W: usize> Lanes<W> {
    fn new() -> Self {
        Self {
            t0: Vec::new(),
            dt: Vec::new(),
            mode: Vec::new(),
            a: std::array::from_fn(|_| Vec::new()),
            b: std::array::from_fn(|_| Vec::new()),
            out: std::array::from_fn(|_| Vec::new()),
        }
    }

    /// Room for `n` channels, padded to [`LANES`] with lanes holding zero.
    fn fit(&mut self, n: usize) {
        let padded = n.div_ceil(LANES) * LANES;
        if self.t0.len() != padded {
            self.t0.resize(padded, 0.0);
            self.dt.resize(padded, 1.0);
            for c in 0..W {
                self.a[c].resize(padded, 0.0);
                self.b[c].resize(padded, 0.0);
                self.out[c].resize(padded, 0.0);
            }
        }
        self.mode.clear();
        self.mode.resize(padded, HOLD);
    }

    #[inline(always)]
    fn hold(&mut self, i: usize, v: [f32; W]) {
        for (c, x) in v.into_iter().enumerate() {
            self.a[c][i] = x;
        }
        self.mode[i] = HOLD;
    }

    #[inline(always)]
    fn pair(&mut self, i: usize, a: [f32; W], b: [f32; W], t0: f32, dt: f32) {
        for c in 0..W {
            self.a[c][i] = a[c];
            self.b[c][i] = b[c];
        }
        self.t0[i] = t0;
        self.dt[i] = dt;
        self.mode[i] = 0;
    }
}

thread_local! {
    /// Per-thread lanes: written and read within one [`Clip::sample_soa`] call.
    static SCRATCH: RefCell<(Lanes<3>, Lanes<4>)> = RefCell::new((Lanes::new(), Lanes::new()));
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

/// Gathers lane `i` from `track` at `t`: the scalar sampler's regions (before the first key,
/// between keys `k` and `k + 1`, from the last key on) and its cursor search.
#[inline(always)]
fn gather<T: LaneValue, const W: usize>(
    lanes: &mut Lanes<W>,
    i: usize,
    track: &Track<T>,
    t: f32,
    cursor: &mut usize,
) {
    let times = track.times.as_slice();
    let values = track.values.as_slice();
    let n = times.len(); // prepare() admits only well-formed LINEAR / STEP tracks
    if t.is_nan() || t <= times[0] {
        return lanes.hold(i, values[0].to_lanes());
    }
    if t >= times[n - 1] {
        return lanes.hold(i, values[n - 1].to_lanes());
    }
    let k = seek(times, t, cursor);
    if track.interpolation == Interpolation::Linear {
        let (t0, t1) = (times[k], times[k + 1]);
        lanes.pair(
            i,
            values[k].to_lanes(),
            values[k + 1].to_lanes(),
            t0,
            t1 - t0,
        );
    } else {
        lanes.hold(i, values[k].to_lanes());
    }
}

/// A per-player sampling context for [`Clip::sample_soa`]: the clip's channels and a key cursor
/// per channel. Sized on first use with a clip; no allocation per frame afterwards. Any cursor
/// gives the same result (a context used with another clip rebuilds itself).
#[derive(Clone, Debug, Default)]
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
    /// [`Clip::sample`] through a [`SoaSamplingContext`]: the same pose, bit for bit, with the
    /// interpolation done by vector kernels over gathered key pairs.
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
        SCRATCH.with_borrow_mut(|(v, q)| {
            // 1. gather every channel's key pair
            v.fit(ctx.vec3.len());
            for (i, (src, cursor)) in ctx.vec3.iter_mut().enumerate() {
                let jt = &tracks[src.track as usize];
                let track = match src.part {
                    Part::Translation => &jt.translation,
                    _ => &jt.scale,
                };
                if let Some(track) = track {
                    gather(v, i, track, time, cursor);
                }
            }
            q.fit(ctx.quat.len());
            for (i, (src, cursor)) in ctx.quat.iter_mut().enumerate() {
                if let Some(track) = &tracks[src.track as usize].rotation {
                    gather(q, i, track, time, cursor);
                }
            }
            // 2. interpolate every channel at once
            kernels::run(time, v, q);
            // 3. write the joints
            for (i, (src, _)) in ctx.quat.iter().enumerate() {
                if let Some(o) = out.get_mut(src.joint as usize) {
                    o.rotation =
                        Quat::from_xyzw(q.out[0][i], q.out[1][i], q.out[2][i], q.out[3][i]);
                }
            }
            for (i, (src, _)) in ctx.vec3.iter().enumerate() {
                if let Some(o) = out.get_mut(src.joint as usize) {
                    let x = Vec3::new(v.out[0][i], v.out[1][i], v.out[2][i]);
                    match src.part {
                        Part::Translation => o.translation = x,
                        _ => o.scale = x,
                    }
                }
            }
        });
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

/// The interpolation kernels, written as plain loops over whole lane groups and compiled twice:
/// for the baseline target and with AVX2 (chosen at run time; rotations then go through
/// `avx2::quat`). No fused multiply-adds: both give the scalar path's bits.
mod kernels {
    use super::{acos_factor, sinc_sq, Lanes, HOLD, LANES, NLERP_DOT};

    pub(super) fn run(t: f32, v: &mut Lanes<3>, q: &mut Lanes<4>) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 (checked just above).
                unsafe { run_avx2(t, v, q) };
                return;
            }
        }
        vec3(t, v);
        quat(t, q);
    }

    /// Whether [`run`] uses the AVX2 build on this CPU.
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

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(t: f32, v: &mut Lanes<3>, q: &mut Lanes<4>) {
        vec3(t, v);
        super::avx2::quat(t, q);
    }

    /// `a * (1 - s) + b * s` (the scalar LINEAR vector), or `a` on HOLD lanes.
    #[inline(always)]
    fn vec3(t: f32, l: &mut Lanes<3>) {
        let n = l.t0.len() / LANES * LANES; // padded: every lane
        for base in (0..n).step_by(LANES) {
            let r = base..base + LANES;
            let (t0, dt, mode) = (&l.t0[r.clone()], &l.dt[r.clone()], &l.mode[r.clone()]);
            let mut s = [0.0f32; LANES];
            for i in 0..LANES {
                s[i] = (t - t0[i]) / dt[i];
            }
            for c in 0..3 {
                let (a, b) = (&l.a[c][r.clone()], &l.b[c][r.clone()]);
                let out = &mut l.out[c][r.clone()];
                for i in 0..LANES {
                    let v = a[i] * (1.0 - s[i]) + b[i] * s[i];
                    out[i] = if mode[i] & HOLD != 0 { a[i] } else { v };
                }
            }
        }
    }

    /// `sampling::slerp_shortest` per lane: equal keys hold, the far key is sign-aligned, keys
    /// closer than [`NLERP_DOT`] take the normalised lerp, the others the polynomial slerp —
    /// both computed on every lane (in `f64`, as the scalar path) and one picked.
    #[inline(always)]
    fn quat(t: f32, l: &mut Lanes<4>) {
        let n = l.t0.len() / LANES * LANES;
        for base in (0..n).step_by(LANES) {
            let r = base..base + LANES;
            let (t0, dt, mode) = (&l.t0[r.clone()], &l.dt[r.clone()], &l.mode[r.clone()]);
            let [ax, ay, az, aw] = &l.a;
            let (ax, ay, az, aw) = (
                &ax[r.clone()],
                &ay[r.clone()],
                &az[r.clone()],
                &aw[r.clone()],
            );
            let [bx, by, bz, bw] = &l.b;
            let (bx, by, bz, bw) = (
                &bx[r.clone()],
                &by[r.clone()],
                &bz[r.clone()],
                &bw[r.clone()],
            );
            let [ox, oy, oz, ow] = &mut l.out;
            let (ox, oy, oz, ow) = (
                &mut ox[r.clone()],
                &mut oy[r.clone()],
                &mut oz[r.clone()],
                &mut ow[r.clone()],
            );
            for i in 0..LANES {
                let a = [ax[i], ay[i], az[i], aw[i]];
                let b = [bx[i], by[i], bz[i], bw[i]];
                let equal = a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
                let a64 = a.map(f64::from);
                let b64 = b.map(f64::from);
                let dot = a64[0] * b64[0] + a64[1] * b64[1] + a64[2] * b64[2] + a64[3] * b64[3];
                let b64 = if dot < 0.0 { b64.map(|x| -x) } else { b64 };
                let dot = dot.abs();
                let s = ((t - t0[i]) / dt[i]) as f64;
                let d = 1.0 - s;
                let q = [0, 1, 2, 3].map(|c| a64[c] * d + b64[c] * s);
                let k = 1.0 / (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
                let theta = (1.0 - dot).sqrt() * acos_factor(dot);
                let th2 = theta * theta;
                let inv = 1.0 / sinc_sq(th2);
                let wa = d * sinc_sq(d * d * th2) * inv;
                let wb = s * sinc_sq(s * s * th2) * inv;
                let hold = mode[i] & HOLD != 0 || equal;
                let near = dot >= NLERP_DOT;
                let pick = |c: usize| {
                    if hold {
                        a[c]
                    } else if near {
                        (q[c] * k) as f32
                    } else {
                        (a64[c] * wa + b64[c] * wb) as f32
                    }
                };
                ox[i] = pick(0);
                oy[i] = pick(1);
                oz[i] = pick(2);
                ow[i] = pick(3);
            }
        }
    }
}

/// The rotation kernel with AVX2 intrinsics: [`kernels`]' `quat` four lanes at a time in
/// `f64`, operation for operation (so bit for bit).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Lanes, HOLD, LANES, NLERP_DOT};

    /// `sampling::sinc_sq` on four lanes, same coefficients and order.
    #[inline(always)]
    unsafe fn sinc_sq(y: __m256d) -> __m256d {
        const C: [f64; 7] = [
            1.0,
            -1.0 / 6.0,
            1.0 / 120.0,
            -1.0 / 5040.0,
            1.0 / 362_880.0,
            -1.0 / 39_916_800.0,
            1.0 / 6_227_020_800.0,
        ];
        let c = |i: usize| _mm256_set1_pd(C[i]);
        let y2 = _mm256_mul_pd(y, y);
        let y4 = _mm256_mul_pd(y2, y2);
        let lo = _mm256_add_pd(
            _mm256_add_pd(c(0), _mm256_mul_pd(y, c(1))),
            _mm256_mul_pd(y2, _mm256_add_pd(c(2), _mm256_mul_pd(y, c(3)))),
        );
        let hi = _mm256_add_pd(
            _mm256_add_pd(c(4), _mm256_mul_pd(y, c(5))),
            _mm256_mul_pd(y2, c(6)),
        );
        _mm256_add_pd(lo, _mm256_mul_pd(y4, hi))
    }

    /// `sampling::acos_factor` on four lanes, same coefficients and order.
    #[inline(always)]
    unsafe fn acos_factor(x: __m256d) -> __m256d {
        const A: [f64; 8] = [
            1.570_796_305_0,
            -0.214_598_801_6,
            0.088_978_987_4,
            -0.050_174_304_6,
            0.030_891_881_0,
            -0.017_088_125_6,
            0.006_670_090_1,
            -0.001_262_491_1,
        ];
        let a = |i: usize| _mm256_set1_pd(A[i]);
        let x2 = _mm256_mul_pd(x, x);
        let x4 = _mm256_mul_pd(x2, x2);
        let p = |i: usize| _mm256_add_pd(a(i), _mm256_mul_pd(a(i + 1), x));
        let (p01, p23, p45, p67) = (p(0), p(2), p(4), p(6));
        _mm256_add_pd(
            _mm256_add_pd(p01, _mm256_mul_pd(p23, x2)),
            _mm256_mul_pd(_mm256_add_pd(p45, _mm256_mul_pd(p67, x2)), x4),
        )
    }

    #[inline(always)]
    unsafe fn dot4(a: &[__m256d; 4], b: &[__m256d; 4]) -> __m256d {
        let xy = _mm256_add_pd(_mm256_mul_pd(a[0], b[0]), _mm256_mul_pd(a[1], b[1]));
        let xyz = _mm256_add_pd(xy, _mm256_mul_pd(a[2], b[2]));
        _mm256_add_pd(xyz, _mm256_mul_pd(a[3], b[3]))
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn quat(t: f32, l: &mut Lanes<4>) {
        let n = l.t0.len() / LANES * LANES;
        let sign = _mm256_set1_pd(-0.0);
        let one = _mm256_set1_pd(1.0);
        for i in (0..n).step_by(4) {
            // SAFETY (all loads and stores): i + 4 <= n <= every lane array's length.
            let ld = |v: &Vec<f32>| _mm_loadu_ps(v.as_ptr().add(i));
            let af = [ld(&l.a[0]), ld(&l.a[1]), ld(&l.a[2]), ld(&l.a[3])];
            let bf = [ld(&l.b[0]), ld(&l.b[1]), ld(&l.b[2]), ld(&l.b[3])];
            let equal = _mm_and_ps(
                _mm_and_ps(_mm_cmpeq_ps(af[0], bf[0]), _mm_cmpeq_ps(af[1], bf[1])),
                _mm_and_ps(_mm_cmpeq_ps(af[2], bf[2]), _mm_cmpeq_ps(af[3], bf[3])),
            );
            let mode = _mm_loadu_si128(l.mode.as_ptr().add(i).cast());
            let held = _mm_castsi128_ps(_mm_cmpeq_epi32(
                _mm_and_si128(mode, _mm_set1_epi32(HOLD as i32)),
                _mm_set1_epi32(HOLD as i32),
            ));
            let hold = _mm_or_ps(held, equal);
            let a = af.map(|v| _mm256_cvtps_pd(v));
            let b = bf.map(|v| _mm256_cvtps_pd(v));
            let dot = dot4(&a, &b);
            let flip = _mm256_cmp_pd(dot, _mm256_setzero_pd(), _CMP_LT_OQ);
            let b = b.map(|v| _mm256_blendv_pd(v, _mm256_xor_pd(v, sign), flip));
            let dot = _mm256_andnot_pd(sign, dot);
            let s32 = _mm_div_ps(
                _mm_sub_ps(_mm_set1_ps(t), _mm_loadu_ps(l.t0.as_ptr().add(i))),
                _mm_loadu_ps(l.dt.as_ptr().add(i)),
            );
            let s = _mm256_cvtps_pd(s32);
            let d = _mm256_sub_pd(one, s);
            // normalised lerp
            let q =
                [0, 1, 2, 3].map(|c| _mm256_add_pd(_mm256_mul_pd(a[c], d), _mm256_mul_pd(b[c], s)));
            let k = _mm256_div_pd(one, _mm256_sqrt_pd(dot4(&q, &q)));
            let near = _mm256_cmp_pd(dot, _mm256_set1_pd(NLERP_DOT), _CMP_GE_OQ);
            let nl = q.map(|v| _mm256_mul_pd(v, k));
            // slerp weights, only when a lane of the four needs them
            let res = if (_mm256_movemask_pd(near) | _mm_movemask_ps(hold)) == 0xF {
                nl
            } else {
                let theta =
                    _mm256_mul_pd(_mm256_sqrt_pd(_mm256_sub_pd(one, dot)), acos_factor(dot));
                let th2 = _mm256_mul_pd(theta, theta);
                let inv = _mm256_div_pd(one, sinc_sq(th2));
                let w = |x: __m256d| {
                    let y = _mm256_mul_pd(_mm256_mul_pd(x, x), th2);
                    _mm256_mul_pd(_mm256_mul_pd(x, sinc_sq(y)), inv)
                };
                let (wa, wb) = (w(d), w(s));
                [0, 1, 2, 3].map(|c| {
                    let sl = _mm256_add_pd(_mm256_mul_pd(a[c], wa), _mm256_mul_pd(b[c], wb));
                    _mm256_blendv_pd(sl, nl[c], near)
                })
            };
            for c in 0..4 {
                let r = _mm256_cvtpd_ps(res[c]);
                _mm_storeu_ps(l.out[c].as_mut_ptr().add(i), _mm_blendv_ps(r, af[c], hold));
            }
        }
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
