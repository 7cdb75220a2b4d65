//! A layered drawing of a directed graph (Sugiyama's scheme, small): edges that close a cycle
//! are turned round (a depth-first search from the given starts), each node goes into the layer
//! as far right as the longest path from it to a sink allows (so every edge points right and an input sits beside the node that reads it), and the
//! nodes of each layer are ordered by the mean place of their neighbours in the layers beside
//! it (barycentres), sweeping right then left a few times. Ties keep the order given (the
//! caller passes the previous drawing's order, so an unchanged graph draws the same and a
//! reload that adds a node moves few others).

/// Where each node goes: its layer (column, left to right) and its row in the layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layered {
    /// Column of each node.
    pub layer: Vec<usize>,
    /// Row of each node within its column (0 at the top).
    pub row: Vec<usize>,
    /// Number of columns.
    pub layers: usize,
    /// Rows of the tallest column.
    pub rows: usize,
}

/// Sweeps of the barycentre ordering (each one right then left).
const SWEEPS: usize = 4;

/// Lays out `n` nodes joined by `edges` (from, to); `starts` are where the cycle search begins
/// (e.g. a state machine's first state; every node is reached in the end). `rank` orders ties:
/// lower first.
pub fn layered(n: usize, edges: &[(usize, usize)], starts: &[usize], rank: &[f32]) -> Layered {
    let edges = acyclic(n, edges, starts);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &edges {
        if a != b && a < n && b < n {
            preds[b].push(a);
            succs[a].push(b);
        }
    }
    // longest path to a sink, in a reverse topological order; the column counts from the left
    let mut depth = vec![0usize; n];
    let mut outdeg: Vec<usize> = succs.iter().map(Vec::len).collect();
    let mut ready: Vec<usize> = (0..n).filter(|&v| outdeg[v] == 0).collect();
    while let Some(v) = ready.pop() {
        for &u in &preds[v] {
            depth[u] = depth[u].max(depth[v] + 1);
            outdeg[u] -= 1;
            if outdeg[u] == 0 {
                ready.push(u);
            }
        }
    }
    let layers = depth.iter().max().map_or(0, |m| m + 1);
    let layer: Vec<usize> = depth.iter().map(|d| layers - 1 - d).collect();
    let rank_of = |v: usize| rank.get(v).copied().unwrap_or(v as f32);
    let mut columns: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for v in 0..n {
        columns[layer[v]].push(v);
    }
    for col in &mut columns {
        col.sort_by(|&a, &b| rank_of(a).total_cmp(&rank_of(b)).then(a.cmp(&b)));
    }
    let mut row = vec![0usize; n];
    let place = |columns: &[Vec<usize>], row: &mut [usize]| {
        for col in columns {
            for (r, &v) in col.iter().enumerate() {
                row[v] = r;
            }
        }
    };
    place(&columns, &mut row);
    for _ in 0..SWEEPS {
        for k in 1..layers {
            order_by(&mut columns[k], &preds, &row);
            place(&columns, &mut row);
        }
        for k in (0..layers.saturating_sub(1)).rev() {
            order_by(&mut columns[k], &succs, &row);
            place(&columns, &mut row);
        }
    }
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    Layered {
        layer,
        row,
        layers,
        rows,
    }
}

/// Reorders `col` by the mean row of each node's `neighbours` (a node with none keeps its
/// row); a stable sort, so ties keep their order.
fn order_by(col: &mut [usize], neighbours: &[Vec<usize>], row: &[usize]) {
    let key = |v: usize| {
        let ns = &neighbours[v];
        if ns.is_empty() {
            row[v] as f32
        } else {
            ns.iter().map(|&u| row[u] as f32).sum::<f32>() / ns.len() as f32
        }
    };
    let mut keyed: Vec<(f32, usize)> = col.iter().map(|&v| (key(v), v)).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (slot, (_, v)) in col.iter_mut().zip(keyed) {
        *slot = v;
    }
}

