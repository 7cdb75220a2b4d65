//! Structure-of-arrays clip sampling in `f32`, ozz-animation style: a per-player
//! [`SoaSamplingContext`] keeps, for every channel, its **current key pair already in lanes**
//! (`t0[]`, `dt[]`, `ax[]`, `ay[]`, ..., and for rotations the pair's angle), refreshed only for
//! the lanes whose time left the cached key interval; every frame then interpolates all lanes
//! at once (8 `f32` lanes with AVX2, chosen at run time; otherwise what the compiler makes of
//! the loops, SSE2 on x86-64).
//!
//! Vectors are lerped exactly as the scalar path does (`a * (1 - s) + b * s`, same bits).
//! Rotations follow [`Clip::sample`]'s choice per lane (equal keys hold, keys closer than
//! [`NLERP_DOT`] take the normalised lerp, the others slerp), but in `f32`: the key angle and
//! `1 / sinc` are computed once per key pair (in `f64`, as the scalar path), and the per-frame
//! weights `s · sinc(s θ) / sinc(θ)` come from an `f32` Taylor polynomial. Results are within
//! 1e-6 of the `f64` scalar reference (tests: every frame of every clip of the mannequin and
//! the Fox at 60 fps, local TRS and model matrices); the graph and the bake keep the scalar path.
//! CUBICSPLINE or malformed channels go through the scalar code itself.

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

/// Cached key pairs of one value width (`W` = 3 for vectors, 4 for quaternions), SoA. Lane `i`
/// is valid while `lo[i] <= t < hi[i]`.
#[derive(Clone, Debug)]
struct Lanes<const W: usize> {
    lo: Vec<f32>,
    hi: Vec<f32>,
    t0: Vec<f32>,
    dt: Vec<f32>,
    /// The lane holds `a` (before the first key, from the last key on, STEP, equal keys,
    /// padding).
    hold: Vec<bool>,
    a: [Vec<f32>; W],
    /// For rotations: sign-aligned with `a`.
    b: [Vec<f32>; W],
    /// Rotations: the keys are close (normalised lerp).
    near: Vec<bool>,
    /// Rotations: the key angle squared.
    th2: Vec<f32>,
    /// Rotations: `1 / sinc(θ)`.
    inv_sinc: Vec<f32>,
    out: [Vec<f32>; W],
}

impl<const W: usize> Lanes<W> {
    fn new() -> Self {
        let v = || std::array::from_fn(|_| Vec::new());
        Self {
            lo: Vec::new(),
            hi: Vec::new(),
            t0: Vec::new(),
            dt: Vec::new(),
            hold: Vec::new(),
            a: v(),
            b: v(),
            near: Vec::new(),
            th2: Vec::new(),
            inv_sinc: Vec::new(),
            out: v(),
        }
    }

    /// `n` channels, padded to [`LANES`]: channel lanes invalid (refreshed on first use),
    /// padding lanes holding zero forever.
    fn fit(&mut self, n: usize) {
        let padded = n.div_ceil(LANES) * LANES;
        let fill = |v: &mut Vec<f32>, x: f32| {
            v.clear();
            v.resize(padded, x);
        };
        fill(&mut self.lo, f32::NEG_INFINITY);
        fill(&mut self.hi, f32::INFINITY);
        self.lo[..n].fill(f32::INFINITY); // never valid: refreshed on first use
        fill(&mut self.t0, 0.0);
        fill(&mut self.dt, 1.0);
        fill(&mut self.th2, 0.0);
        fill(&mut self.inv_sinc, 1.0);
        for c in 0..W {
            fill(&mut self.a[c], 0.0);
            fill(&mut self.b[c], 0.0);
            fill(&mut self.out[c], 0.0);
        }
        self.hold.clear();
        self.hold.resize(padded, true);
        self.near.clear();
        self.near.resize(padded, true);
    }

    /// Invalidates every channel lane (the next sample refreshes them all).
    fn invalidate(&mut self, n: usize) {
        self.lo[..n].fill(f32::INFINITY);
    }

    #[inline(always)]
    fn hold(&mut self, i: usize, v: [f32; W], lo: f32, hi: f32) {
        for (c, x) in v.into_iter().enumerate() {
            self.a[c][i] = x;
        }
        self.hold[i] = true;
        self.near[i] = true;
        (self.lo[i], self.hi[i]) = (lo, hi);
    }
}

/// Values the lanes carry.
trait LaneValue: Copy {
    fn to_lanes<const W: usize>(self) -> [f32; W];
    /// Fills the interpolation state of lane `i` for the pair `(a, b)`.
    fn pair<const W: usize>(l: &mut Lanes<W>, i: usize, a: Self, b: Self);
}

