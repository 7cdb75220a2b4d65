//! Blend-space weights: 1D (linear between the two samples around the value) and 2D (Delaunay
//! triangulation of the sample points, barycentric weights, clamped to the convex hull).
//!
//! The triangulation is computed once when the graph is built: every triangle of sample points
//! whose circumcircle holds no other sample is kept; for co-circular samples (a square, say)
//! triangles crossing an already kept one are skipped, so the result is a proper triangulation.
//! A point outside the hull is moved to the nearest point of the triangulation.

use glam::Vec2;

/// Weights of a 1D blend space: `xs` sorted ascending and distinct; writes one weight per
/// sample into `out` (two non-zero at most).
pub fn weights_1d(xs: &[f32], x: f32, out: &mut [f32]) {
    out.iter_mut().for_each(|w| *w = 0.0);
    let n = xs.len();
    if n == 0 {
        return;
    }
    if n == 1 || x.is_nan() || x <= xs[0] {
        out[0] = 1.0;
        return;
    }
    if x >= xs[n - 1] {
        out[n - 1] = 1.0;
        return;
    }
    let i = xs.partition_point(|&v| v <= x) - 1;
    let t = (x - xs[i]) / (xs[i + 1] - xs[i]);
    out[i] = 1.0 - t;
    out[i + 1] = t;
}

/// Twice the signed area of triangle `abc`.
fn cross(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

/// True when `p` is strictly inside the circumcircle of the counter-clockwise triangle `abc`.
fn in_circumcircle(a: Vec2, b: Vec2, c: Vec2, p: Vec2, eps: f32) -> bool {
    let (ax, ay) = ((a - p).x as f64, (a - p).y as f64);
    let (bx, by) = ((b - p).x as f64, (b - p).y as f64);
    let (cx, cy) = ((c - p).x as f64, (c - p).y as f64);
    let det = (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay)
        + (cx * cx + cy * cy) * (ax * by - bx * ay);
    det > eps as f64
}

/// True when segments `ab` and `cd` cross at a point interior to both.
fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2, eps: f32) -> bool {
    let d1 = cross(a, b, c);
    let d2 = cross(a, b, d);
    let d3 = cross(c, d, a);
    let d4 = cross(c, d, b);
    ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps))
        && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
}

/// Barycentric coordinates of `p` in triangle `abc`.
fn barycentric(a: Vec2, b: Vec2, c: Vec2, p: Vec2) -> [f32; 3] {
    let area = cross(a, b, c);
    let u = cross(p, b, c) / area;
    let v = cross(a, p, c) / area;
    [u, v, 1.0 - u - v]
}

/// Delaunay triangulation of `points` as counter-clockwise index triples; empty when the points
/// are fewer than three or all on one line.
pub fn triangulate(points: &[Vec2]) -> Vec<[usize; 3]> {
    let n = points.len();
    let extent = points
        .iter()
        .fold(0.0f32, |m, p| m.max(p.abs().max_element()))
        .max(1e-6);
    let eps_area = 1e-6 * extent * extent;
    let eps_circle = 1e-6 * extent.powi(4);
    let mut tris: Vec<[usize; 3]> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (a, b, c) = (points[i], points[j], points[k]);
                let area = cross(a, b, c);
                if area.abs() <= eps_area {
                    continue;
                }
                let tri = if area > 0.0 { [i, j, k] } else { [i, k, j] };
                let [a, b, c] = tri.map(|t| points[t]);
                let empty = (0..n)
                    .all(|m| tri.contains(&m) || !in_circumcircle(a, b, c, points[m], eps_circle));
                if !empty {
                    continue;
                }
                // co-circular points: skip triangles overlapping one already kept
                let overlaps = tris.iter().any(|t| {
                    let [d, e, f] = t.map(|x| points[x]);
                    let edges1 = [(a, b), (b, c), (c, a)];
                    let edges2 = [(d, e), (e, f), (f, d)];
                    edges1.iter().any(|&(p, q)| {
                        edges2
                            .iter()
                            .any(|&(r, s)| segments_cross(p, q, r, s, eps_area))
                    }) || same_triangle(&tri, t)
                });
                if !overlaps {
                    tris.push(tri);
                }
            }
        }
    }
    tris
}