/// `edges` with those that close a cycle turned round (depth-first from `starts`, then from
/// every node not reached yet, in order); self-loops dropped.
fn acyclic(n: usize, edges: &[(usize, usize)], starts: &[usize]) -> Vec<(usize, usize)> {
    let mut out_edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (k, &(a, b)) in edges.iter().enumerate() {
        if a < n && b < n && a != b {
            out_edges[a].push((b, k));
        }
    }
    // 0: not seen, 1: on the current path, 2: done
    let mut mark = vec![0u8; n];
    let mut reversed = vec![false; edges.len()];
    let order = starts.iter().copied().filter(|&s| s < n).chain(0..n);
    for s in order {
        if mark[s] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(s, 0)];
        mark[s] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(w, k)) = out_edges[v].get(*next) {
                *next += 1;
                match mark[w] {
                    0 => {
                        mark[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => reversed[k] = true,
                    _ => {}
                }
            } else {
                mark[v] = 2;
                stack.pop();
            }
        }
    }
    edges
        .iter()
        .zip(reversed)
        .filter(|(&(a, b), _)| a != b)
        .map(|(&(a, b), r)| if r { (b, a) } else { (a, b) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs of edges between the same two columns that cross.
    fn crossings(l: &Layered, edges: &[(usize, usize)]) -> usize {
        let mut c = 0;
        for (i, &(a, b)) in edges.iter().enumerate() {
            for &(x, y) in &edges[i + 1..] {
                let same = l.layer[a] == l.layer[x] && l.layer[b] == l.layer[y];
                let (ra, rb, rx, ry) = (l.row[a], l.row[b], l.row[x], l.row[y]);
                if same && ((ra < rx && rb > ry) || (ra > rx && rb < ry)) {
                    c += 1;
                }
            }
        }
        c
    }

    #[test]
    fn a_tree_flows_right_to_its_root_without_crossings() {
        // clips 0..4 -> blends 4, 5 -> root 6, listed so that the given order crosses
        let edges = [(0, 5), (1, 4), (2, 5), (3, 4), (4, 6), (5, 6)];
        let l = layered(7, &edges, &[], &[]);
        assert_eq!(l.layers, 3);
        assert_eq!(l.layer[6], 2, "the root is the last column");
        for &(a, b) in &edges {
            assert!(l.layer[a] < l.layer[b], "edge {a}->{b} points right");
        }
        assert_eq!(crossings(&l, &edges), 0, "{l:?}");
        assert_eq!(l.rows, 4);
        // every column's rows are distinct
        let mut seen = std::collections::HashSet::new();
        for v in 0..7 {
            assert!(
                seen.insert((l.layer[v], l.row[v])),
                "two nodes share a place"
            );
        }
    }

    #[test]
    fn an_input_sits_beside_the_node_that_reads_it() {
        // 0 -> 2 directly, 1 -> 3 -> 2: 0 goes next to 2, not with 1 at the far left
        let edges = [(0, 2), (1, 3), (3, 2)];
        let l = layered(4, &edges, &[], &[]);
        assert_eq!(l.layer[2], 2);
        assert_eq!(l.layer[0], 1);
        assert_eq!(l.layer[1], 0);
    }

    #[test]
    fn a_cycle_is_drawn_from_its_start() {
        // a state machine: idle <-> walk <-> run, run -> idle
        let edges = [(0, 1), (1, 0), (1, 2), (2, 1), (2, 0)];
        let l = layered(3, &edges, &[0], &[]);
        assert_eq!(
            l.layer,
            vec![0, 1, 2],
            "from the start state along its transitions"
        );
        // starting elsewhere gives that state the first column
        let l = layered(3, &edges, &[2], &[]);
        assert_eq!(l.layer[2], 0);
        assert!(l.layer[0] > 0 && l.layer[1] > 0);
    }

    #[test]
    fn ties_keep_the_given_rank_and_the_layout_is_repeatable() {
        let edges = [(0, 2), (1, 2)];
        let a = layered(3, &edges, &[], &[1.0, 0.0, 0.0]);
        assert_eq!((a.row[1], a.row[0]), (0, 1), "lower rank first");
        let b = layered(3, &edges, &[], &[0.0, 1.0, 0.0]);
        assert_eq!((b.row[0], b.row[1]), (0, 1));
        assert_eq!(layered(3, &edges, &[], &[]), layered(3, &edges, &[], &[]));
    }

    #[test]
    fn nothing_and_stray_edges_are_fine() {
        let l = layered(0, &[], &[], &[]);
        assert_eq!((l.layers, l.rows), (0, 0));
        let l = layered(2, &[(0, 0), (0, 9)], &[7], &[]);
        assert_eq!(l.layer, vec![0, 0]);
    }
}