impl LaneValue for Vec3 {
    #[inline(always)]
    fn to_lanes<const W: usize>(self) -> [f32; W] {
        let mut out = [0.0; W];
        out[..3].copy_from_slice(&self.to_array());
        out
    }

    #[inline(always)]
    fn pair<const W: usize>(l: &mut Lanes<W>, i: usize, a: Self, b: Self) {
        let (a, b) = (a.to_lanes::<W>(), b.to_lanes::<W>());
        for c in 0..W {
            l.a[c][i] = a[c];
            l.b[c][i] = b[c];
        }
        l.hold[i] = false;
    }
}

impl LaneValue for Quat {
    #[inline(always)]
    fn to_lanes<const W: usize>(self) -> [f32; W] {
        let mut out = [0.0; W];
        out[..4].copy_from_slice(&self.to_array());
        out
    }

    /// The scalar slerp's per-pair work, done once: equal keys hold, the far key is
    /// sign-aligned, and the angle and `1 / sinc(θ)` come from the same `f64` polynomials.
    #[inline(always)]
    fn pair<const W: usize>(l: &mut Lanes<W>, i: usize, a: Self, b: Self) {
        let (av, bv) = (a.to_lanes::<W>(), b.to_lanes::<W>());
        for c in 0..W {
            l.a[c][i] = av[c];
        }
        if a.to_array() == b.to_array() {
            l.hold[i] = true;
            return;
        }
        let (a64, b64) = (glam::Vec4::from(a).as_dvec4(), glam::Vec4::from(b).as_dvec4());
        let dot = a64.dot(b64);
        let sign = if dot < 0.0 { -1.0 } else { 1.0 };
        let dot = dot.abs();
        for c in 0..W {
            l.b[c][i] = sign * bv[c];
        }
        l.hold[i] = false;
        l.near[i] = dot >= NLERP_DOT;
        let theta = (1.0 - dot).sqrt() * acos_factor(dot);
        let th2 = theta * theta;
        l.th2[i] = th2 as f32;
        l.inv_sinc[i] = (1.0 / sinc_sq(th2)) as f32;
    }
}

/// Refreshes lane `i` from `track` at `t`: the scalar sampler's regions (before the first key,
/// between keys `k` and `k + 1`, from the last key on) and its cursor search; the lane stays
/// valid for the whole region.
#[cold]
fn refresh<T: LaneValue, const W: usize>(
    l: &mut Lanes<W>,
    i: usize,
    track: &Track<T>,
    t: f32,
    cursor: &mut usize,
) {
    let times = track.times.as_slice();
    let values = track.values.as_slice();
    let n = times.len(); // prepare() admits only well-formed LINEAR / STEP tracks
    if t.is_nan() || t <= times[0] {
        // t == times[0] refreshes every time (the lane is valid strictly below it)
        return l.hold(i, values[0].to_lanes(), f32::NEG_INFINITY, times[0]);
    }
    if t >= times[n - 1] {
        return l.hold(i, values[n - 1].to_lanes(), times[n - 1], f32::INFINITY);
    }
    let k = seek(times, t, cursor);
    let (t0, t1) = (times[k], times[k + 1]);
    if track.interpolation == Interpolation::Linear {
        l.near[i] = true;
        T::pair(l, i, values[k], values[k + 1]);
        (l.t0[i], l.dt[i]) = (t0, t1 - t0);
        (l.lo[i], l.hi[i]) = (t0, t1);
    } else {
        l.hold(i, values[k].to_lanes(), t0, t1);
    }
}