fn same_triangle(a: &[usize; 3], b: &[usize; 3]) -> bool {
    a.iter().all(|x| b.contains(x))
}

/// Closest point to `p` on segment `ab`.
fn closest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    a + ab * t
}

/// Weights of a 2D blend space at `p`: finds the triangle containing `p` (or the triangle
/// nearest to it, using the nearest point) and writes barycentric weights of its corners into
/// `out` (one per point, the rest zero).
pub fn weights_2d(points: &[Vec2], tris: &[[usize; 3]], p: Vec2, out: &mut [f32]) {
    out.iter_mut().for_each(|w| *w = 0.0);
    let p = if p.is_finite() { p } else { Vec2::ZERO };
    let mut best: Option<(f32, usize, Vec2)> = None;
    for (ti, t) in tris.iter().enumerate() {
        let [a, b, c] = t.map(|i| points[i]);
        let bc = barycentric(a, b, c, p);
        if bc.iter().all(|&w| w >= -1e-6) {
            best = Some((0.0, ti, p));
            break;
        }
        for (u, v) in [(a, b), (b, c), (c, a)] {
            let q = closest_on_segment(u, v, p);
            let d = q.distance_squared(p);
            if best.is_none_or(|(bd, _, _)| d < bd) {
                best = Some((d, ti, q));
            }
        }
    }
    let Some((_, ti, q)) = best else {
        return;
    };
    let t = tris[ti];
    let [a, b, c] = t.map(|i| points[i]);
    let bc = barycentric(a, b, c, q).map(|w| w.max(0.0));
    let sum: f32 = bc.iter().sum();
    for (k, &i) in t.iter().enumerate() {
        out[i] = bc[k] / sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1D: halfway between 1.4 and 4.0 gives 0.5/0.5; outside the range clamps to the end.
    #[test]
    fn one_d() {
        let xs = [0.0, 1.4, 4.0];
        let mut w = [0.0; 3];
        weights_1d(&xs, 2.7, &mut w);
        assert!((w[1] - 0.5).abs() < 1e-6 && (w[2] - 0.5).abs() < 1e-6 && w[0] == 0.0);
        weights_1d(&xs, 9.0, &mut w);
        assert_eq!(w, [0.0, 0.0, 1.0]);
        weights_1d(&xs, -1.0, &mut w);
        assert_eq!(w, [1.0, 0.0, 0.0]);
    }

    /// A square with a centre point triangulates into 4 triangles; a square alone into 2.
    #[test]
    fn triangulation_counts() {
        let square = [
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        ];
        assert_eq!(triangulate(&square).len(), 2);
        let mut with_centre = square.to_vec();
        with_centre.push(Vec2::ZERO);
        assert_eq!(triangulate(&with_centre).len(), 4);
        assert!(triangulate(&[Vec2::ZERO, Vec2::X, Vec2::X * 2.0]).is_empty());
    }

    /// Barycentric weights inside a triangle, and clamping of an outside point to the hull.
    #[test]
    fn two_d_weights() {
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 2.0),
        ];
        let tris = triangulate(&pts);
        let mut w = [0.0; 3];
        weights_2d(&pts, &tris, Vec2::new(0.5, 0.5), &mut w);
        assert!(
            (w[0] - 0.5).abs() < 1e-6 && (w[1] - 0.25).abs() < 1e-6 && (w[2] - 0.25).abs() < 1e-6
        );
        // (3, -1) clamps to (2, 0): all weight on point 1
        weights_2d(&pts, &tris, Vec2::new(3.0, -1.0), &mut w);
        assert!((w[1] - 1.0).abs() < 1e-6, "{w:?}");
        // (2, 2) clamps to (1, 1) on the hypotenuse: half and half
        weights_2d(&pts, &tris, Vec2::new(2.0, 2.0), &mut w);
        assert!(
            (w[1] - 0.5).abs() < 1e-6 && (w[2] - 0.5).abs() < 1e-6,
            "{w:?}"
        );
    }
}
