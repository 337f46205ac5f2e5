//! What a whole claim will cost, extrapolated from a sample of its cubes.
//!
//! The sample is drawn without a random-number generator: the cubes are
//! ordered by the SHA-256 of the seed and the cube's record name, so anyone
//! with the plan and the seed draws the same cubes, and the order does not
//! depend on the cubes' position, depth or values. Cubes stopped by a time
//! limit are *censored*: they count at the limit, so every total that
//! includes one is a lower bound and says so.
//!
//! Two designs. A *random* sample is extrapolated at its mean. A *graded*
//! sample takes one cube per grade (`grade`) and fits the logarithm of a
//! cube's cost as a straight line in its grade, which predicts every other
//! cube from its grade. Why the second: a claim's cost sits in its few most
//! open cubes, which a random sample of three usually misses; on every
//! finished 50-cube campaign a cube's cost grows by a steady factor per
//! grade, so the cheap middle grades forecast the dear top one
//! (docs/MEASUREMENTS.md, "Estimates that see the hard cubes").

use serde::Serialize;

use super::Plan;
use crate::error::HexError;

/// A sample as `cubes run --sample` draws it and `cubes estimate --sample` counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    pub size: usize,
    pub seed: u64,
    /// One cube per grade (`graded_sample`) instead of a random draw.
    pub graded: bool,
}

impl Sample {
    /// The cubes this sample names.
    ///
    /// # Errors
    ///
    /// A one-line reason when a graded sample asks for more cubes than the plan has grades.
    pub fn draw(&self, plan: &Plan) -> Result<Vec<usize>, String> {
        if self.graded {
            graded_sample(plan, self.size, self.seed)
        } else {
            Ok(sample(plan, self.size, self.seed))
        }
    }
}

/// The first `size` cubes of `plan` in the order drawn by `seed`.
pub fn sample(plan: &Plan, size: usize, seed: u64) -> Vec<usize> {
    let mut keyed: Vec<(String, usize)> = (0..plan.cubes.len())
        .map(|i| (crate::digest::sha256_hex(format!("{seed}:{}", plan.cube_key(i)).as_bytes()), i))
        .collect();
    keyed.sort();
    keyed.into_iter().take(size).map(|(_, i)| i).collect()
}

/// How open cube `index` leaves the split cells: the sum of `value - 1`
/// over them (0 when all hold the lowest value, which constrains the
/// centre most).
pub fn grade(plan: &Plan, index: usize) -> u32 {
    plan.cubes[index].values.iter().map(|&v| u32::from(v.saturating_sub(1))).sum()
}

/// A graded sample of `size` cubes: one per grade, drawn by `seed` within
/// it, from the second most open grade down, the most open last (its cubes
/// are the dearest to sample).
///
/// # Errors
///
/// A one-line reason when the plan has fewer grades than `size`.
pub fn graded_sample(plan: &Plan, size: usize, seed: u64) -> Result<Vec<usize>, String> {
    let mut grades: Vec<u32> = (0..plan.cubes.len()).map(|i| grade(plan, i)).collect();
    grades.sort_unstable_by(|a, b| b.cmp(a));
    grades.dedup();
    if size > grades.len() {
        return Err(format!(
            "a graded sample takes one cube per grade, and this plan's cubes have {} grades, not {size}",
            grades.len()
        ));
    }
    grades.rotate_left(1);
    let order = sample(plan, plan.cubes.len(), seed);
    Ok(grades[..size]
        .iter()
        .map(|&g| *order.iter().find(|&&i| grade(plan, i) == g).expect("every grade has a cube"))
        .collect())
}

/// The line a graded estimate fits: `ln(cost) = intercept + slope * grade`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GradeFit {
    /// `e^slope`: how many times dearer a cube is one grade more open.
    pub factor_per_grade: f64,
    /// Distinct grades among the counted cubes.
    pub grades: usize,
    /// Standard deviation of the fit's residuals (natural log of seconds).
    pub residual_sd: f64,
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
    /// The counted cubes' seconds together (what the sample cost).
    pub measured: f64,
    /// The sample's time plus the other cubes' forecast (`cubes * mean` for
    /// a random sample): a lower bound when `censored > 0`.
    pub total: f64,
    /// The 95 % interval. Random sample: `cubes * (mean -+ 1.96 standard
    /// errors)`, corrected for sampling without replacement (exact when
    /// every cube is sampled) and never below the time already measured;
    /// solve times are heavy-tailed, so a small sample that misses the few
    /// hard cubes underestimates and this interval cannot see it. Graded:
    /// the line's confidence band (Student's t) at every forecast cube's
    /// grade, summed, times the 95 % spread of those cubes' own draws about
    /// the line (their sum taken as log-normal).
    pub low: f64,
    pub high: f64,
    /// The total is a lower bound (some sampled cube was censored).
    pub lower_bound: bool,
    /// The graded estimate's line; `None` for a random sample's mean.
    pub fit: Option<GradeFit>,
}

