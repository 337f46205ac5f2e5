//! `hexcert bound`: the border bound of `hexcert::bound` as a table, for a
//! range of sides and levels, or for each projection of a cube plan (the
//! annulus plus a centre disc restricted to the projection).

use std::fmt;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use hexcert::bound::{annulus, border_bound, disc_bound, projected};
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::outcome::Outcome;
use hexcert::records::plan::Plan;

use crate::args::{level_range, side_range};
use crate::commands::report::Reported;

/// `hexcert bound`'s arguments.
#[derive(clap::Args)]
pub struct BoundArgs {
    /// A side or an inclusive range: 5..=27.
    #[arg(long, value_parser = side_range)]
    n: (usize, usize),
    /// A level or an inclusive range of levels in 1..=6: 1..=4.
    #[arg(long, value_parser = level_range, default_value = "1..=4")]
    level: (u8, u8),
    /// How many outer rings form the border window (1..n; the cost grows
    /// steeply with it: 3 is the most measured).
    #[arg(long = "rings", default_value_t = 1)]
    depth: usize,
    /// A cube plan (plan.json): also bound each of its projections, the
    /// annulus plus a centre disc restricted to the projection, at the
    /// plan's side and level.
    #[arg(long)]
    plan: Option<PathBuf>,
    /// With --plan: the radius of the centre disc window.
    #[arg(long = "disc-radius", default_value_t = 2, requires = "plan")]
    radius: usize,
}

impl BoundArgs {
    pub fn run(&self) -> Result<Reported, HexError> {
        bound(self.n, self.level, self.depth, self.plan.as_deref(), self.radius)
    }
}

/// One side's bounds, one per level.
#[derive(Serialize)]
struct Row {
    n: usize,
    bounds: Vec<u32>,
}

/// One projection of a plan: the annulus, the disc under the projection, and their sum.
#[derive(Serialize)]
struct CubeRow {
    values: Vec<u8>,
    depth: u8,
    disc: Option<u32>,
    total: Option<u32>,
}

#[derive(Serialize)]
struct BoundTable {
    depth: usize,
    levels: Vec<u8>,
    rows: Vec<Row>,
    /// With --plan: the plan's side and level, the disc's radius, each projection.
    plan: Option<(usize, u8, usize, Vec<CubeRow>)>,
}

impl fmt::Display for BoundTable {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "Border bound, outer {} ring(s):", self.depth)?;
        let heads: Vec<String> = self.levels.iter().map(|k| format!("L{k}")).collect();
        writeln!(f, "| n | {} |", heads.join(" | "))?;
        writeln!(f, "|---|{}", "---|".repeat(self.levels.len()))?;
        for row in &self.rows {
            let cells: Vec<String> = row.bounds.iter().map(u32::to_string).collect();
            writeln!(f, "| {} | {} |", row.n, cells.join(" | "))?;
        }
        if let Some((n, level, radius, cubes)) = &self.plan {
            writeln!(f, "\nn = {n}, level {level}: annulus + centre disc of radius {radius}, per projection:")?;
            writeln!(f, "| projection | disc | annulus + disc |\n|---|---|---|")?;
            let shown = |b: &Option<u32>| b.map_or("none valid".to_string(), |b| b.to_string());
            for cube in cubes {
                let values: Vec<String> = cube.values.iter().map(u8::to_string).collect();
                writeln!(f, "| {} | {} | {} |", values.join(","), shown(&cube.disc), shown(&cube.total))?;
            }
        }
        Ok(())
    }
}

/// The table for sides `sides`, levels `levels`, the outer `depth` rings;
/// with a plan, also each of its projections with a disc of `radius`.
pub fn bound(
    sides: (usize, usize),
    levels: (u8, u8),
    depth: usize,
    plan: Option<&Path>,
    radius: usize,
) -> Result<Reported, HexError> {
    let level_list: Vec<u8> = (levels.0..=levels.1).collect();
    let jobs: Vec<(usize, u8)> = (sides.0..=sides.1).flat_map(|n| level_list.iter().map(move |&k| (n, k))).collect();
    let bounds: Vec<u32> = jobs.par_iter().map(|&(n, k)| border_bound(n, k, depth)).collect::<Result<_, _>>()?;
    let rows =
        (sides.0..=sides.1).zip(bounds.chunks(level_list.len())).map(|(n, b)| Row { n, bounds: b.to_vec() }).collect();
    let plan = plan.map(|path| plan_rows(path, depth, radius)).transpose()?;
    Ok(Reported::new(BoundTable { depth, levels: level_list, rows, plan }, Outcome::Done))
}

fn plan_rows(path: &Path, depth: usize, radius: usize) -> Result<(usize, u8, usize, Vec<CubeRow>), HexError> {
    let plan = Plan::read(path)?;
    let hex = Hexagon::new(plan.n)?;
    if !annulus::apart(&hex, depth, radius) {
        return Err(HexError::Usage(format!(
            "the disc of radius {radius} meets the outer {depth} ring(s) of side {}",
            plan.n
        )));
    }
    let border = border_bound(plan.n, plan.level, depth)?;
    let mut projections: Vec<(u8, Vec<u8>)> = plan.cubes.iter().map(|c| (c.depth, c.values.clone())).collect();
    projections.dedup();
    let cubes = projections
        .into_par_iter()
        .map(|(cube_depth, values)| {
            let allowed = plan.cells.iter().zip(&values).map(|(&c, &v)| (c, projected(plan.level, cube_depth, v)));
            let disc = disc_bound(&hex, plan.level, radius, allowed.collect())?;
            Ok(CubeRow { values, depth: cube_depth, disc, total: disc.map(|d| d + border) })
        })
        .collect::<Result<_, HexError>>()?;
    Ok((plan.n, plan.level, radius, cubes))
}
