//! Recording a live session (parameters moved by hand, triggers pressed) into a new take.
//! Key edits themselves go through the timeline's [`super::timeline::keys`].

use marionette_anim::graph::{KeyInterpolation, ParamValue, Take};

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
            // frames sampled while paused share a time: the last value there holds (key times
            // increase, as in every take)
            keys.dedup_by(|later, earlier| {
                let same = later.0 == earlier.0;
                if same {
                    earlier.1 = later.1;
                }
                same
            });
            let interpolation = match keys.first().map(|k| k.1) {
                Some(ParamValue::Bool(_)) => KeyInterpolation::Step,
                _ => KeyInterpolation::Linear,
            };
            take = take.track(param.clone(), interpolation, keys);
        }
        let mut triggers = self.triggers;
        // a trigger fired twice at one time (while paused) fires once
        triggers.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        triggers.dedup();
        for (name, t) in triggers {
            take = take.trigger(name, t);
        }
        take
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        r.fire("jump");
        let take = r.into_take("rec", 10.0);
        let k = &take.tracks[0].keys;
        assert_eq!(k.first().map(|k| k.0), Some(0.0));
        assert!(k
            .iter()
            .any(|&(t, v)| (t - 0.4).abs() < 1e-6 && v == ParamValue::Float(0.0)));
        assert!(k
            .iter()
            .any(|&(t, v)| (t - 0.5).abs() < 1e-6 && v == ParamValue::Float(2.0)));
        assert_eq!(take.triggers.len(), 1);
        assert_eq!(take.check(), Ok(()));
    }

    /// Frames sampled while paused (one time, several values) give one key, the last value:
    /// the take follows the rules of every take.
    #[test]
    fn paused_frames_give_one_key() {
        let mut r = Recording::default();
        for (t, v) in [(0.0, 0.0), (0.5, 1.0), (0.5, 2.0), (0.5, 3.0), (1.0, 3.0)] {
            r.time = t;
            r.sample(vec![("speed".into(), ParamValue::Float(v))]);
        }
        let take = r.into_take("rec", 30.0);
        assert_eq!(
            take.tracks[0].keys,
            vec![
                (0.0, ParamValue::Float(0.0)),
                (0.5, ParamValue::Float(3.0)),
                (1.0, ParamValue::Float(3.0)),
            ]
        );
        assert_eq!(take.check(), Ok(()));
    }
}
