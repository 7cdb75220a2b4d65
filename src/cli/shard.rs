//! `--shard I/N`: the I-th (from 0) of N deterministic shares of a bake manifest, so each task
//! of a farm (a CI matrix, a Kubernetes indexed Job) bakes its share with no coordination.

/// `I/N`: the I-th (from 0) of N shards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// The bakes of this shard: every N-th from the I-th, so each farm task bakes its share
    /// with no coordination and every shard has as many bakes as another, give or take one.
    pub fn takes(&self, entry: usize) -> bool {
        entry % self.count == self.index
    }
}

/// Parses `I/N` (`--shard 0/3`: I from 0, as Kubernetes' completion index).
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}' is not a shard: give I/N, I from 0 to N - 1 (e.g. 0/3)");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, count): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if count == 0 || index >= count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `I/N` with I from 0 below N; anything else is refused with the form to give.
    #[test]
    fn shards() {
        assert_eq!(parse_shard("1/3"), Ok(Shard { index: 1, count: 3 }));
        for bad in ["3/3", "0/0", "1", "a/2", "-1/2"] {
            let e = parse_shard(bad).unwrap_err();
            assert!(e.contains("give I/N"), "{bad}: {e}");
        }
        let s = Shard { index: 1, count: 3 };
        let mine: Vec<usize> = (0..8).filter(|&e| s.takes(e)).collect();
        assert_eq!(mine, vec![1, 4, 7]);
    }
}
