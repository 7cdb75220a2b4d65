//! Declarative post-process operations (`ik.*` in `graph { post = { ... } }`) to graph
//! [`PostOp`]s: evaluated in Rust every frame, no Lua.

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
    let joint = b.joint(&op.joint).map_err(|e| graph_err(script, e))?;
    let weight = op.weight.try_map(|name| param_id(b, script, name))?;
    Ok(match &op.kind {
        PostKind::LookAt {
            target,
            limit,
            axis,
            up,
        } => PostOp::LookAt {
            joint,
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
            tip: joint,
            target: vec3_value(b, script, target)?,
            pole: vec3_value(b, script, pole)?,
            weight,
        },
        PostKind::Rotate { degrees, space } => PostOp::AddRotation {
            joint,
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
            joint,
            offset: *offset,
            space: *space,
            weight,
        },
    })
}
