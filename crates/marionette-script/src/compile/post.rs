//! Declarative post-process operations (`ik.*`, `adjust.*`, `morph.set` in
//! `graph { post = { ... } }`) to graph [`PostOp`]s: evaluated in Rust every frame, no Lua.

use glam::{EulerRot, Quat};

use super::{graph_err, param_id};
use crate::error::ScriptError;
use crate::host::LoadedScript;
use crate::spec::{PostKind, PostSpec, Vec3Value};
use marionette_anim::graph::{self as g, GraphBuilder, PostOp};
use marionette_anim::ik::LookAt;

fn vec3_value(
    b: &GraphBuilder,
    script: &LoadedScript,
    v: &Vec3Value,
) -> Result<g::Vec3Value, ScriptError> {
    v.try_map(|name| param_id(b, script, name))
}

pub(super) fn post_op(
    b: &GraphBuilder,
    script: &LoadedScript,
    op: &PostSpec,
) -> Result<PostOp, ScriptError> {
    let weight = op.weight.try_map(|name| param_id(b, script, name))?;
    let joint = || b.joint(&op.subject).map_err(|e| graph_err(script, e));
    Ok(match &op.kind {
        PostKind::LookAt {
            target,
            limit,
            axis,
            up,
        } => PostOp::LookAt {
            joint: joint()?,
            target: vec3_value(b, script, target)?,
            settings: LookAt {
                aim_axis: *axis,
                up_axis: *up,
                limit: limit.to_radians(),
                ..LookAt::default()
            },
            weight,
        },
        PostKind::TwoBone { target, pole } => PostOp::TwoBoneIk {
            tip: joint()?,
            target: vec3_value(b, script, target)?,
            pole: vec3_value(b, script, pole)?,
            weight,
        },
        PostKind::Rotate { degrees, space } => PostOp::AddRotation {
            joint: joint()?,
            rotation: Quat::from_euler(
                EulerRot::XYZ,
                degrees.x.to_radians(),
                degrees.y.to_radians(),
                degrees.z.to_radians(),
            ),
            space: *space,
            weight,
        },
        PostKind::Translate { offset, space } => PostOp::AddTranslation {
            joint: joint()?,
            offset: *offset,
            space: *space,
            weight,
        },
        PostKind::Morph { value } => {
            let found = b.skeleton().morphs().find(&op.subject);
            if found.is_empty() {
                let e = g::GraphError::UnknownMorph(op.subject.clone());
                return Err(graph_err(script, e));
            }
            PostOp::SetMorph {
                // (exact: a rig has far fewer than 2^32 morph targets)
                targets: found.into_iter().map(|k| k as u32).collect(),
                value: value.try_map(|name| param_id(b, script, name))?,
                weight,
            }
        }
    })
}
