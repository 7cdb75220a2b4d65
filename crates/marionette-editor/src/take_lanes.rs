//! What the timeline's state and weight lanes show: the take simulated frame by frame (the
//! same [`marionette_anim::graph::Simulation`] the viewport plays), reading each state machine's
//! active state and transition and the weight of the clip and named nodes, and each foot's
//! contacts (drawn as a state lane: a `planted` bar per contact; the feet and thresholds are
//! the take's `assert_motion`'s, else the defaults, [`marionette_anim::motion`]). Recomputed
//! only when the take, its keys or the script change.
//!
//! A long take is read a slice per frame ([`slice_for`]), so opening an hour of take keeps the
//! window responsive: the lanes fill in as it goes, the contacts and the take's broken
//! assertions come at the end. Only the feet (and the joints the take's assertions read, if it
//! has any) are recorded.

use std::time::{Duration, Instant};

use super::session::Session;
use super::timeline::{StateLane, StateSpan, WeightLane};
use marionette_anim::graph::Take;
use marionette_anim::motion::Motion;
use marionette_anim::{time, Transform};

/// Weight lanes shown at most.
const MAX_WEIGHT_LANES: usize = 8;

/// How much of a long take one frame reads: at least [`SLICE_STEPS`] steps (a take up to
/// 10 s at 60 fps is read at once, whatever the machine), then on for a quarter of the time
/// between frames, and at least [`MIN_SLICE`].
const SLICE_STEPS: u64 = 600;
/// The least time one frame spends reading a long take beyond its first [`SLICE_STEPS`] steps.
const MIN_SLICE: Duration = Duration::from_millis(4);

/// The time a frame spends reading a long take when frames come `interval` apart: a quarter
/// of it (the window keeps three quarters of its frame rate), at least [`MIN_SLICE`].
pub fn slice_for(interval: Duration) -> Duration {
    (interval / 4).max(MIN_SLICE)
}

/// The lanes of one take, and what they were computed for.
#[derive(Default)]
pub struct TakeLanes {
    /// One lane per state machine.
    pub states: Vec<StateLane>,
    /// One lane per clip or named node.
    pub weights: Vec<WeightLane>,
    /// The take's markers and the events it fires (clip and state events), `(time, text)` in
    /// time order, for the ruler.
    pub events: Vec<(f32, String)>,
    key: Option<(Take, u32, bool)>,
    /// The take being read, when it is not read to its end yet.
    pending: Option<Pending>,
    /// The take's broken motion assertions found by the last recomputation, for the console
    /// (taken by the caller).
    pub failures: Vec<String>,
}

/// A take read up to a step.
struct Pending {
    /// The next step to read.
    next: u64,
    /// The take's last step.
    steps: u64,
    /// The joints the contacts and assertions read, recorded so far, and the pose buffer.
    motion: Option<(Motion, Vec<Transform>)>,
    /// The events fired so far.
    events: Vec<(f32, String)>,
}

impl TakeLanes {
    /// Recomputes the lanes when the session's take or script changed (live mode: none), or
    /// goes on reading a long take for up to `slice` ([`TakeLanes::pending`]). The playhead's
    /// pose is evaluated again afterwards.
    pub fn update(&mut self, session: &mut Session, slice: Duration) {
        let Some(take) = session.take().cloned() else {
            self.states.clear();
            self.weights.clear();
            self.events.clear();
            self.key = None;
            self.pending = None;
            return;
        };
        let key = (take, session.generation(), session.passes_on());
        if self.key.as_ref() != Some(&key) {
            self.states.clear();
            self.weights.clear();
            self.events.clear();
            self.pending = Some(Pending {
                next: 0,
                steps: key.0.steps(),
                motion: None,
                events: Vec::new(),
            });
            self.key = Some(key);
        }
        if self.pending.is_some() {
            let playhead = session.time();
            self.read_slice(session, slice);
            session.seek(playhead);
        }
    }

    /// How far the take is read, 0 to 1, while it is not read to its end.
    pub fn pending(&self) -> Option<f32> {
        self.pending
            .as_ref()
            .map(|p| p.next as f32 / (p.steps + 1) as f32)
    }

