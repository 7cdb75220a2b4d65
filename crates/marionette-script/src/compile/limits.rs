//! Size limits on what a script builds, checked before the graph is compiled: compiling,
//! updating and evaluating recurse along the graph's depth, and a node used twice is compiled
//! twice (one playhead each), so a small script can describe a huge tree
//! (`for i = 1, 60 do n = blend { n, n } end`). Both are measured in one pass without
//! recursion (children are always made before their parents, so their index is lower).

use super::super::spec::GraphSpec;

/// Deepest nesting of nodes from the root to a clip; a layer adds one level per layered input.
pub const MAX_DEPTH: u32 = 200;

/// Most nodes the compiled graph may have (nodes used more than once counted each time).
pub const MAX_NODES: u64 = 100_000;

/// The depth and compiled size of the tree under `spec.root`, or the message of the limit
/// it passes.
pub fn check(spec: &GraphSpec) -> Result<(u32, u64), String> {
    let n = spec.nodes.len();
    let mut depth = vec![0u32; n];
    let mut size = vec![0u64; n];
    for (i, node) in spec.nodes.iter().enumerate() {
        let (mut d, mut s) = (1u32, 1u64);
        // (an edge of 0 levels, an additive's reference, is not compiled under the node)
        for e in node.edges().into_iter().filter(|e| e.levels > 0) {
            let (child, levels) = (e.node.index(), e.levels);
            if child >= i {
                return Err(format!("node {i} uses node {child}, made after it"));
            }
            d = d.max(depth[child].saturating_add(levels));
            s = s.saturating_add(size[child]);
        }
        depth[i] = d;
        size[i] = s;
    }
    let root = spec.root.index();
    let (Some(&d), Some(&s)) = (depth.get(root), size.get(root)) else {
        return Err(format!("the root node {root} does not exist"));
    };
    if d > MAX_DEPTH {
        return Err(format!(
            "the graph nests nodes {d} deep; at most {MAX_DEPTH} levels are allowed \
             (a layer counts one level per layered input)"
        ));
    }
    if s > MAX_NODES {
        return Err(format!(
            "the graph would compile to {} nodes (a node used twice is compiled twice); at most \
             {MAX_NODES} are allowed",
            if s == u64::MAX {
                "more than 2^64".to_string()
            } else {
                s.to_string()
            }
        ));
    }
    Ok((d, s))
}
