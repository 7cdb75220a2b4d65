//! Names a user may have misspelt: the closest candidate (case, typos, containment) and the
//! hints messages append (`" (did you mean 'x'?)"`, or the names there are).

/// Edit distance between two names (optimal string alignment: insertions, deletions,
/// substitutions and swaps of neighbours each count 1).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[(i - 2) * w + j - 2] + 1);
                }
                v
            };
        }
    }
    d[a.len() * w + b.len()]
}

/// Names longer than this (in characters) are not compared by edit distance: its table has a
/// cell per pair of characters, so two long names a script makes (`string.rep("a", 30000)`)
/// would take gigabytes and seconds. A typo hint for such names is no loss.
const MAX_EDIT_NAME: usize = 128;

/// The closest candidate to `name`: an exact match ignoring case first, then the nearest by
/// edit distance (at most a third of the name's length, at least 1; names up to
/// [`MAX_EDIT_NAME`] characters), then a name containing the other.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<&'a str> {
    let lower = name.to_lowercase();
    if let Some(c) = candidates
        .clone()
        .into_iter()
        .find(|c| c.to_lowercase() == lower)
    {
        return Some(c);
    }
    let limit = (name.chars().count() / 3).max(1);
    let len = lower.chars().count();
    let best = candidates
        .clone()
        .into_iter()
        .filter_map(|c| {
            let other = c.to_lowercase();
            let n = other.chars().count();
            // (names whose lengths differ by more than `limit` are farther apart than that)
            let near = len <= MAX_EDIT_NAME && n <= MAX_EDIT_NAME && len.abs_diff(n) <= limit;
            near.then(|| (distance(&lower, &other), c))
        })
        .filter(|(d, _)| *d <= limit && *d < name.chars().count())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c);
    best.or_else(|| {
        candidates.into_iter().find(|c| {
            let c = c.to_lowercase();
            lower.len() >= 3 && (c.contains(&lower) || (c.len() >= 3 && lower.contains(&c)))
        })
    })
}

/// `" (did you mean 'x'?)"` when a candidate is close, else `""`.
pub(crate) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> String {
    match closest(name, candidates) {
        Some(c) => format!(" (did you mean '{c}'?)"),
        None => String::new(),
    }
}

/// The hint for an unknown name: `" (did you mean 'x'?)"` when one is close, else the names
/// there are (`" (the rig has: a, b, c, ... and 12 more)"`, at most 40 listed), so a user
/// always learns what to write. `whose` says whose names they are (`"the rig"`).
pub(crate) fn unknown_hint<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
    whose: &str,
) -> String {
    if let Some(c) = closest(name, candidates.clone()) {
        return format!(" (did you mean '{c}'?)");
    }
    const SHOWN: usize = 40;
    let all: Vec<&str> = candidates.into_iter().collect();
    let mut list = all
        .iter()
        .take(SHOWN)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if all.len() > SHOWN {
        list.push_str(&format!(", ... and {} more", all.len() - SHOWN));
    }
    if all.is_empty() {
        list = "none".into();
    }
    format!(" ({whose} has: {list})")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Typos, case and containment find the intended name; unrelated names find nothing.
    #[test]
    fn suggestions() {
        assert_eq!(closest("synch", ["sync"]), Some("sync"));
        assert_eq!(closest("Idle", ["idle", "walk"]), Some("idle"));
        assert_eq!(
            closest("rootmotion", ["root", "root_motion"]),
            Some("root_motion")
        );
        assert_eq!(closest("wlak", ["idle", "walk", "run"]), Some("walk"));
        assert_eq!(closest("zzz", ["idle", "walk"]), None);
        assert_eq!(closest("b", ["a"]), None);
        assert_eq!(closest("snyc", ["sync"]), Some("sync"));
        assert_eq!(
            did_you_mean("hed", ["head", "neck"]),
            " (did you mean 'head'?)"
        );
    }

    /// Long names are not compared letter by letter (30000 x 30000 cells would be gigabytes):
    /// the answer comes at once; names up to the limit still get their typo hint.
    #[test]
    fn long_names_are_not_compared_by_edit_distance() {
        let a = "a".repeat(30_000);
        let b = format!("{}b", "a".repeat(29_999));
        let start = std::time::Instant::now();
        assert_eq!(closest(&b, [a.as_str()]), None);
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        let a = "a".repeat(MAX_EDIT_NAME);
        let b = format!("{}b", "a".repeat(MAX_EDIT_NAME - 1));
        assert_eq!(closest(&b, [a.as_str()]), Some(a.as_str()));
    }
}
