//! Edit operations on a [`Take`]'s keys and triggers: pure functions that the timeline widget,
//! the editor's recording and its undo call.
//!
//! Times are snapped to the take's frame grid (`round(t × fps) / fps`, through
//! [`marionette_anim::time::frame_nearest`]); two keys of one track
//! never share a frame (a key written at an occupied frame replaces the one there); a track's keys
//! and the take's triggers are kept sorted by time. An emptied track is kept (its interpolation
//! too); the runtime skips tracks without keys.

use marionette_anim::graph::{
    Ease, KeyInterpolation, ParamKind, ParamTrack, ParamValue, Take, TakeTrigger,
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
    /// Explicit slopes on a track that is not of floats.
    #[error("parameter '{0}': explicit slopes are for float parameters")]
    Slopes(String),
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
                eases: Vec::new(),
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

/// Inserts `(time, value)` into the sorted keys of `track`, replacing any key on the same
/// frame, with `ease` (`None`: the track's own for a new key, the replaced key's for one on an
/// occupied frame); returns its index.
fn insert_key(
    track: &mut ParamTrack,
    fps: f32,
    time: f32,
    value: ParamValue,
    ease: Option<Ease>,
) -> usize {
    let frame = frame_of(time, fps);
    let default = Ease::of_track(track.interpolation);
    let mut eases: Vec<Ease> = (0..track.keys.len()).map(|k| track.ease(k)).collect();
    let replaced = track.keys.iter().position(|k| frame_of(k.0, fps) == frame);
    let ease = ease.unwrap_or_else(|| replaced.map_or(default, |k| eases[k]));
    let mut k = 0;
    track.keys.retain(|key| {
        let keep = frame_of(key.0, fps) != frame;
        if !keep {
            eases.remove(k);
        } else {
            k += 1;
        }
        keep
    });
    let i = track.keys.partition_point(|k| k.0 < time);
    track.keys.insert(i, (time, value));
    eases.insert(i, ease);
    set_eases(track, eases);
    i
}

/// Stores `eases` (one per key) in `track`, as none when every key follows the track.
fn set_eases(track: &mut ParamTrack, eases: Vec<Ease>) {
    let default = Ease::of_track(track.interpolation);
    track.eases = if eases.iter().all(|&e| e == default) {
        Vec::new()
    } else {
        eases
    };
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
    track.sort();
    Ok(insert_key(track, fps, time, value, None))
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
    track.sort();
    let ease = track.ease(index);
    track.keys.remove(index);
    if !track.eases.is_empty() {
        track.eases.remove(index);
    }
    Ok(insert_key(
        track,
        fps,
        snap_time(time, fps),
        value,
        Some(ease),
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
            track.sort();
            if !track.eases.is_empty() {
                track.eases.remove(index);
            }
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
                eases: Vec::new(),
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

/// Sets the ease of keys `indices` of `param`'s track (their order in its sorted keys);
/// returns whether anything changed. Explicit slopes are for float tracks only.
pub fn set_ease(
    take: &mut Take,
    param: &str,
    indices: &[usize],
    ease: Ease,
) -> Result<bool, KeyError> {
    let track = take.tracks.iter_mut().find(|t| t.param == param);
    let Some(track) = track else {
        return Err(KeyError::NoKey {
            param: param.into(),
            index: indices.first().copied().unwrap_or(0),
        });
    };
    if let Some(&bad) = indices.iter().find(|&&i| i >= track.keys.len()) {
        return Err(KeyError::NoKey {
            param: param.into(),
            index: bad,
        });
    }
    let float = matches!(track.keys.first(), Some((_, ParamValue::Float(_))));
    if matches!(ease, Ease::Slopes { .. }) && !float {
        return Err(KeyError::Slopes(param.into()));
    }
    track.sort();
    let mut eases: Vec<Ease> = (0..track.keys.len()).map(|k| track.ease(k)).collect();
    let before = eases.clone();
    for &i in indices {
        eases[i] = ease;
    }
    let changed = eases != before;
    set_eases(track, eases);
    Ok(changed)
}

/// The value of a track at time `t`, as a take plays it (the first key holds before, the last
/// after; between, each key's ease). `None` without keys. Keys must be sorted.
pub fn value_at(track: &ParamTrack, t: f32) -> Option<ParamValue> {
    track.value_at(t)
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod tests;
