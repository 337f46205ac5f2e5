//! `check` of an optimum: its claim and witness, and every level minimum
//! it states held against the claims beside it, each checked in the same
//! run (`CheckRun::check`).

use std::path::Path;

use super::run::CheckRun;
use crate::error::{AtPath, HexError, RecordError};
use crate::levels::Partial;
use crate::records::ranges::check_n_directory;
use crate::records::{Optimum, Status};

impl CheckRun<'_> {
    pub(super) fn check_optimum(
        &mut self,
        path: &Path,
        optimum: &Optimum,
        messages: &mut Vec<String>,
        needs_veripb: &mut bool,
    ) -> Result<Status, HexError> {
        check_n_directory(path, optimum.n)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        // The claim is checked (and reported) whatever the witness turns out to be.
        let claim_path = dir.join(&optimum.lower_bound).join("claim.json");
        let claim_report = self.check(&claim_path);
        let claim_status = claim_report.status;
        *needs_veripb = claim_report.needs_veripb;
        let grid = crate::verify::witness::check_optimum_witness(dir, optimum, messages)?;
        // The claim's own check judged its format; here only what it states
        // matters (a legacy claim is unverified, not failed).
        let statement = crate::verify::witness::lower_bound_statement(&claim_path, optimum)?;
        messages.push(format!("lower bound {} ({statement}): {}", claim_path.display(), claim_status.name()));
        let minima = self.check_level_minima(path, optimum, &grid, messages)?;
        let rests_on = [(claim_report.status, claim_report.needs_veripb), (minima.status, minima.needs_veripb)];
        *needs_veripb = rests_on.iter().filter(|(status, _)| *status == Status::Unverified).all(|&(_, veripb)| veripb);
        Ok(Status::Verified.and(claim_status).and(minima.status))
    }

    /// Holds every level minimum the optimum states against the claims
    /// beside it, each checked in this run. A claim "no level-j partial
    /// below B" bounds every level k >= j from below (a level-k partial
    /// reads as a level-j one of no greater penalty): a stated minimum below
    /// the bound of a claim verified here fails. A minimum is verified only
    /// when such a claim proves it from below (or it is 0) *and* a stored
    /// witness reaches it: the witness grid (read at level k; from the lower
    /// bound's level on it reaches the optimum), a level witness beside the
    /// claim "level k below the minimum" (`witness::check_level_witness`),
    /// or the one `certify` keeps beside the optimum
    /// (`witness::optimum_level_witness`).
    /// What the record says of how it was found (the search's models, the
    /// `unreached` list) is not evidence: a level no stored witness reaches
    /// is reported "at least" its minimum, and the optimum unverified.
    fn check_level_minima(
        &mut self,
        path: &Path,
        optimum: &Optimum,
        grid: &Partial,
        messages: &mut Vec<String>,
    ) -> Result<MinimaVerdict, HexError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let claims = self.claims_beside_optimum(path, optimum)?;
        let minima = &optimum.level_minima;
        let mut verdict = MinimaVerdict { status: Status::Verified, needs_veripb: true };
        let (mut resting, mut at_least) = (Vec::new(), Vec::new());
        for (k, &minimum) in (1u8..).zip(minima) {
            let bounding = |c: &&StatedBound| c.level <= k;
            if let Some(c) = claims.iter().filter(bounding).find(|c| c.below > minimum) {
                let why = format!("level_minima: level {k} is stated {minimum}, but {} ({}) says no level-{k} partial has penalty below {}", c.name, c.status.name(), c.below);
                // A claim whose proof was checked here (its derivation aside, for lack of VeriPB) outweighs the search's record.
                if c.status == Status::Verified || c.needs_veripb {
                    return Err(RecordError::Header(why).at(path));
                }
                messages.push(why);
                verdict.unverified(false);
                continue;
            }
            let from_below = claims.iter().filter(bounding).find(|c| c.below == minimum);
            match from_below {
                _ if minimum == 0 => {}
                None => {
                    messages.push(format!("level_minima: no claim beside the optimum proves the level-{k} minimum {minimum} from below: unverified"));
                    verdict.unverified(false);
                }
                Some(c) if c.status != Status::Verified => {
                    if !resting.contains(&c.name) {
                        resting.push(c.name.clone());
                    }
                    verdict.unverified(c.needs_veripb);
                }
                Some(_) => {}
            }
            let level_witness = from_below.is_some_and(|c| c.level == k && c.witness);
            let reached = k >= optimum.lower_bound_level
                || level_witness
                || crate::verify::witness::penalty_at_level(grid, k)? == minimum
                || crate::verify::witness::optimum_level_witness_reaches(dir, optimum.n, k, minimum)?;
            if !reached {
                at_least.push(format!("level {k} at least {minimum}"));
                verdict.unverified(false);
            }
        }
        if !resting.is_empty() {
            messages.push(format!("level minima from below ({}): unverified", resting.join(", ")));
        }
        if !at_least.is_empty() {
            messages.push(format!(
                "level minima: {}: no stored witness reaches {} (a level witness beside its claim, or the witness grid read at that level): unverified",
                at_least.join(", "),
                if at_least.len() == 1 { "it" } else { "them" }
            ));
        }
        if verdict.status == Status::Verified {
            let shown: Vec<String> = minima.iter().map(usize::to_string).collect();
            messages.push(format!("level minima {}: each proved from below by a claim verified in this run and reached by a stored witness", shown.join(" ")));
        }
        Ok(verdict)
    }

    /// The claims beside an optimum that bound one of its stated minima
    /// (a claim below its level's stated minimum bounds nothing stated: not
    /// checked), each checked in this run; verified ones first, strongest
    /// first, so that a minimum is held against the strongest word.
    fn claims_beside_optimum(&mut self, path: &Path, optimum: &Optimum) -> Result<Vec<StatedBound>, HexError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let minima = &optimum.level_minima;
        let mut claims = Vec::new();
        for entry in std::fs::read_dir(dir).at_path(dir)?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some((level, below)) = crate::records::ranges::claim_directory_numbers(&name) else { continue };
            let claim_path = entry.path().join("claim.json");
            if !(1..=6).contains(&level) || below < minima[usize::from(level) - 1] || !claim_path.is_file() {
                continue;
            }
            let report = self.check(&claim_path);
            if report.status != Status::Failed {
                let witness = entry.path().join(crate::verify::witness::LEVEL_WITNESS).is_file();
                claims.push(StatedBound {
                    name,
                    level,
                    below,
                    status: report.status,
                    needs_veripb: report.needs_veripb,
                    witness,
                });
            }
        }
        claims.sort_by_key(|c| (c.status != Status::Verified, std::cmp::Reverse(c.below)));
        Ok(claims)
    }
}

/// A claim beside an optimum, as this run judged it.
struct StatedBound {
    name: String,
    level: u8,
    below: usize,
    status: Status,
    needs_veripb: bool,
    /// A level witness beside it (checked with the claim).
    witness: bool,
}

/// What the level minima of an optimum came to.
struct MinimaVerdict {
    status: Status,
    /// Every reason they are unverified is VeriPB's absence.
    needs_veripb: bool,
}

impl MinimaVerdict {
    fn unverified(&mut self, for_lack_of_veripb: bool) {
        self.status = Status::Unverified;
        self.needs_veripb &= for_lack_of_veripb;
    }
}
