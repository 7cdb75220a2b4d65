//! Every index the importer follows points at something the file has: an error names the
//! referring JSON path and what is missing (`nodes[0].mesh: mesh 3 does not exist (the file has
//! 1)`). References the importer never follows (cameras, scenes, materials) are not checked.

use super::schema::Root;
use crate::error::{Fault, FaultResult};

/// `index` at `path` refers to one of `count` `what`s.
fn within(
    path: impl FnOnce() -> String,
    what: &str,
    index: usize,
    count: usize,
) -> FaultResult<()> {
    if index < count {
        return Ok(());
    }
    Err(Fault::new(
        path(),
        format!(
            "{what} {index} does not exist (the file has {count} {what}{})",
            if what.ends_with('h') { "es" } else { "s" }
        ),
    ))
}

/// Checks the references of buffer views, accessors, nodes, skins, meshes and animations.
pub(crate) fn check(root: &Root) -> FaultResult<()> {
    let (buffers, views, accessors) = (
        root.buffers.len(),
        root.buffer_views.len(),
        root.accessors.len(),
    );
    for (i, v) in root.buffer_views.iter().enumerate() {
        within(
            || format!("bufferViews[{i}].buffer"),
            "buffer",
            v.buffer,
            buffers,
        )?;
    }
    for (i, a) in root.accessors.iter().enumerate() {
        if let Some(v) = a.buffer_view {
            within(
                || format!("accessors[{i}].bufferView"),
                "bufferView",
                v,
                views,
            )?;
        }
        if let Some(s) = &a.sparse {
            let at = |part: &str| format!("accessors[{i}].sparse.{part}.bufferView");
            within(|| at("indices"), "bufferView", s.indices.0, views)?;
            within(|| at("values"), "bufferView", s.values.0, views)?;
        }
    }
    let nodes = root.nodes.len();
    for (i, n) in root.nodes.iter().enumerate() {
        for (k, &c) in n.children.iter().enumerate() {
            within(|| format!("nodes[{i}].children[{k}]"), "node", c, nodes)?;
        }
        if let Some(m) = n.mesh {
            within(|| format!("nodes[{i}].mesh"), "mesh", m, root.meshes.len())?;
        }
        if let Some(s) = n.skin {
            within(|| format!("nodes[{i}].skin"), "skin", s, root.skins.len())?;
        }
    }
    for (i, s) in root.skins.iter().enumerate() {
        for (k, &j) in s.joints.iter().enumerate() {
            within(|| format!("skins[{i}].joints[{k}]"), "node", j, nodes)?;
        }
        if let Some(a) = s.inverse_bind_matrices {
            let path = || format!("skins[{i}].inverseBindMatrices");
            within(path, "accessor", a, accessors)?;
        }
    }
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let at = format!("meshes[{m}].primitives[{p}]");
            for (name, a) in &prim.attributes {
                let path = || format!("{at}.attributes[\"{name}\"]");
                within(path, "accessor", *a, accessors)?;
            }
            if let Some(a) = prim.indices {
                within(|| format!("{at}.indices"), "accessor", a, accessors)?;
            }
            for (t, target) in prim.targets.iter().enumerate() {
                for (name, a) in target {
                    let path = || format!("{at}.targets[{t}][\"{name}\"]");
                    within(path, "accessor", *a, accessors)?;
                }
            }
        }
    }
    for (a, anim) in root.animations.iter().enumerate() {
        for (c, ch) in anim.channels.iter().enumerate() {
            let at = format!("animations[{a}].channels[{c}]");
            let samplers = anim.samplers.len();
            within(|| format!("{at}.sampler"), "sampler", ch.sampler, samplers)?;
            if let Some(n) = ch.node {
                within(|| format!("{at}.target.node"), "node", n, nodes)?;
            }
        }
        for (s, sampler) in anim.samplers.iter().enumerate() {
            let at = format!("animations[{a}].samplers[{s}]");
            within(
                || format!("{at}.input"),
                "accessor",
                sampler.input,
                accessors,
            )?;
            within(
                || format!("{at}.output"),
                "accessor",
                sampler.output,
                accessors,
            )?;
        }
    }
    Ok(())
}
