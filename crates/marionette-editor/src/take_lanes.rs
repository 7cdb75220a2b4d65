//! What the timeline's state and weight lanes show: the take simulated frame by frame (the
//! same [`marionette_anim::graph::Simulation`] the viewport plays), reading each state machine's
//! active state and transition and the weight of the clip and named nodes, and each foot's
//! contacts (drawn as a state lane: a `planted` bar per contact; the feet and thresholds are
//! the take's `assert_motion`'s, else the defaults, [`marionette_anim::motion`]). Recomputed
//! only when the take, its keys or the script change.

use super::session::Session;
use super::timeline::{StateLane, StateSpan, WeightLane};
use marionette_anim::graph::Take;
use marionette_anim::motion::Motion;
use marionette_anim::{time, Transform};

/// Weight lanes shown at most.
const MAX_WEIGHT_LANES: usize = 8;

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
    /// The take's broken motion assertions found by the last recomputation, for the console
    /// (taken by the caller).
    pub failures: Vec<String>,
}

impl TakeLanes {
    /// Recomputes the lanes when the session's take or script changed (live mode: none). The
    /// playhead's pose is evaluated again afterwards.
    pub fn update(&mut self, session: &mut Session) {
        let Some(take) = session.take().cloned() else {
            self.states.clear();
            self.weights.clear();
            self.events.clear();
            self.key = None;
            return;
        };
        let key = (take, session.generation(), session.passes_on());
        if self.key.as_ref() == Some(&key) {
            return;
        }
        let take = &key.0;
        let fps = take.fps.max(1.0);
        let steps = take.steps();
        let playhead = session.time();
        self.states.clear();
        self.weights.clear();
        self.events.clear();
        for (t, name) in &take.markers {
            self.events.push((*t, format!("marker {name}")));
        }
        let mut motion: Option<(Motion, Vec<Transform>)> = None;
        for step in 0..=steps {
            let t = step as f64 / f64::from(fps);
            session.seek(t);
            let Some(scripted) = session.graph() else {
                break;
            };
            let skeleton = &scripted.script().rig.skeleton;
            let (m, pose) = motion.get_or_insert_with(|| {
                let mut m = Motion::new(skeleton, fps);
                m.reserve(steps as usize + 1);
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
                self.events.push((t as f32, text));
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
                        weights: Vec::with_capacity(steps as usize + 1),
                    });
                }
                self.weights[i].weights.push(n.weight.clamp(0.0, 1.0));
            }
        }
        if let (Some((m, _)), Some(scripted)) = (&motion, session.graph()) {
            let (lanes, failures) = contact_lanes(scripted, &take.name, m);
            self.states.extend(lanes);
            self.failures = failures;
        }
        self.events.sort_by(|a, b| a.0.total_cmp(&b.0));
        session.seek(playhead);
        self.key = Some(key);
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