impl Estimate {
    /// From finished cubes' solve seconds and censored cubes' limits; `None` for an empty sample.
    pub fn new(cubes: usize, finished: &[f64], censored: &[f64]) -> Option<Estimate> {
        let mut times: Vec<f64> = finished.iter().chain(censored).copied().collect();
        if times.is_empty() {
            return None;
        }
        let k = times.len() as f64;
        let mean = times.iter().sum::<f64>() / k;
        let variance =
            if times.len() > 1 { times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (k - 1.0) } else { 0.0 };
        let finite = if cubes > 1 { (cubes as f64 - k).max(0.0) / (cubes as f64 - 1.0) } else { 0.0 };
        let half_width = 1.96 * (variance / k * finite).sqrt();
        let measured: f64 = times.iter().sum();
        let (low, high) = ((cubes as f64 * (mean - half_width)).max(measured), cubes as f64 * (mean + half_width));
        Some(Estimate::spread(cubes, &mut times, censored.len(), cubes as f64 * mean, low, high, None))
    }

    /// The graded estimate: `grades` holds every cube's grade, `counted`
    /// the sampled cubes (index, seconds, censored). Every cube not counted
    /// is forecast from its grade.
    ///
    /// # Errors
    ///
    /// `HexError::Usage` when the counted cubes cannot fix a line: fewer
    /// than three, or all of one grade.
    pub fn graded(grades: &[u32], counted: &[(usize, f64, bool)]) -> Result<Estimate, HexError> {
        let points: Vec<(f64, f64)> =
            counted.iter().map(|&(i, t, _)| (f64::from(grades[i]), t.max(1e-3).ln())).collect();
        let mut distinct: Vec<u32> = counted.iter().map(|&(i, ..)| grades[i]).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if points.len() < 3 || distinct.len() < 2 {
            return Err(HexError::Usage(format!("a graded estimate fits a line and needs records in at least 3 cubes of 2 grades; it has {} cube(s) of {} grade(s)", points.len(), distinct.len())));
        }
        let k = points.len() as f64;
        let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / k, points.iter().map(|p| p.1).sum::<f64>() / k);
        let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
        let slope = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
        let line = |x: f64| my + slope * (x - mx);
        let s2 = points.iter().map(|p| (p.1 - line(p.0)).powi(2)).sum::<f64>() / (k - 2.0);
        let t = student_t_975(points.len() - 2);
        let mut times: Vec<f64> = counted.iter().map(|c| c.1).collect();
        let measured: f64 = times.iter().sum();
        // The forecast cubes: their mean total, its ends where the line's
        // band puts them, and the variance of their own draws about it.
        let (mut total, mut low, mut high, mut variance) = (0.0, 0.0, 0.0, 0.0);
        for (i, &g) in grades.iter().enumerate() {
            if counted.iter().any(|c| c.0 == i) {
                continue;
            }
            let x = f64::from(g);
            let band = t * (s2 * (1.0 / k + (x - mx).powi(2) / sxx)).sqrt();
            // e^(s2/2): the mean of a log-normal cost, not its median.
            let mean = (line(x) + s2 / 2.0).exp();
            total += mean;
            variance += (s2.exp() - 1.0) * mean * mean;
            low += (line(x) - band + s2 / 2.0).exp();
            high += (line(x) + band + s2 / 2.0).exp();
        }
        // The band says where the line lies, not where a cube falls: with
        // few cubes left one dear draw decides the total (n = 17's level 3
        // at 49 of 50 records: the band said at most 15,377 s, the last cube
        // made it 17,023). Their sum, taken as log-normal with that mean and
        // variance (Fenton and Wilkinson), widens the band by its own 95 %
        // spread: exactly one cube's spread when one is left, little when
        // many are.
        let sigma = if total > 0.0 { (1.0 + variance / (total * total)).ln().sqrt() } else { 0.0 };
        let (low, high) =
            (low * (-sigma * sigma / 2.0 - 1.96 * sigma).exp(), high * (-sigma * sigma / 2.0 + 1.96 * sigma).exp());
        let censored = counted.iter().filter(|c| c.2).count();
        let fit = GradeFit { factor_per_grade: slope.exp(), grades: distinct.len(), residual_sd: s2.sqrt() };
        Ok(Estimate::spread(
            grades.len(),
            &mut times,
            censored,
            measured + total,
            measured + low,
            measured + high,
            Some(fit),
        ))
    }

    fn spread(
        cubes: usize,
        times: &mut [f64],
        censored: usize,
        total: f64,
        low: f64,
        high: f64,
        fit: Option<GradeFit>,
    ) -> Estimate {
        times.sort_by(f64::total_cmp);
        let (min, median, max) = (times[0], times[times.len() / 2], times[times.len() - 1]);
        let measured = times.iter().sum();
        Estimate {
            cubes,
            sampled: times.len(),
            censored,
            min,
            median,
            max,
            measured,
            total,
            low,
            high,
            lower_bound: censored > 0,
            fit,
        }
    }
}

