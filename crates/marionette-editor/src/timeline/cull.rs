//! Which keys of a lane are drawn: only those on screen, and one mark for keys closer than a
//! pixel, so a lane of any number of keys costs a few marks per pixel column (found by binary
//! search, never by walking every key) and no file can make the timeline's mesh too large.

/// A run of consecutive keys (time order) drawn as one mark: indices `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    /// The first key of the run (where the mark is drawn).
    pub first: usize,
    /// The last key of the run.
    pub last: usize,
}

impl Mark {
    /// The key the mark stands for: `selected` when it is in the run, else the first.
    pub fn shown(&self, selected: Option<usize>) -> usize {
        selected
            .filter(|s| (self.first..=self.last).contains(s))
            .unwrap_or(self.first)
    }
}

/// The keys of one lane to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Culled {
    /// Marks of the keys between the left and right edges, left to right.
    pub marks: Vec<Mark>,
    /// The last key left of the left edge.
    pub before: Option<usize>,
    /// The first key right of the right edge.
    pub after: Option<usize>,
}

impl Culled {
    /// The keys a curve through the lane needs, in order: the key before the left edge, each
    /// mark's first and last key, the key after the right edge (so the line enters and leaves
    /// the screen at the right values).
    pub fn curve_keys(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.marks.len() * 2 + 2);
        out.extend(self.before);
        for m in &self.marks {
            out.push(m.first);
            if m.last != m.first {
                out.push(m.last);
            }
        }
        out.extend(self.after);
        out
    }
}

/// The smallest `i` in `lo..hi` with `!below(i)` (`hi` when none), for `below` true on a prefix.
fn first_not(mut lo: usize, mut hi: usize, below: impl Fn(usize) -> bool) -> usize {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Culls `n` keys whose screen x, `x_of(i)`, does not decrease with `i`: the keys between
/// `left` and `right` become marks, a key less than `gap` points right of a mark's first key
/// joining that mark (a `gap` that is not positive counts as one point). There are at most
/// `(right - left) / gap + 1` marks, found in `O(marks × log n)`.
pub(crate) fn cull(
    n: usize,
    x_of: impl Fn(usize) -> f32,
    left: f32,
    right: f32,
    gap: f32,
) -> Culled {
    let gap = if gap > 0.0 { gap } else { 1.0 };
    let start = first_not(0, n, |i| x_of(i) < left);
    let end = first_not(start, n, |i| x_of(i) <= right);
    let mut marks = Vec::new();
    let mut i = start;
    while i < end {
        let until = x_of(i) + gap;
        let next = first_not(i + 1, end, |j| x_of(j) < until);
        marks.push(Mark {
            first: i,
            last: next - 1,
        });
        i = next;
    }
    Culled {
        marks,
        before: start.checked_sub(1),
        after: (end < n).then_some(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys off screen are skipped, keys within a point of a mark's first key join it, the
    /// neighbours off screen are named for the curve.
    #[test]
    fn culls_and_merges() {
        let xs = [
            -5.0, -1.0, 0.0, 0.4, 0.9, 1.0, 3.0, 3.5, 10.0, 10.2, 11.0, 50.0,
        ];
        let c = cull(xs.len(), |i| xs[i], 0.0, 10.5, 1.0);
        let runs: Vec<(usize, usize)> = c.marks.iter().map(|m| (m.first, m.last)).collect();
        assert_eq!(runs, vec![(2, 4), (5, 5), (6, 7), (8, 9)]);
        assert_eq!(c.before, Some(1));
        assert_eq!(c.after, Some(10));
        assert_eq!(c.curve_keys(), vec![1, 2, 4, 5, 6, 7, 8, 9, 10]);
        // a selected key inside a run is the one its mark shows
        assert_eq!(c.marks[0].shown(Some(3)), 3);
        assert_eq!(c.marks[0].shown(Some(5)), 2);
        assert_eq!(c.marks[0].shown(None), 2);
    }

    /// Nothing on screen: no marks, the curve still joins the neighbours either side; no keys:
    /// nothing at all.
    #[test]
    fn empty_screen_and_empty_lane() {
        let xs = [-3.0, 40.0];
        let c = cull(xs.len(), |i| xs[i], 0.0, 10.0, 1.0);
        assert!(c.marks.is_empty());
        assert_eq!(c.curve_keys(), vec![0, 1]);
        assert_eq!(cull(0, |_| 0.0, 0.0, 10.0, 1.0), Culled::default());
    }

    /// Two million keys over a 1000-point lane: at most one mark per point (plus one), and the
    /// marks cover every key on screen exactly once, in order.
    #[test]
    fn millions_of_keys_become_one_mark_per_point() {
        let n = 2_000_000;
        // keys over 0..2000 points, the lane shows 500..1500
        let x_of = |i: usize| i as f32 * 0.001;
        let c = cull(n, x_of, 500.0, 1500.0, 1.0);
        assert!(c.marks.len() <= 1001, "{}", c.marks.len());
        assert!(c.marks.len() >= 999, "{}", c.marks.len());
        let first = c.marks[0].first;
        assert!(x_of(first) >= 500.0 && x_of(first - 1) < 500.0);
        for w in c.marks.windows(2) {
            assert_eq!(w[1].first, w[0].last + 1);
            assert!(x_of(w[1].first) >= x_of(w[0].first) + 1.0);
        }
        let last = c.marks[c.marks.len() - 1].last;
        assert!(x_of(last) <= 1500.0 && x_of(last + 1) > 1500.0);
        assert_eq!(c.before, Some(first - 1));
        assert_eq!(c.after, Some(last + 1));
        assert!(c.curve_keys().len() <= 2 * c.marks.len() + 2);
    }

    /// Keys on one x (a zero-length run) and a gap that is not positive still end.
    #[test]
    fn degenerate_inputs_end() {
        let c = cull(1000, |_| 5.0, 0.0, 10.0, 0.0);
        assert_eq!(
            c.marks,
            vec![Mark {
                first: 0,
                last: 999
            }]
        );
        let c = cull(3, |i| [1.0, f32::NAN, 2.0][i], 0.0, 10.0, f32::NAN);
        assert!(!c.marks.is_empty() && c.marks.len() <= 3);
    }
}
