//! `check --report FILE`: every figure measured on every take (as it is evaluated, post
//! operations applied), for CI dashboards. The schema (documented in the guide's JSON page):
//! `{"takes": {"NAME": {"foot_slide_mm": {"worst": W, "mean": M}, ...}}}`.

use std::collections::BTreeMap;

use serde::Serialize;

use marionette_anim::motion::{Contact, Figures, Worst};
use marionette_anim::Skeleton;
use marionette_bake::TakeQuality;

/// The whole report.
#[derive(Serialize)]
pub struct MotionReport {
    /// Per take, by name.
    pub takes: BTreeMap<String, TakeReport>,
}

/// Worst and mean of a measure.
#[derive(Serialize)]
pub struct WorstMean {
    /// The largest.
    pub worst: f32,
    /// The mean.
    pub mean: f32,
}

/// Where a figure was reached.
#[derive(Serialize)]
pub struct At {
    /// The value.
    pub value: f32,
    /// The joint.
    pub joint: String,
    /// Time, seconds.
    pub time: f32,
    /// Frame.
    pub frame: usize,
}

/// A contact span in seconds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Span {
    /// First planted frame's time.
    pub start: f32,
    /// Last planted frame's time.
    pub end: f32,
}

/// A joint's angles away from rest, degrees.
#[derive(Serialize)]
pub struct Range {
    /// Smallest.
    pub min: f32,
    /// Largest.
    pub max: f32,
}

/// One take's figures.
#[derive(Serialize)]
pub struct TakeReport {
    /// Frames measured.
    pub frames: usize,
    /// Frames per second.
    pub fps: f32,
    /// Planted feet's travel per contact, mm (`null`: no contacts).
    pub foot_slide_mm: Option<WorstMean>,
    /// The contact that slides worst.
    pub worst_contact: Option<At>,
    /// Each foot's contacts.
    pub contacts: BTreeMap<String, Vec<Span>>,
    /// Fastest turn of a joint, degrees per second.
    pub max_joint_speed: Option<At>,
    /// Largest change of a joint's angular velocity between frames, degrees per second.
    pub angular_velocity_jump: Option<At>,
    /// Limited joints' angles from rest, degrees.
    pub limits: BTreeMap<String, Range>,
    /// Deepest a ground joint goes under the ground, mm (`null`: no ground assertion).
    pub ground_penetration_mm: Option<At>,
    /// Frames with a number that is not finite.
    pub nan_frames: usize,
    /// Whether the take has assertions.
    pub asserted: bool,
    /// Broken assertions, one line each.
    pub failures: Vec<String>,
    /// The take's bake passes, and whether the frames measured are after them.
    pub passes: super::passes::PassesReport,
}

fn name(skeleton: &Skeleton, j: usize) -> String {
    skeleton.names().get(j).cloned().unwrap_or_default()
}

fn at(skeleton: &Skeleton, fps: f32, w: &Option<Worst>) -> Option<At> {
    w.map(|w| At {
        value: w.value,
        joint: name(skeleton, w.joint),
        time: marionette_anim::time::step_time(w.frame as u64, fps),
        frame: w.frame,
    })
}

/// Each foot's contacts, in seconds (also `run --json`'s `contacts`).
pub fn contact_spans(skeleton: &Skeleton, q: &TakeQuality) -> BTreeMap<String, Vec<Span>> {
    spans(skeleton, &q.figures.contacts, q.fps)
}

/// `contacts` (frames at `fps`) by foot, in seconds: the one shape every report gives them
/// (`check --report`, `run --json`, `inspect --json`).
pub fn spans(skeleton: &Skeleton, contacts: &[Contact], fps: f32) -> BTreeMap<String, Vec<Span>> {
    let time = |frame: usize| marionette_anim::time::step_time(frame as u64, fps);
    let mut out: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for c in contacts {
        out.entry(name(skeleton, c.joint)).or_default().push(Span {
            start: time(c.start),
            end: time(c.end),
        });
    }
    out
}

/// One take's report.
pub fn take_report(
    skeleton: &Skeleton,
    q: &TakeQuality,
    passes: super::passes::PassesReport,
) -> TakeReport {
    let f: &Figures = &q.figures;
    let time = |frame: usize| marionette_anim::time::step_time(frame as u64, q.fps);
    let contacts = contact_spans(skeleton, q);
    TakeReport {
        frames: f.frames,
        fps: q.fps,
        foot_slide_mm: f.foot_slide.map(|s| WorstMean {
            worst: s.worst_mm,
            mean: s.mean_mm,
        }),
        worst_contact: f.foot_slide.map(|s| At {
            value: s.worst_mm,
            joint: name(skeleton, s.worst.joint),
            time: time(s.worst.start),
            frame: s.worst.start,
        }),
        contacts,
        max_joint_speed: at(skeleton, q.fps, &f.joint_speed),
        angular_velocity_jump: at(skeleton, q.fps, &f.velocity_jump),
        limits: f
            .angles
            .iter()
            .map(|&(j, min, max)| (name(skeleton, j), Range { min, max }))
            .collect(),
        ground_penetration_mm: at(skeleton, q.fps, &f.penetration),
        nan_frames: f.nan_frames,
        asserted: q.asserted,
        failures: q.failures.clone(),
        passes,
    }
}
