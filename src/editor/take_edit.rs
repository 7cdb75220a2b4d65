//! Editing a take's keys from the editor (the parameters panel's key list and recording):
//! set a key at a time, move one, delete one, and turn a recorded live session into a take.
//! Keys stay sorted by time; a key within half a frame of an existing one replaces it.

use crate::anim::graph::{KeyInterpolation, ParamTrack, ParamValue, Take};

/// Sets `param`'s key at `time` to `value` (creating the track when missing). Returns the
/// key's index in its track.
pub fn set_key(take: &mut Take, param: &str, time: f32, value: ParamValue) -> usize {
    let half_frame = 0.5 / take.fps.max(1.0);
    let time = time.clamp(0.0, take.duration);
    let track = match take.tracks.iter().position(|t| t.param == param) {
        Some(i) => &mut take.tracks[i],
        None => {
            let interpolation = match value {
                ParamValue::Bool(_) | ParamValue::Trigger(_) => KeyInterpolation::Step,
                _ => KeyInterpolation::Linear,
            };
            take.tracks.push(ParamTrack {
                param: param.to_string(),
                interpolation,
                keys: Vec::new(),
            });
            let last = take.tracks.len() - 1;
            &mut take.tracks[last]
        }
    };
    if let Some(i) = track
        .keys
        .iter()
        .position(|(t, _)| (t - time).abs() <= half_frame)
    {
        track.keys[i].1 = value;
        return i;
    }
    let i = track.keys.partition_point(|(t, _)| *t < time);
    track.keys.insert(i, (time, value));
    i
}

/// Moves key `index` of `param` to `time` (re-sorted); returns its new index.
pub fn move_key(take: &mut Take, param: &str, index: usize, time: f32) -> Option<usize> {
    let duration = take.duration;
    let track = take.tracks.iter_mut().find(|t| t.param == param)?;
    if index >= track.keys.len() {
        return None;
    }
    let (_, value) = track.keys.remove(index);
    let time = time.clamp(0.0, duration);
    let i = track.keys.partition_point(|(t, _)| *t < time);
    track.keys.insert(i, (time, value));
    Some(i)
}

/// Deletes key `index` of `param` (an emptied track is removed). True when a key went.
pub fn delete_key(take: &mut Take, param: &str, index: usize) -> bool {
    let Some(ti) = take.tracks.iter().position(|t| t.param == param) else {
        return false;
    };
    let track = &mut take.tracks[ti];
    if index >= track.keys.len() {
        return false;
    }
    track.keys.remove(index);
    if track.keys.is_empty() {
        take.tracks.remove(ti);
    }
    true
}

/// The keys of `param` in `take` (empty when it has no track).
pub fn keys<'a>(take: &'a Take, param: &str) -> &'a [(f32, ParamValue)] {
    take.tracks
        .iter()
        .find(|t| t.param == param)
        .map_or(&[], |t| t.keys.as_slice())
}

/// A live session being recorded: parameter values sampled every frame and triggers fired.
#[derive(Default)]
pub struct Recording {
    /// Seconds recorded.
    pub time: f32,
    samples: Vec<(f32, Vec<(String, ParamValue)>)>,
    triggers: Vec<(String, f32)>,
}

impl Recording {
    /// Adds one frame's parameter values (triggers excluded) at the recording's time.
    pub fn sample(&mut self, values: Vec<(String, ParamValue)>) {
        self.samples.push((self.time, values));
    }

    /// Notes a trigger fired now.
    pub fn fire(&mut self, name: &str) {
        self.triggers.push((name.to_string(), self.time));
    }

    /// The recorded session as a take at `fps`: one key where a value changes (and its
    /// neighbours, so linear interpolation replays the held values exactly), triggers as
    /// trigger events.
    pub fn into_take(self, name: &str, fps: f32) -> Take {
        let mut take = Take::new(name, self.time.max(1.0 / fps)).fps(fps);
        let names: Vec<String> = self
            .samples
            .first()
            .map(|(_, v)| v.iter().map(|(n, _)| n.clone()).collect())
            .unwrap_or_default();
        for (pi, param) in names.iter().enumerate() {
            let series: Vec<(f32, ParamValue)> = self
                .samples
                .iter()
                .filter_map(|(t, v)| v.get(pi).map(|(_, x)| (*t, *x)))
                .collect();
            let mut keys: Vec<(f32, ParamValue)> = Vec::new();
            for (i, &(t, v)) in series.iter().enumerate() {
                let prev = i.checked_sub(1).map(|j| series[j].1);
                let next = series.get(i + 1).map(|s| s.1);
                if prev != Some(v) || next.is_some_and(|n| n != v) || next.is_none() {
                    keys.push((t, v));
                }
            }
            let interpolation = match keys.first().map(|k| k.1) {
                Some(ParamValue::Bool(_)) => KeyInterpolation::Step,
                _ => KeyInterpolation::Linear,
            };
            take = take.track(param.clone(), interpolation, keys);
        }
        for (name, t) in self.triggers {
            take = take.trigger(name, t);
        }
        take
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys stay sorted; a key near an existing one replaces it; move and delete work.
    #[test]
    fn set_move_delete() {
        let mut take = Take::new("t", 4.0).fps(30.0);
        set_key(&mut take, "speed", 2.0, ParamValue::Float(1.0));
        set_key(&mut take, "speed", 1.0, ParamValue::Float(0.5));
        assert_eq!(keys(&take, "speed")[0].0, 1.0);
        set_key(&mut take, "speed", 1.01, ParamValue::Float(0.7));
        assert_eq!(keys(&take, "speed").len(), 2);
        assert_eq!(keys(&take, "speed")[0].1, ParamValue::Float(0.7));
        assert_eq!(move_key(&mut take, "speed", 0, 3.0), Some(1));
        assert_eq!(keys(&take, "speed")[1], (3.0, ParamValue::Float(0.7)));
        assert!(delete_key(&mut take, "speed", 0));
        assert!(delete_key(&mut take, "speed", 0));
        assert!(take.tracks.is_empty());
    }

    /// A recording keeps changes and the held ends, and its triggers.
    #[test]
    fn recording_to_take() {
        let mut r = Recording::default();
        for i in 0..10 {
            r.time = i as f32 / 10.0;
            let v = if i < 5 { 0.0 } else { 2.0 };
            r.sample(vec![("speed".into(), ParamValue::Float(v))]);
        }
        r.fire("jump");
        let take = r.into_take("rec", 10.0);
        let k = keys(&take, "speed");
        assert_eq!(k.first().map(|k| k.0), Some(0.0));
        assert!(k
            .iter()
            .any(|&(t, v)| (t - 0.4).abs() < 1e-6 && v == ParamValue::Float(0.0)));
        assert!(k
            .iter()
            .any(|&(t, v)| (t - 0.5).abs() < 1e-6 && v == ParamValue::Float(2.0)));
        assert_eq!(take.triggers.len(), 1);
    }
}
