//! Edit operations on a [`Take`]'s keys and triggers: pure functions that the timeline widget,
//! the editor's recording and its undo call.
//!
//! Times are snapped to the take's frame grid (`round(t × fps) / fps`, through
//! [`marionette_anim::time::frame_nearest`]); two keys of one track
//! never share a frame (a key written at an occupied frame replaces the one there); a track's keys
//! and the take's triggers are kept sorted by time. An emptied track is kept (its interpolation
//! too); the runtime skips tracks without keys.

use glam::Vec3;

use marionette_anim::graph::{
    KeyInterpolation, ParamKind, ParamTrack, ParamValue, Take, TakeTrigger,
};
use marionette_anim::time;

/// An edit that does not fit the take.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum KeyError {
    /// The value's kind differs from the kind of the track's existing keys.
    #[error("parameter '{param}': a {found} key on a {expected} track")]
    Kind {
        /// Parameter name.
        param: String,
        /// Kind of the track's keys.
        expected: &'static str,
        /// Kind of the new value.
        found: &'static str,
    },
    /// Trigger parameters have triggers, not keys.
    #[error("parameter '{0}': a trigger is keyed with add_trigger, not as a key")]
    TriggerKey(String),
    /// A time or value that is not finite.
    #[error("parameter '{0}': time or value is not finite")]
    NotFinite(String),
    /// No key (or trigger) at that index.
    #[error("parameter '{param}': no key #{index}")]
    NoKey {
        /// Parameter name (empty for triggers).
        param: String,
        /// The index asked for.
        index: usize,
    },
}

/// `t` on the frame grid of `fps` (unchanged when `fps` is not a positive number).
pub fn snap_time(t: f32, fps: f32) -> f32 {
    if fps.is_finite() && fps > 0.0 {
        (time::frame_nearest(f64::from(t), fps) / f64::from(fps)) as f32
    } else {
        t
    }
}

/// The frame number of `t` at `fps` (nearest).
pub fn frame_of(t: f32, fps: f32) -> i64 {
    if fps.is_finite() && fps > 0.0 {
        time::frame_nearest(f64::from(t), fps) as i64
    } else {
        0
    }
}

/// The track of `param`, if the take has one.
pub fn track<'a>(take: &'a Take, param: &str) -> Option<&'a ParamTrack> {
    take.tracks.iter().find(|t| t.param == param)
}

/// The track of `param`, created empty when missing (bools step, everything else is linear).
fn track_or_new<'a>(take: &'a mut Take, param: &str, kind: ParamKind) -> &'a mut ParamTrack {
    let i = match take.tracks.iter().position(|t| t.param == param) {
        Some(i) => i,
        None => {
            let interpolation = if kind == ParamKind::Bool {
                KeyInterpolation::Step
            } else {
                KeyInterpolation::Linear
            };
            take.tracks.push(ParamTrack {
                param: param.into(),
                interpolation,
                keys: Vec::new(),
            });
            take.tracks.len() - 1
        }
    };
    &mut take.tracks[i]
}

fn check_value(param: &str, time: f32, value: ParamValue) -> Result<(), KeyError> {
    let finite = match value {
        ParamValue::Float(v) => v.is_finite(),
        ParamValue::Vec3(v) => v.is_finite(),
        ParamValue::Bool(_) => true,
        ParamValue::Trigger(_) => return Err(KeyError::TriggerKey(param.into())),
    };
    if !finite || !time.is_finite() {
        return Err(KeyError::NotFinite(param.into()));
    }
    Ok(())
}

fn check_kind(track: &ParamTrack, value: ParamValue) -> Result<(), KeyError> {
    match track.keys.first() {
        Some((_, v)) if v.kind() != value.kind() => Err(KeyError::Kind {
            param: track.param.clone(),
            expected: v.kind().name(),
            found: value.kind().name(),
        }),
        _ => Ok(()),
    }
}

fn sort_keys(keys: &mut [(f32, ParamValue)]) {
    keys.sort_by(|a, b| a.0.total_cmp(&b.0));
}

/// Inserts `(time, value)` into sorted keys, replacing any key on the same frame; returns its
/// index.
fn insert_key(keys: &mut Vec<(f32, ParamValue)>, fps: f32, time: f32, value: ParamValue) -> usize {
    let frame = frame_of(time, fps);
    keys.retain(|k| frame_of(k.0, fps) != frame);
    let i = keys.partition_point(|k| k.0 < time);
    keys.insert(i, (time, value));
    i
}

/// Adds a key to `param`'s track at `time` (snapped to a frame), creating the track if missing
/// and replacing a key on the same frame. Returns the new key's index.
pub fn add_key(
    take: &mut Take,
    param: &str,
    time: f32,
    value: ParamValue,
) -> Result<usize, KeyError> {
    check_value(param, time, value)?;
    let fps = take.fps;
    let time = snap_time(time, fps);
    let track = track_or_new(take, param, value.kind());
    check_kind(track, value)?;
    sort_keys(&mut track.keys);
    Ok(insert_key(&mut track.keys, fps, time, value))
}

