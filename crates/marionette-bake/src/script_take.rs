//! Baking a script's takes: every frame is the preview's pose, evaluated by the same
//! [`ScriptedGraph`] (script -> graph -> post) that `marionette run` and the viewer use, so a
//! baked frame equals the preview at the same time and parameters, to the bit (design
//! property 1).
//!
//! A take is simulated at the bake's rate (its own `fps`, or the override): frame `i` is
//! simulation step `i`, at [`step_time`](marionette_anim::time::step_time)`(i, fps)`, and the take
//! has `round(duration × fps)` steps ([`Take::steps`]), so frames `0..=steps`.
//!
//! What goes into the take's [`TakeMeta`] (and so into the animation's `extras`):
//! - **events**: each trigger the take fires (`name` = the trigger parameter, `time` = the
//!   time written in the take), each clip event a player crosses (`time` = the frame it was
//!   crossed in, `value` = `{ "clip_time", "weight" }`) and each state event that fires
//!   (`value` = `{ "state", "state_time", "weight" }`), in time order;
//! - **markers**: the state each state machine is in at the start (time 0) and every state it
//!   enters later (`name` = the state, `time` = the first frame it is current), each foot
//!   contact (`L_foot down` at its first planted frame, `L_foot up` at the first frame after it;
//!   feet and thresholds as `check --report` measures them: the take's `assert_motion`'s, else
//!   the defaults), and the take's own `markers = { {time, "name"} }`, all in time order.

use crate::{bake_frames, BakedTake, Marker, TakeEvent};
use marionette_anim::graph::Take;
use marionette_anim::motion::Motion;
use marionette_anim::root_motion::{keep_in_place, RootSpace};
use marionette_anim::Transform;

use marionette_script::spec::RootMotionMode;
use marionette_script::{ScriptError, ScriptedGraph};

/// How a script take is baked.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScriptBake {
    /// Frames (and simulation steps) per second; `None` = the take's own rate.
    pub fps: Option<f32>,
    /// Keep the character in place: without root motion in the script, ground-plane travel
    /// and turning are removed from the root joints, relative to the first frame
    /// ([`keep_in_place`] with [`RootMotionMode::Ground`]); with it, the
    /// graph's in-place pose is written and the extracted motion dropped. By default the root
    /// joints carry the motion ([`ScriptedGraph::pose_with_root_motion`]).
    pub in_place: bool,
}

/// The take's rate under `options`, and its frame count (`steps + 1`).
pub fn take_frames(
    graph: &ScriptedGraph,
    take: &str,
    options: &ScriptBake,
) -> Result<(f32, usize), ScriptError> {
    let data = graph
        .take_data(take)
        .ok_or_else(|| unknown_take(graph, take))?;
    let played = at_rate(Take::new(take, data.duration).fps(data.fps), options);
    Ok((played.fps, played.steps() as usize + 1))
}

/// `take` as a bake plays it: at the bake's rate when `options` fixes one, else its own.
fn at_rate(mut take: Take, options: &ScriptBake) -> Take {
    if let Some(fps) = options.fps {
        take.fps = fps;
    }
    take
}

fn unknown_take(graph: &ScriptedGraph, take: &str) -> ScriptError {
    ScriptError::msg(graph.unknown_take(take))
}

