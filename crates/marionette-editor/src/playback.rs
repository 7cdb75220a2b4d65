//! The playhead: playback by the frame's dt (looping or stopping at the end of the take),
//! seeking and frame steps, ghost poses around the playhead, and sampling a live recording.

use super::viewport::Ghost;
use marionette_anim::time;

use super::app::Editor;

impl Editor {
    /// Moves the playhead by `dt` seconds of playback (looping or stopping at the end; with a
    /// loop range on the ruler, looping within it).
    pub(crate) fn advance(&mut self, dt: f64) {
        let t = self.session.time() + dt * f64::from(self.window.transport.speed);
        let range = self.layout.timeline.loop_range.filter(|(a, b)| b > a);
        if let (Some((a, b)), Some(_), true) = (
            range,
            self.session.duration(),
            self.window.transport.looping,
        ) {
            let (a, b) = (f64::from(a), f64::from(b));
            let now = self.session.time();
            // inside the range it wraps at its end; from outside, playback goes into it
            let t = if now < a || now > b {
                a
            } else if t > b {
                a + (t - a) % (b - a)
            } else {
                t
            };
            self.session.seek(t);
            return;
        }
        match self.session.duration() {
            Some(d) if t > f64::from(d) => {
                let d = f64::from(d);
                if self.window.transport.looping && d > 0.0 {
                    self.session.seek(t % d);
                } else {
                    self.session.seek(d);
                    self.window.transport.playing = false;
                }
            }
            Some(_) => self.session.seek(t),
            None => {
                self.session.seek(t);
                if let Some(r) = self.window.record.as_mut() {
                    r.time += dt as f32;
                }
            }
        }
    }

    /// Seeks the playhead to `t` seconds (pauses playback).
    pub fn seek(&mut self, t: f64) {
        self.window.transport.playing = false;
        self.session.seek(t);
    }

    /// Steps one frame of the take's fps (`-1` back, `1` forward).
    pub fn step_frame(&mut self, dir: i32) {
        let fps = self.session.fps();
        let frame = time::frame_nearest(self.session.time(), fps) + f64::from(dir);
        self.seek(frame.max(0.0) / f64::from(fps));
    }

    /// Ghost poses around the playhead (take mode, when shown), then the playhead again.
    pub(crate) fn collect_ghosts(&mut self) {
        let n = 3;
        let show = self.viewport.overlays.ghosts && self.session.take_index().is_some();
        if !show {
            self.window.ghosts.clear();
            return;
        }
        let t = self.session.time();
        let step = 1.0 / 6.0;
        self.window.ghosts.resize_with(2 * n, Ghost::default);
        let ks: Vec<i32> = (-(n as i32)..=n as i32).filter(|&k| k != 0).collect();
        for (slot, k) in ks.into_iter().enumerate() {
            let tk = (t + f64::from(k) * step).max(0.0);
            let g = &mut self.window.ghosts[slot];
            g.world = self.session.pose_at(tk, &mut g.local, &mut g.morphs);
        }
        self.session.seek(t);
    }

    /// The previous script's pose at the playhead (A/B), while it shows: a few seconds after a
    /// reload, or while the toolbar's A/B is on; its graph is dropped once it is not wanted.
    pub(crate) fn collect_compare(&mut self) {
        let wanted = self.viewport.overlays.compare || self.window.now < self.window.compare_until;
        if !wanted {
            if self.window.compare.take().is_some() {
                self.session.forget_previous();
            }
            return;
        }
        let t = self.session.time();
        let g = self.window.compare.get_or_insert_with(Ghost::default);
        match self
            .session
            .previous_pose_at(t, &mut g.local, &mut g.morphs)
        {
            Some(world) => g.world = world,
            None => self.window.compare = None,
        }
    }

    /// Live recording: one sample of the parameter values per frame.
    pub(crate) fn sample_recording(&mut self) {
        if let (Some(r), Some(g)) = (self.window.record.as_mut(), self.session.graph()) {
            r.sample(g.play_state().params);
        }
    }
}
