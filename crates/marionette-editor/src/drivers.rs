//! Joint colours for the viewport's skeleton: who drives each bone (the layer, node or post
//! operation that last changed it, from the graph's provenance, with a legend), or the joints
//! the node selected in the graph view drives.

use marionette_anim::graph::{Graph, NodeId, Writer};

/// Colours of the writers, in the order they are first met (repeating past the last).
const PALETTE: [[f32; 4]; 8] = [
    [0.30, 0.75, 1.00, 1.0],
    [1.00, 0.55, 0.15, 1.0],
    [0.45, 0.95, 0.45, 1.0],
    [0.95, 0.35, 0.75, 1.0],
    [1.00, 0.90, 0.25, 1.0],
    [0.65, 0.50, 1.00, 1.0],
    [0.30, 0.95, 0.85, 1.0],
    [0.95, 0.40, 0.35, 1.0],
];

/// The skeleton's colours: one per joint (empty: the usual ones) and the legend, what each
/// colour means.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointColors {
    /// A colour per joint.
    pub colors: Vec<[f32; 4]>,
    /// Each colour with what it means.
    pub legend: Vec<(String, [f32; 4])>,
}

/// A joint the selected node drives.
const DRIVEN: [f32; 4] = [1.0, 0.6, 0.1, 1.0];
/// A joint it does not.
const NOT_DRIVEN: [f32; 4] = [0.35, 0.37, 0.42, 1.0];

/// Each joint's colour by what last changed it, and the legend: each writer with its colour
/// and how many joints it changed.
pub fn by_writer(graph: &Graph) -> JointColors {
    let n = graph.skeleton().len();
    let mut names: Vec<String> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    let mut colors = Vec::with_capacity(n);
    for j in 0..n {
        let Some(src) = graph.joint_source(j) else {
            colors.push(NOT_DRIVEN);
            continue;
        };
        let name = writer_name(&src.writer);
        let k = match names.iter().position(|w| *w == name) {
            Some(k) => k,
            None => {
                names.push(name);
                counts.push(0);
                names.len() - 1
            }
        };
        counts[k] += 1;
        colors.push(PALETTE[k % PALETTE.len()]);
    }
    let legend = names
        .into_iter()
        .zip(counts)
        .enumerate()
        .map(|(k, (name, count))| {
            let joints = if count == 1 { "joint" } else { "joints" };
            (
                format!("{name} ({count} {joints})"),
                PALETTE[k % PALETTE.len()],
            )
        })
        .collect();
    JointColors { colors, legend }
}

/// The joints node `node` drives lit, the others dimmed, and the legend saying so; nothing
/// for a node of another rig (under a retarget node).
pub fn of_node(graph: &Graph, node: NodeId) -> JointColors {
    let driven = graph.joints_driven(node);
    if driven.len() != graph.skeleton().len() {
        return JointColors::default();
    }
    let count = driven.iter().filter(|&&d| d).count();
    let info = graph.nodes().find(|n| n.id == node);
    let name = match info.as_ref().map(|n| (n.name, n.kind)) {
        Some((Some(name), kind)) => format!("{kind} '{name}'"),
        Some((None, kind)) => format!("{kind} #{}", node.index()),
        None => format!("node #{}", node.index()),
    };
    let colors = driven
        .into_iter()
        .map(|d| if d { DRIVEN } else { NOT_DRIVEN })
        .collect();
    let legend = vec![
        (format!("driven by {name} ({count})"), DRIVEN),
        ("not driven by it".to_string(), NOT_DRIVEN),
    ];
    JointColors { colors, legend }
}

/// A writer as the legend names it (as the outliner's provenance does).
pub fn writer_name(w: &Writer<'_>) -> String {
    let label = |name: Option<&str>, kind: &str| match name {
        Some(n) => format!("{kind} '{n}'"),
        None => kind.to_string(),
    };
    match w {
        Writer::Post { index, kind, .. } => format!("post op {} ({kind})", index + 1),
        Writer::Layer(l) => label(l.name, l.kind),
        Writer::Node { name, kind, .. } => label(*name, kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_anim::graph::{ClipNode, GraphBuilder, JointMask, LayerNode};
    use marionette_anim::{Clip, Interpolation, JointTracks, Skeleton, Track, Transform};

    fn rig() -> std::sync::Arc<Skeleton> {
        let names = vec!["root".into(), "arm".into(), "hand".into()];
        let parents = vec![None, Some(0), Some(1)];
        let rest = vec![Transform::IDENTITY; 3];
        std::sync::Arc::new(
            Skeleton::new(names, parents, rest, glam::Mat4::IDENTITY)
                .unwrap()
                .skeleton,
        )
    }

    fn clip(name: &str, joints: &[u16]) -> Clip {
        let tracks = joints
            .iter()
            .map(|&j| {
                let mut t = JointTracks::new(j);
                t.rotation = Some(Track {
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 1.0],
                    values: vec![glam::Quat::IDENTITY; 2],
                });
                t
            })
            .collect();
        Clip::new(name, tracks)
    }

    #[test]
    fn a_masked_layer_colours_its_joints_and_the_legend_counts_them() {
        let mut b = GraphBuilder::new(rig());
        let base = b.add(ClipNode::new(clip("idle", &[0, 1, 2])));
        let wave = b.add(ClipNode::new(clip("wave", &[1, 2])));
        let mask = JointMask::from_weights(vec![0.0, 1.0, 1.0]);
        let layer = b.add(LayerNode::new(base, wave).mask(mask));
        b.set_name(layer, "arms");
        let mut g = b.build(layer).unwrap();
        g.advance(1.0 / 60.0);
        g.evaluate();
        let JointColors { colors, legend } = by_writer(&g);
        assert_eq!(colors.len(), 3);
        assert_ne!(colors[0], colors[1], "the base and the layer differ");
        assert_eq!(colors[1], colors[2]);
        assert_eq!(legend.len(), 2, "{legend:?}");
        assert!(
            legend.iter().any(|(t, _)| t == "layer 'arms' (2 joints)"),
            "{legend:?}"
        );
        // the layer's clip alone drives the arm and the hand
        let JointColors {
            colors: lit,
            legend,
        } = of_node(&g, wave);
        assert_eq!(lit, vec![NOT_DRIVEN, DRIVEN, DRIVEN]);
        assert_eq!(legend[0].0, "driven by clip #1 (2)");
        assert_eq!(of_node(&g, layer).colors, vec![DRIVEN; 3]);
    }
}
