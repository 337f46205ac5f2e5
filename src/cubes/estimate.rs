//! What a whole claim will cost, extrapolated from a random sample of its cubes.
//!
//! The sample is drawn without a random-number generator: the cubes are
//! ordered by the SHA-256 of the seed and the cube's record name, so anyone
//! with the plan and the seed draws the same cubes, and the order does not
//! depend on the cubes' position, depth or values. Cubes stopped by a time
//! limit are *censored*: they count at the limit, so every total that
//! includes one is a lower bound and says so.

use serde::Serialize;

use super::Plan;

/// The first `size` cubes of `plan` in the order drawn by `seed`.
pub fn sample(plan: &Plan, size: usize, seed: u64) -> Vec<usize> {
    let mut keyed: Vec<(String, usize)> =
        (0..plan.cubes.len()).map(|i| (crate::digest::sha256_hex(format!("{seed}:{}", plan.cube_key(i)).as_bytes()), i)).collect();
    keyed.sort();
    keyed.into_iter().take(size).map(|(_, i)| i).collect()
}

/// The extrapolation of a sample's solve times to every cube of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// Cubes of the plan.
    pub cubes: usize,
    /// Sampled cubes with a time (finished, or censored at their limit).
    pub sampled: usize,
    /// Sampled cubes stopped by a time limit (counted at that limit).
    pub censored: usize,
    pub min: f64,
    pub median: f64,
    pub max: f64,
    /// `cubes * mean`: a lower bound when `censored > 0`.
    pub total: f64,
    /// `cubes * (mean -+ 1.96 standard errors)`, the normal approximation's
    /// 95 % interval, corrected for sampling without replacement (exact
    /// when every cube is sampled) and never below the time already
    /// measured. Solve times are heavy-tailed: a small sample that misses
    /// the few hard cubes underestimates, and this interval cannot see it
    /// (docs/MEASUREMENTS.md measures by how much).
    pub low: f64,
    pub high: f64,
    /// The total is a lower bound (some sampled cube was censored).
    pub lower_bound: bool,
}

impl Estimate {
    /// From finished cubes' solve seconds and censored cubes' limits; `None` for an empty sample.
    pub fn new(cubes: usize, finished: &[f64], censored: &[f64]) -> Option<Estimate> {
        let mut times: Vec<f64> = finished.iter().chain(censored).copied().collect();
        if times.is_empty() {
            return None;
        }
        times.sort_by(f64::total_cmp);
        let k = times.len() as f64;
        let mean = times.iter().sum::<f64>() / k;
        let variance = if times.len() > 1 { times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (k - 1.0) } else { 0.0 };
        let finite = if cubes > 1 { (cubes as f64 - k).max(0.0) / (cubes as f64 - 1.0) } else { 0.0 };
        let half_width = 1.96 * (variance / k * finite).sqrt();
        let measured: f64 = times.iter().sum();
        Some(Estimate {
            cubes,
            sampled: times.len(),
            censored: censored.len(),
            min: times[0],
            median: times[times.len() / 2],
            max: times[times.len() - 1],
            total: cubes as f64 * mean,
            low: (cubes as f64 * (mean - half_width)).max(measured),
            high: cubes as f64 * (mean + half_width),
            lower_bound: !censored.is_empty(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_scale_the_mean_and_censoring_makes_a_lower_bound() {
        let e = Estimate::new(100, &[1.0, 2.0, 3.0], &[]).unwrap();
        assert_eq!((e.sampled, e.min, e.median, e.max, e.total), (3, 1.0, 2.0, 3.0, 200.0));
        assert!(e.low < 200.0 && e.high > 200.0 && !e.lower_bound);
        let c = Estimate::new(10, &[1.0], &[9.0]).unwrap();
        assert_eq!((c.total, c.censored, c.lower_bound), (50.0, 1, true));
        assert_eq!(Estimate::new(10, &[], &[]), None);
        let whole = Estimate::new(3, &[1.0, 2.0, 6.0], &[]).unwrap();
        assert_eq!((whole.low, whole.total, whole.high), (9.0, 9.0, 9.0), "a census has no sampling error");
    }
}
