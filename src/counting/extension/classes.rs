//! Symmetry classes of partials, for the roads that count a class by one
//! member: the 12 symmetries of the hexagon map valid partials to valid
//! partials of the same penalty (they map cells to cells, neighbours to
//! neighbours, and leave values alone; docs/PROBLEM.md, section 5), so any
//! count that depends only on a partial's validity and penalty terms (the
//! refinements of a partial by the penalty they add, `lift`) is the same for
//! every member of a class.
//!
//! A listing that holds every partial of a set closed under the symmetries
//! (all partials of penalty at most a bound are such a set) holds each class
//! whole, and so exactly once its least member in the order of the value
//! vectors: summing `members × count` over the least members alone sums
//! `count` over every partial, each once. `tests/refinement.rs` and the unit
//! tests below compare the sum by classes with the sum over every partial.

use crate::geometry::Hexagon;

/// The 12 symmetries, each as the cell whose value a cell's image holds.
pub struct Classes {
    /// `sources[g][c]`: the cell whose value symmetry `g` moves onto `c`.
    sources: Vec<Vec<usize>>,
}

impl Classes {
    pub fn new(hex: &Hexagon) -> Classes {
        let sources = hex
            .symmetries()
            .into_iter()
            .map(|perm| {
                let mut source = vec![0; perm.len()];
                for (c, &to) in perm.iter().enumerate() {
                    source[to] = c;
                }
                source
            })
            .collect();
        Classes { sources }
    }

    /// For the least member of its class (in the order of the value
    /// vectors), the number of members of the class (12 over the number of
    /// symmetries that fix it); for any other member, `None`.
    pub fn members(&self, values: &[u8]) -> Option<u128> {
        let mut fixing = 0u128;
        for source in &self.sources {
            match (0..values.len()).map(|c| values[source[c]].cmp(&values[c])).find(|o| o.is_ne()) {
                Some(std::cmp::Ordering::Less) => return None,
                Some(_) => {}
                None => fixing += 1,
            }
        }
        Some(self.sources.len() as u128 / fixing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::Count;
    use std::collections::HashSet;

    /// Over every level-2 partial of n = 4 up to penalty 4 and every level-3
    /// one of n = 5 up to 10, the least members weighted by their class sizes
    /// number the partials, class by class: each partial's images, collected,
    /// are exactly as many as `members` says, and exactly one of them is
    /// least.
    #[test]
    fn the_least_members_weighted_number_every_partial() {
        for (side, level, bound) in [(4, 2, 4), (5, 3, 10)] {
            let hex = Hexagon::new(side).unwrap();
            let classes = Classes::new(&hex);
            let mut all = HashSet::new();
            Count::new(&hex, level)
                .for_each_partial(bound, |values, _| {
                    all.insert(values.to_vec());
                })
                .unwrap();
            let mut weighted = 0u128;
            for values in &all {
                let images: HashSet<Vec<u8>> = hex
                    .symmetries()
                    .iter()
                    .map(|perm| {
                        let mut moved = vec![0; values.len()];
                        for (c, &v) in values.iter().enumerate() {
                            moved[perm[c]] = v;
                        }
                        moved
                    })
                    .collect();
                assert!(images.iter().all(|image| all.contains(image)), "the listing is closed under the symmetries");
                let least = images.iter().filter(|image| classes.members(image).is_some()).collect::<Vec<_>>();
                assert_eq!(least.len(), 1, "one least member");
                assert_eq!(classes.members(least[0]), Some(images.len() as u128));
                weighted += classes.members(values).unwrap_or(0);
            }
            assert!(all.len() > 50, "n={side} level {level}: {} partials", all.len());
            assert_eq!(weighted, all.len() as u128);
        }
    }
}