    /// Reads the next slice of the take (and, at its end, the contacts and assertions).
    fn read_slice(&mut self, session: &mut Session, slice: Duration) {
        let (Some(p), Some((take, _, _))) = (self.pending.as_mut(), self.key.as_ref()) else {
            return;
        };
        let fps = take.fps.max(1.0);
        let start = Instant::now();
        let first = p.next;
        while p.next <= p.steps {
            if p.next - first >= SLICE_STEPS && start.elapsed() >= slice {
                return;
            }
            let step = p.next;
            p.next += 1;
            let t = step as f64 / f64::from(fps);
            session.seek(t);
            let Some(scripted) = session.graph() else {
                break;
            };
            let skeleton = &scripted.script().rig.skeleton;
            let (m, pose) = p.motion.get_or_insert_with(|| {
                // the feet for the contacts; the joints the take's assertions read, if any
                let script = scripted.script();
                let read = match script.motion_rules(&take.name) {
                    Ok(r) if script.spec.asserts_for(&take.name).is_some() => r.joints_read(),
                    Ok(r) => r.joints_measured(),
                    Err(_) => Vec::new(),
                };
                let mut m = Motion::of_joints(skeleton, fps, &read);
                m.reserve(p.steps as usize + 1);
                (m, skeleton.rest_pose().to_vec())
            });
            scripted.pose_with_root_motion(pose);
            m.push(skeleton, pose);
            let graph = scripted.graph();
            for e in graph.events() {
                let text = match e.state {
                    Some(state) => format!("event {} (state {state})", e.name),
                    None => format!("event {}", e.name),
                };
                p.events.push((t as f32, text));
            }
            for (i, sm) in graph.state_machines().enumerate() {
                if self.states.len() <= i {
                    let name = sm
                        .name
                        .map_or_else(|| format!("states #{}", sm.node.index()), str::to_string);
                    self.states.push(StateLane {
                        name,
                        spans: Vec::new(),
                    });
                }
                let (state, to) = match &sm.transition {
                    Some(tr) => (tr.from.to_string(), Some(tr.to.to_string())),
                    None => (sm.current.to_string(), None),
                };
                let end = time::step_time(step + 1, fps).min(take.duration);
                let spans = &mut self.states[i].spans;
                match spans.last_mut() {
                    Some(last) if last.state == state && last.transition_to == to => last.end = end,
                    _ => spans.push(StateSpan {
                        state,
                        start: time::step_time(step, fps),
                        end,
                        transition_to: to,
                    }),
                }
            }
            let nodes = graph
                .nodes()
                .filter(|n| n.kind == "clip" || n.name.is_some())
                .take(MAX_WEIGHT_LANES);
            for (i, n) in nodes.enumerate() {
                if self.weights.len() <= i {
                    // A node's own name, else the clip it plays, else its kind and id.
                    let name = match (n.name, n.clip) {
                        (Some(name), _) | (None, Some(name)) => name.to_string(),
                        (None, None) => format!("{} #{}", n.kind, n.id.index()),
                    };
                    self.weights.push(WeightLane {
                        name,
                        weights: Vec::with_capacity(p.steps as usize + 1),
                    });
                }
                self.weights[i].weights.push(n.weight.clamp(0.0, 1.0));
            }
        }
        // read to the end (or the script is gone): contacts, assertions, the ruler's events
        let Some(p) = self.pending.take() else {
            return;
        };
        if let (Some((m, _)), Some(scripted)) = (&p.motion, session.graph()) {
            let (lanes, failures) = contact_lanes(scripted, &take.name, m);
            self.states.extend(lanes);
            self.failures = failures;
        }
        // the script's markers (the session's takes hold none: the editor does not edit them)
        let markers = match session.graph() {
            Some(g) if take.markers.is_empty() => g
                .script()
                .spec
                .take(&take.name)
                .map(|t| t.markers.clone())
                .unwrap_or_default(),
            _ => take.markers.clone(),
        };
        self.events = markers
            .iter()
            .map(|(t, name)| (*t, format!("marker {name}")))
            .chain(p.events)
            .collect();
        self.events.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
}

/// One lane per foot, a `planted` span per contact, and the take's broken assertions as the
/// lines `check` prints (none when the assertions name joints the rig lacks: the script's load
/// reports that).
fn contact_lanes(
    scripted: &marionette_script::ScriptedGraph,
    take: &str,
    m: &Motion,
) -> (Vec<StateLane>, Vec<String>) {
    let script = scripted.script();
    let Ok(resolved) = script.motion_rules(take) else {
        return (Vec::new(), Vec::new());
    };
    let figures = resolved.measure(m);
    let names = script.rig.skeleton.names();
    let failures = match script.spec.asserts_for(take) {
        Some(_) => resolved
            .check(m, &figures, &|j| names[j].clone())
            .iter()
            .map(|f| f.line(take, m))
            .collect(),
        None => Vec::new(),
    };
    let contacts = figures.contacts;
    let lanes = resolved
        .feet()
        .map(|foot| StateLane {
            name: format!("{} contact", names[foot]),
            spans: contacts
                .iter()
                .filter(|c| c.joint == foot)
                .map(|c| StateSpan {
                    state: "planted".into(),
                    start: m.time(c.start),
                    end: m.time(c.end + 1).min(m.time(m.frames().saturating_sub(1))),
                    transition_to: None,
                })
                .collect(),
        })
        .collect();
    (lanes, failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks, runs and jumps for 40 s at 60 fps (2401 steps: four slices of at least 600).
    const LONG: &str = "local rig = marionette.rig()
params { speed = float(0, 0, 6), jump = trigger() }
local move = blend1d('speed', { { 0.0, rig.idle }, { 1.4, rig.walk }, { 4.0, rig.run } })
local body = state_machine {
  start = 'move',
  states = { move = move, jump = rig.jump:once() },
  transitions = {
    { 'move', 'jump', on = 'jump', blend = 0.15 },
    { 'jump', 'move', at_end = true, blend = 0.25 },
  },
}
return graph { root = body, takes = { long = { duration = 40, fps = 60,
  speed = { { 0, 0 }, { 10, 1.4 }, { 20, 4 }, { 30, 2 } }, jump = { 7, 14, 33 },
  markers = { { 20, 'sprint' } } } } }
";

    fn session(dir: &std::path::Path) -> Session {
        std::fs::create_dir_all(dir).expect("scratch folder");
        let script = dir.join("long.lua");
        std::fs::write(&script, LONG).expect("script");
        let mut s = Session::open(&script, &Default::default()).expect("opens");
        s.select(Some(0)).expect("the take plays");
        s
    }

    /// A long take read a slice per frame gives the lanes a single read gives, the playhead's
    /// pose is kept after every slice, and only the feet are recorded for the contacts.
    #[test]
    fn a_long_take_is_read_in_slices_with_the_same_lanes() {
        let dir = std::env::temp_dir().join(format!("marionette-lanes-{}", std::process::id()));
        let mut whole = session(&dir);
        let mut once = TakeLanes::default();
        once.update(&mut whole, Duration::from_secs(3600));
        assert_eq!(once.pending(), None, "read at once");

        let mut s = session(&dir);
        s.seek(12.5);
        let pose = s.pose().to_vec();
        let mut sliced = TakeLanes::default();
        let mut progress = Vec::new();
        for _ in 0..10 {
            sliced.update(&mut s, Duration::ZERO);
            assert_eq!(
                s.pose(),
                pose.as_slice(),
                "the playhead's pose after a slice"
            );
            assert_eq!(s.time(), 12.5);
            progress.push(sliced.pending());
        }
        // 600 steps per slice with no time to spare: 2401 steps are read in five slices
        assert_eq!(progress[0], Some(600.0 / 2401.0), "{progress:?}");
        assert_eq!(progress[3], Some(2400.0 / 2401.0), "{progress:?}");
        assert_eq!(progress[4], None, "{progress:?}");
        assert_eq!(sliced.states, once.states);
        assert_eq!(sliced.weights, once.weights);
        assert_eq!(sliced.events, once.events);
        let contacts = sliced
            .states
            .iter()
            .filter(|l| l.name.ends_with(" contact"));
        assert_eq!(
            contacts.count(),
            2,
            "{:?}",
            sliced.states.iter().map(|l| &l.name)
        );
        let jumps = sliced.states[0]
            .spans
            .iter()
            .filter(|s| s.state == "jump" && s.transition_to.is_none())
            .map(|s| s.start);
        assert_eq!(
            jumps.collect::<Vec<_>>(),
            [7.15, 14.15, 33.15],
            "{:?}",
            sliced.states[0]
        );
        assert_eq!(sliced.weights[0].weights.len(), 2401);
        // the script's marker is on the ruler with the events
        assert!(
            sliced.events.contains(&(20.0, "marker sprint".to_string())),
            "{:?}",
            sliced.events
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
