//! A take's motion judged: its frames measured ([`marionette_anim::motion`]) and checked
//! against the script's `assert_motion` (the take's own, else the global one). `check` and
//! `bake` both judge every take this way; a bake with a broken assertion writes nothing.

use marionette_anim::motion::{Figures, Motion, MotionAsserts};
use marionette_anim::Skeleton;
use marionette_script::{ScriptError, ScriptedGraph};

use crate::{bake_take, BakedTake, ScriptBake};

/// What a take's frames measure, and the assertions they break.
#[derive(Clone, Debug)]
pub struct TakeQuality {
    /// The take.
    pub take: String,
    /// Frames per second.
    pub fps: f32,
    /// Every figure measured.
    pub figures: Figures,
    /// Each broken assertion, one line: `take 'walk' at 1.250 s (frame 75): L_foot slides 4.1
    /// mm > 2 mm`.
    pub failures: Vec<String>,
    /// Whether the take had assertions.
    pub asserted: bool,
}

/// The frames of a baked take (root motion on the root joints) as the measures read them.
pub fn motion_of(skeleton: &Skeleton, baked: &BakedTake) -> Motion {
    let fps = baked.fps().unwrap_or(60.0);
    let mut m = Motion::new(skeleton, fps);
    m.reserve(baked.frames.len());
    for pose in &baked.frames {
        m.push(skeleton, pose);
    }
    m
}

/// Judges `baked` (frames with root motion) against `asserts` (`None`: measured only). An
/// unknown joint in the assertions is an error.
pub fn judge(
    asserts: Option<&MotionAsserts>,
    skeleton: &Skeleton,
    baked: &BakedTake,
) -> Result<TakeQuality, String> {
    let rules = asserts.cloned().unwrap_or_default();
    let resolved = rules.resolve(skeleton).map_err(|e| e.to_string())?;
    let m = motion_of(skeleton, baked);
    let figures = resolved.measure(&m);
    let name = |j: usize| skeleton.names().get(j).cloned().unwrap_or_default();
    let failures = match asserts {
        Some(_) => resolved
            .check(&m, &figures, &name)
            .into_iter()
            .map(|f| f.line(&baked.name, &m))
            .collect(),
        None => Vec::new(),
    };
    Ok(TakeQuality {
        take: baked.name.clone(),
        fps: m.fps,
        figures,
        failures,
        asserted: asserts.is_some(),
    })
}

/// Judges the take `baked` of `graph` (frames with root motion, as [`bake_take`] gives them by
/// default) against the script's assertions for it.
pub fn judge_take(graph: &ScriptedGraph, baked: &BakedTake) -> Result<TakeQuality, ScriptError> {
    let script = graph.script();
    judge(
        script.spec.asserts_for(&baked.name),
        &script.rig.skeleton,
        baked,
    )
    .map_err(ScriptError::msg)
}

/// What a bake checks before it writes anything: the assertions of the take `baked` of
/// `graph`, baked with `options`. An in-place bake is judged on the frames the character
/// walks (the take evaluated again with its root motion); nothing is evaluated again for a take
/// without assertions. Every broken assertion is a line of the error, after `script` (as
/// `check` prints them).
pub fn assert_take(
    graph: &mut ScriptedGraph,
    baked: &BakedTake,
    options: &ScriptBake,
    script: &std::path::Path,
) -> Result<(), ScriptError> {
    if graph.script().spec.asserts_for(&baked.name).is_none() {
        return Ok(());
    }
    let walked;
    let frames = if options.in_place {
        let walking = ScriptBake {
            in_place: false,
            ..*options
        };
        walked = bake_take(graph, &baked.name, &walking, &mut |_, _| {})?;
        &walked
    } else {
        baked
    };
    let q = judge_take(graph, frames)?;
    if q.failures.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = q
        .failures
        .iter()
        .map(|f| format!("{}: {f}", script.display()))
        .collect();
    Err(ScriptError::msg(format!(
        "{}\n{} motion assertion{} failed: nothing was written",
        lines.join("\n"),
        q.failures.len(),
        if q.failures.len() == 1 { "" } else { "s" }
    )))
}