/// Student's t distribution's 97.5 % point with `df` degrees of freedom
/// (the 95 % two-sided interval), from the standard table; 1.96 past 30.
fn student_t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    TABLE.get(df.wrapping_sub(1)).copied().unwrap_or(1.96)
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

    #[test]
    fn a_graded_estimate_follows_the_line_through_its_grades() {
        // Cubes of grades 0..=5, two each, costing 3^grade: the line through
        // three of them forecasts the other nine exactly, so the band closes.
        let grades: Vec<u32> = (0..12).map(|i| i / 2).collect();
        let cost = |i: usize| 3f64.powi(grades[i] as i32);
        let e = Estimate::graded(&grades, &[(2, cost(2), false), (6, cost(6), false), (8, cost(8), false)]).unwrap();
        let truth: f64 = (0..12).map(cost).sum();
        let fit = e.fit.as_ref().unwrap();
        assert!((fit.factor_per_grade - 3.0).abs() < 1e-9 && fit.residual_sd < 1e-9 && fit.grades == 3, "{e:?}");
        assert!(
            (e.total - truth).abs() < 1e-6 * truth
                && (e.low - e.total).abs() < 1e-6 * truth
                && (e.high - e.total).abs() < 1e-6 * truth,
            "{e:?}"
        );
        assert_eq!((e.cubes, e.sampled, e.max), (12, 3, 81.0));
        // Scatter about the line widens the band around the total.
        let noisy = Estimate::graded(&grades, &[(2, 2.0, false), (6, 40.0, false), (8, 50.0, true)]).unwrap();
        assert!(
            noisy.low < noisy.total && noisy.total < noisy.high && noisy.lower_bound && noisy.censored == 1,
            "{noisy:?}"
        );
        assert!(Estimate::graded(&grades, &[(2, 1.0, false), (3, 2.0, false), (4, 9.0, false)]).is_ok());
        // One cube of 60 left, the others scattered e^-+0.5 about 3^grade:
        // the line is pinned, so the interval is that cube's own 95 % spread.
        let many: Vec<u32> = (0..60).map(|i| i / 10).collect();
        let scattered: Vec<(usize, f64, bool)> = (0..59)
            .map(|i| (i, 3f64.powi(many[i] as i32) * (if i % 2 == 0 { 0.5f64 } else { -0.5 }).exp(), false))
            .collect();
        let last = Estimate::graded(&many, &scattered).unwrap();
        let (measured, s) = (scattered.iter().map(|c| c.1).sum::<f64>(), last.fit.as_ref().unwrap().residual_sd);
        let draw = |z: f64| (243f64.ln() + z * s).exp();
        assert!(last.high - measured > 0.9 * draw(1.96) && last.low - measured < draw(-1.96) / 0.9, "{last:?}");
        assert!(Estimate::graded(&grades, &[(2, 1.0, false), (3, 2.0, false)])
            .unwrap_err()
            .to_string()
            .contains("at least 3 cubes of 2 grades"));
        assert!(
            Estimate::graded(&[1, 1, 1, 1], &[(0, 1.0, false), (1, 2.0, false), (2, 3.0, false)]).is_err(),
            "one grade fixes no line"
        );
    }
}