/// Bakes take `take` of `graph` (as it plays: edited, [`ScriptedGraph::take_data`]; the graph
/// is left playing it, at its last frame). A runtime error
/// of `post` or a Lua predicate fails the bake with its `file:line`. `progress(done, total)`
/// is called after every frame.
pub fn bake_take(
    graph: &mut ScriptedGraph,
    take: &str,
    options: &ScriptBake,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BakedTake, ScriptError> {
    let data = graph
        .take_data(take)
        .ok_or_else(|| unknown_take(graph, take))?;
    bake_take_data(graph, &data, options, progress)
}

/// Bakes `data`, a take given as data (edited or recorded in the editor, or a script's own
/// take from its spec), on `graph`, exactly as [`bake_take`] bakes a script take: the same
/// simulation, frames and extras. The markers are those the script wrote for a take of the
/// same name (markers are the script's: the editor's sidecar stores none).
pub fn bake_take_data(
    graph: &mut ScriptedGraph,
    data: &Take,
    options: &ScriptBake,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BakedTake, ScriptError> {
    let take = data.name.as_str();
    let played = at_rate(data.clone(), options);
    let fps = played.fps;
    if let Some(problem) = marionette_anim::time::rate_problem(fps) {
        return Err(ScriptError::msg(format!("take '{take}': {problem}")));
    }
    if let Some(problem) = marionette_anim::time::steps_problem(f64::from(played.duration), fps) {
        return Err(ScriptError::msg(format!(
            "take '{take}': {problem}; shorten it or bake at a lower --fps"
        )));
    }
    let frames = played.steps() as usize + 1;
    let skeleton = graph.script().rig.skeleton.clone();
    crate::check_size(take, frames, skeleton.len()).map_err(|e| ScriptError::msg(e.to_string()))?;
    graph.play_take(&played)?;
    if let Some(e) = graph.pass_error() {
        return Err(e.clone());
    }
    let extracted = graph.script().spec.root_motion != RootMotionMode::Off;
    let mut markers = Vec::new();
    let mut states: Vec<String> = Vec::new();
    let mut events: Vec<TakeEvent> = Vec::new();
    let has_morphs = !skeleton.morphs().is_empty();
    let mut morph_frames: Vec<Vec<f32>> = Vec::with_capacity(if has_morphs { frames } else { 0 });
    // the feet (and what else the take's measure reads) as the character walks them (root
    // motion on), for the contacts
    let measured: Vec<usize> = graph
        .script()
        .motion_rules(take)
        .map(|r| r.joints_measured())
        .unwrap_or_default();
    let mut walked = Motion::of_joints(&skeleton, fps, &measured);
    walked.reserve(frames);
    let mut world_pose = skeleton.rest_pose().to_vec();
    let mut baked = bake_frames(
        &skeleton,
        take,
        fps,
        frames,
        |i, t, pose: &mut [Transform]| {
            if graph.is_cancelled() {
                return Err(ScriptError::msg(format!(
                    "take '{take}': cancelled at frame {i}"
                )));
            }
            graph.seek(f64::from(t));
            if let Some(e) = graph.runtime_error() {
                return Err(ScriptError {
                    message: format!("take '{take}' at {t} s: {}", e.message),
                    ..e
                });
            }
            graph.pose_with_root_motion(&mut world_pose);
            walked.push(&skeleton, &world_pose);
            if extracted && options.in_place {
                pose.copy_from_slice(graph.pose());
            } else {
                pose.copy_from_slice(&world_pose);
            }
            if has_morphs {
                morph_frames.push(graph.morphs().to_vec());
            }
            let g = graph.graph();
            for (k, sm) in g.state_machines().enumerate() {
                if states.get(k).map(String::as_str) != Some(sm.current) {
                    markers.push(Marker {
                        name: sm.current.to_string(),
                        time: t,
                    });
                    match states.get_mut(k) {
                        Some(s) => *s = sm.current.to_string(),
                        None => states.push(sm.current.to_string()),
                    }
                }
            }
            if i > 0 {
                for ev in g.events() {
                    let value = match ev.state {
                        None => serde_json::json!({
                            "clip_time": ev.time,
                            "weight": ev.weight,
                        }),
                        Some(state) => serde_json::json!({
                            "state": state,
                            "state_time": ev.time,
                            "weight": ev.weight,
                        }),
                    };
                    events.push(TakeEvent {
                        name: ev.name.to_string(),
                        time: t,
                        value: Some(value),
                    });
                }
            }
            Ok(())
        },
        progress,
    )?;
    events.extend(played.triggers.iter().map(|t| TakeEvent {
        name: t.param.clone(),
        time: t.time,
        value: None,
    }));
    events.sort_by(|a, b| a.time.total_cmp(&b.time));
    let script_markers = graph
        .script()
        .spec
        .take(take)
        .map(|script_take| script_take.markers.clone())
        .unwrap_or_default();
    markers.extend(script_markers.iter().map(|(time, name)| Marker {
        name: name.clone(),
        time: *time,
    }));
    markers.extend(contact_markers(graph, take, &walked));
    markers.sort_by(|a, b| a.time.total_cmp(&b.time));
    baked.meta.markers = markers;
    baked.meta.events = events;
    baked.morphs.frames = morph_frames;
    if !extracted && options.in_place {
        keep_in_place(
            RootMotionMode::Ground,
            &RootSpace::of(&skeleton),
            skeleton.parents(),
            baked.frames.iter_mut().map(Vec::as_mut_slice),
        );
    }
    Ok(baked)
}

/// `L_foot down` at each contact's first frame and `L_foot up` at the first frame after it
/// (none at the take's end), for the feet of the take's assertions (else the default feet).
fn contact_markers(graph: &ScriptedGraph, take: &str, walked: &Motion) -> Vec<Marker> {
    let script = graph.script();
    let Ok(resolved) = script.motion_rules(take) else {
        return Vec::new();
    };
    let names = script.rig.skeleton.names();
    let mut out = Vec::new();
    for c in resolved.measure(walked).contacts {
        out.push(Marker {
            name: format!("{} down", names[c.joint]),
            time: walked.time(c.start),
        });
        if c.end + 1 < walked.frames() {
            out.push(Marker {
                name: format!("{} up", names[c.joint]),
                time: walked.time(c.end + 1),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Quat, Vec3};

    use super::*;
    use marionette_anim::{Clip, Interpolation, JointTracks, Skeleton, Track};
    use marionette_script::{load, HostOptions, Rig};

    /// A 2-joint rig with a 1 s clip `bend` (joint 1 turns 90° about Z) and a still clip.
    fn rig() -> Rig {
        let skeleton = Skeleton::new(
            vec!["root".into(), "arm".into()],
            vec![None, Some(0)],
            vec![
                Transform::IDENTITY,
                Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            ],
            Mat4::IDENTITY,
        )
        .unwrap()
        .skeleton;
        let mut jt = JointTracks::new(1);
        jt.rotation = Some(Track {
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![
                Quat::IDENTITY,
                Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            ],
        });
        let still = Clip::new("still", vec![JointTracks::new(1)]);
        Rig::new("test", skeleton, vec![Clip::new("bend", vec![jt]), still])
    }

    fn graph(name: &str, source: &str) -> ScriptedGraph {
        let dir = std::env::temp_dir().join(format!(
            "marionette-script-bake-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.lua");
        std::fs::write(&path, source).unwrap();
        let loaded = load(&path, &HostOptions::with_rig(rig())).unwrap();
        ScriptedGraph::new(loaded).unwrap()
    }

    const SCRIPT: &str = r#"
local rig = marionette.rig()
params { go = trigger() }
local sm = state_machine {
  start = "rest",
  rest = rig.still,
  bend = rig.bend:once(),
  transitions = { { "rest", "bend", on = "go", blend = 0 } },
}
return graph { root = sm, takes = { t = { duration = 1, fps = 10, go = { 0.5 } } } }
"#;

    /// 1 s at the take's 10 fps is 11 frames; the trigger at 0.5 s is an event and the state
    /// entered then a marker; the arm has turned 45° (half the clip) at the last frame.
    #[test]
    fn bakes_take_with_events_and_markers() {
        let mut g = graph("events", SCRIPT);
        let take = bake_take(&mut g, "t", &ScriptBake::default(), &mut |_, _| {}).unwrap();
        assert_eq!(take.fps(), Some(10.0));
        assert_eq!(take.frames.len(), 11);
        let names: Vec<(&str, f32)> = take
            .meta
            .markers
            .iter()
            .map(|m| (m.name.as_str(), m.time))
            .collect();
        assert_eq!(names, vec![("rest", 0.0), ("bend", 0.5)]);
        assert_eq!(take.meta.events.len(), 1);
        assert_eq!(take.meta.events[0].name, "go");
        assert_eq!(take.meta.events[0].time, 0.5);
        let q = take.frames[10][1].rotation;
        let expected = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        assert!(q.abs_diff_eq(expected, 1e-5), "{q:?}");
    }

    /// `fps = 20` doubles the frames (21) and keeps the trigger at 0.5 s; an unknown take is an
    /// error naming the takes there are.
    #[test]
    fn fps_override_and_unknown_take() {
        let mut g = graph("fps", SCRIPT);
        let options = ScriptBake {
            fps: Some(20.0),
            in_place: false,
        };
        let take = bake_take(&mut g, "t", &options, &mut |_, _| {}).unwrap();
        assert_eq!(take.frames.len(), 21);
        assert_eq!(take.meta.markers[1].time, 0.5);
        let e = bake_take(&mut g, "nope", &options, &mut |_, _| {}).unwrap_err();
        assert!(e.message.contains("(the script has: t)"), "{e}");
    }
}