/// Recording: `param` was moved to `value` while the playhead was at `time`; writes a key on
/// that frame (see [`add_key`]).
pub fn set_key_at(
    take: &mut Take,
    param: &str,
    time: f32,
    value: ParamValue,
) -> Result<usize, KeyError> {
    add_key(take, param, time, value)
}

/// Moves key `index` of `param` to `time` (snapped) with `value`; a key already on the target
/// frame is replaced. Returns the key's new index.
pub fn move_key(
    take: &mut Take,
    param: &str,
    index: usize,
    time: f32,
    value: ParamValue,
) -> Result<usize, KeyError> {
    check_value(param, time, value)?;
    let fps = take.fps;
    let no_key = || KeyError::NoKey {
        param: param.into(),
        index,
    };
    let track = take
        .tracks
        .iter_mut()
        .find(|t| t.param == param)
        .ok_or_else(no_key)?;
    if index >= track.keys.len() {
        return Err(no_key());
    }
    check_kind(track, value)?;
    sort_keys(&mut track.keys);
    track.keys.remove(index);
    Ok(insert_key(
        &mut track.keys,
        fps,
        snap_time(time, fps),
        value,
    ))
}

/// Deletes key `index` of `param`; returns it.
pub fn delete_key(
    take: &mut Take,
    param: &str,
    index: usize,
) -> Result<(f32, ParamValue), KeyError> {
    let track = take.tracks.iter_mut().find(|t| t.param == param);
    match track {
        Some(track) if index < track.keys.len() => {
            sort_keys(&mut track.keys);
            Ok(track.keys.remove(index))
        }
        _ => Err(KeyError::NoKey {
            param: param.into(),
            index,
        }),
    }
}

/// Sets how `param`'s track interpolates (step or smooth = linear), creating an empty track if
/// missing. Returns whether anything changed.
pub fn set_interpolation(take: &mut Take, param: &str, interpolation: KeyInterpolation) -> bool {
    match take.tracks.iter_mut().find(|t| t.param == param) {
        Some(t) if t.interpolation == interpolation => false,
        Some(t) => {
            t.interpolation = interpolation;
            true
        }
        None => {
            take.tracks.push(ParamTrack {
                param: param.into(),
                interpolation,
                keys: Vec::new(),
            });
            true
        }
    }
}

/// Adds a trigger of `param` at `time` (snapped); a trigger of the same parameter on that frame
/// is kept instead of doubled. Returns its index in `take.triggers`.
pub fn add_trigger(take: &mut Take, param: &str, time: f32) -> Result<usize, KeyError> {
    if !time.is_finite() {
        return Err(KeyError::NotFinite(param.into()));
    }
    let fps = take.fps;
    let time = snap_time(time, fps);
    let frame = frame_of(time, fps);
    take.triggers
        .retain(|t| !(t.param == param && frame_of(t.time, fps) == frame));
    take.triggers.sort_by(|a, b| a.time.total_cmp(&b.time));
    let i = take.triggers.partition_point(|t| t.time <= time);
    take.triggers.insert(
        i,
        TakeTrigger {
            param: param.into(),
            time,
        },
    );
    Ok(i)
}

/// Moves trigger `index` to `time` (snapped), merging with a trigger of the same parameter on
/// the target frame. Returns its new index.
pub fn move_trigger(take: &mut Take, index: usize, time: f32) -> Result<usize, KeyError> {
    let trigger = delete_trigger(take, index)?;
    add_trigger(take, &trigger.param, time)
}

/// Deletes trigger `index`; returns it.
pub fn delete_trigger(take: &mut Take, index: usize) -> Result<TakeTrigger, KeyError> {
    if index >= take.triggers.len() {
        return Err(KeyError::NoKey {
            param: String::new(),
            index,
        });
    }
    take.triggers.sort_by(|a, b| a.time.total_cmp(&b.time));
    Ok(take.triggers.remove(index))
}

/// The value of a track at time `t` (the runtime's rule: the first key holds before, the last
/// after; linear tracks interpolate floats and vectors). `None` without keys. Keys must be sorted.
pub fn value_at(track: &ParamTrack, t: f32) -> Option<ParamValue> {
    let keys = &track.keys;
    let i = keys.partition_point(|k| k.0 <= t);
    if i == 0 {
        return keys.first().map(|k| k.1);
    }
    if i == keys.len() {
        return Some(keys[i - 1].1);
    }
    let (t0, a) = keys[i - 1];
    let (t1, b) = keys[i];
    let s = if t1 > t0 { (t - t0) / (t1 - t0) } else { 0.0 };
    Some(match (track.interpolation, a, b) {
        (KeyInterpolation::Linear, ParamValue::Float(a), ParamValue::Float(b)) => {
            ParamValue::Float(a + (b - a) * s)
        }
        (KeyInterpolation::Linear, ParamValue::Vec3(a), ParamValue::Vec3(b)) => {
            ParamValue::Vec3(Vec3::lerp(a, b, s))
        }
        _ => a,
    })
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod tests;