/// A per-player sampling context for [`Clip::sample_soa`]: the clip's channels, a key cursor per
/// channel and every channel's cached key pair in lanes. Sized on first use with a clip; no
/// allocation per frame afterwards. Any state gives the same result (a context used with
/// another clip rebuilds itself).
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
    /// Cached key pairs of `vec3`'s channels.
    v: Lanes<3>,
    /// Cached key pairs of `quat`'s channels.
    q: Lanes<4>,
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
            v: Lanes::new(),
            q: Lanes::new(),
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
        self.v.invalidate(self.vec3.len());
        self.q.invalidate(self.quat.len());
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
        self.v.fit(self.vec3.len());
        self.q.fit(self.quat.len());
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
    /// bit for bit), interpolated by `f32` vector kernels over the context's cached key pairs.
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
        let (v, q) = (&mut ctx.v, &mut ctx.q);
        // 1. refresh the lanes whose key pair no longer holds `time`
        for (i, (src, cursor)) in ctx.vec3.iter_mut().enumerate() {
            if !(time >= v.lo[i] && time < v.hi[i]) {
                let jt = &tracks[src.track as usize];
                let track = match src.part {
                    Part::Translation => &jt.translation,
                    _ => &jt.scale,
                };
                if let Some(track) = track {
                    refresh(v, i, track, time, cursor);
                }
            }
        }
        for (i, (src, cursor)) in ctx.quat.iter_mut().enumerate() {
            if !(time >= q.lo[i] && time < q.hi[i]) {
                if let Some(track) = &tracks[src.track as usize].rotation {
                    refresh(q, i, track, time, cursor);
                }
            }
        }
        // 2. interpolate every channel at once
        kernels::run(time, v, q);
        // 3. write the joints
        for (i, (src, _)) in ctx.quat.iter().enumerate() {
            if let Some(o) = out.get_mut(src.joint as usize) {
                o.rotation = Quat::from_xyzw(q.out[0][i], q.out[1][i], q.out[2][i], q.out[3][i]);
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
/// for the baseline target and with AVX2 (chosen at run time). No fused multiply-adds, so
/// vectors get the scalar path's bits.
mod kernels {
    use super::{Lanes, LANES};

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
        quat(t, q);
    }

    /// `a * (1 - s) + b * s` (the scalar LINEAR vector), or `a` on holding lanes.
    #[inline(always)]
    fn vec3(t: f32, l: &mut Lanes<3>) {
        let n = l.t0.len() / LANES * LANES; // padded: every lane
        for base in (0..n).step_by(LANES) {
            let r = base..base + LANES;
            let (t0, dt, hold) = (&l.t0[r.clone()], &l.dt[r.clone()], &l.hold[r.clone()]);
            let mut s = [0.0f32; LANES];
            for i in 0..LANES {
                s[i] = (t - t0[i]) / dt[i];
            }
            for c in 0..3 {
                let (a, b) = (&l.a[c][r.clone()], &l.b[c][r.clone()]);
                let out = &mut l.out[c][r.clone()];
                for i in 0..LANES {
                    let v = a[i] * (1.0 - s[i]) + b[i] * s[i];
                    out[i] = if hold[i] { a[i] } else { v };
                }
            }
        }
    }

    /// `sin(x)/x` as a function of `y = x²` for `x` in `[0, π/2]`, in `f32` (Taylor to
    /// `x^10`: truncation under 4e-8).
    #[inline(always)]
    fn sinc_sq(y: f32) -> f32 {
        const C: [f32; 6] = [
            1.0,
            -1.0 / 6.0,
            1.0 / 120.0,
            -1.0 / 5040.0,
            1.0 / 362_880.0,
            -1.0 / 39_916_800.0,
        ];
        C[0] + y * (C[1] + y * (C[2] + y * (C[3] + y * (C[4] + y * C[5]))))
    }

    /// Per lane: `a` when holding; the normalised lerp of `a` and the sign-aligned `b` for
    /// close keys; otherwise the slerp `a · sin(dθ)/sin θ + b · sin(sθ)/sin θ` with
    /// `sin(xθ)/sin θ = x · sinc(xθ) / sinc(θ)` (`1 / sinc(θ)` cached with the pair). Both are
    /// computed on every lane and one picked.
    #[inline(always)]
    fn quat(t: f32, l: &mut Lanes<4>) {
        let n = l.t0.len() / LANES * LANES;
        for base in (0..n).step_by(LANES) {
            let r = base..base + LANES;
            let (t0, dt) = (&l.t0[r.clone()], &l.dt[r.clone()]);
            let (hold, near) = (&l.hold[r.clone()], &l.near[r.clone()]);
            let (th2, inv) = (&l.th2[r.clone()], &l.inv_sinc[r.clone()]);
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
                let s = (t - t0[i]) / dt[i];
                let d = 1.0 - s;
                let swa = d * sinc_sq(d * d * th2[i]) * inv[i];
                let swb = s * sinc_sq(s * s * th2[i]) * inv[i];
                let (wa, wb) = if near[i] { (d, s) } else { (swa, swb) };
                let x = ax[i] * wa + bx[i] * wb;
                let y = ay[i] * wa + by[i] * wb;
                let z = az[i] * wa + bz[i] * wb;
                let w = aw[i] * wa + bw[i] * wb;
                let k = 1.0 / (x * x + y * y + z * z + w * w).sqrt();
                let k = if near[i] { k } else { 1.0 };
                let h = hold[i];
                ox[i] = if h { ax[i] } else { x * k };
                oy[i] = if h { ay[i] } else { y * k };
                oz[i] = if h { az[i] } else { z * k };
                ow[i] = if h { aw[i] } else { w * k };
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
