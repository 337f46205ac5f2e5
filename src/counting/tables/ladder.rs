//! The cost-to-finish tables of levels `1..=top`, all for one penalty bound.
//!
//! Invariants relied on:
//! - the level-j table is built on the level-(j-1) table of the same bound
//!   (`tables`), so a ladder is extended one level at a time without rebuilding;
//! - a table built for bound `B` is exact on every state of a valid
//!   assignment of penalty `<= B`, hence also usable for any bound `<= B`;
//! - its entry for the empty start state is the least penalty of a valid
//!   complete assignment, when that is `<= B` (and absent otherwise).

use crate::counting::basics::{check_bound, report_built, report_loaded, BuildStats, CountSettings};
use crate::counting::frontier::schedule::Schedule;
use crate::counting::tables::checkpoint;
use crate::counting::tables::guide::Guide;
use crate::counting::tables::journal::{self, Identity, Journal};
use crate::counting::tables::reference;
use crate::error::HexError;
use crate::geometry::Hexagon;

/// Tables of levels `1..=top()` for one bound.
pub struct Ladder<'h> {
    hex: &'h Hexagon,
    bound: usize,
    settings: &'h CountSettings,
    guides: Vec<Guide>,
    builds: Vec<BuildStats>,
}

impl<'h> Ladder<'h> {
    /// An empty ladder (level 0) for `bound`.
    pub fn new(hex: &'h Hexagon, bound: usize, settings: &'h CountSettings) -> Ladder<'h> {
        Ladder { hex, bound, settings, guides: Vec::new(), builds: Vec::new() }
    }

    /// The ladder of levels `1..=top` for `bound`, its tables built as `settings` say.
    pub fn up_to(hex: &'h Hexagon, top: u8, bound: usize, settings: &'h CountSettings) -> Result<Ladder<'h>, HexError> {
        let mut ladder = Ladder::new(hex, bound, settings);
        while ladder.top() < top {
            ladder.extend()?;
        }
        Ok(ladder)
    }

    /// The ladder up to `level <= 4` at a bound at least the level's minimum
    /// (equal when the start bound is at most the minimum), found level by
    /// level (each minimum is at least the one below), and that minimum.
    pub fn to_minimum(
        hex: &'h Hexagon,
        level: u8,
        settings: &'h CountSettings,
    ) -> Result<(Ladder<'h>, usize), HexError> {
        check_bound(settings.start)?;
        let mut ladder = Ladder::new(hex, settings.start, settings);
        let mut minimum = 0;
        for j in 1..=level {
            (ladder, minimum) = ladder.raised_to_minimum(j)?;
        }
        Ok((ladder, minimum))
    }

    /// This ladder extended to `level`, its bound raised until the level's
    /// minimum is within it, and that minimum. The bound is then at least the
    /// minimum, and equal to it when the ladder started at or below it.
    pub fn raised_to_minimum(mut self, level: u8) -> Result<(Ladder<'h>, usize), HexError> {
        while self.top() < level {
            self.extend()?;
        }
        loop {
            if let Some(minimum) = self.minimum(level) {
                return Ok((self, minimum));
            }
            check_bound(self.bound + 1)?;
            self = self.rebuilt(level, self.bound + 1)?;
        }
    }

    pub fn hex(&self) -> &'h Hexagon {
        self.hex
    }

    pub fn bound(&self) -> usize {
        self.bound
    }

    pub fn settings(&self) -> &'h CountSettings {
        self.settings
    }

    /// The same ladder for another bound, rebuilt to the same top.
    pub fn rebuilt(&self, top: u8, bound: usize) -> Result<Ladder<'h>, HexError> {
        Ladder::up_to(self.hex, top, bound, self.settings)
    }

    /// The highest level with a table (0 for none).
    pub fn top(&self) -> u8 {
        self.guides.len() as u8
    }

    /// Adds the table of level `top() + 1`.
    pub fn extend(&mut self) -> Result<(), HexError> {
        let schedule = Schedule::new(self.hex, self.top() + 1)?;
        let level = self.top() + 1;
        let saved =
            self.settings.checkpoints.as_ref().map(|dir| checkpoint::path(dir, self.hex.side(), level, self.bound));
        if let Some(path) = saved.as_ref().filter(|p| p.exists()) {
            let table = checkpoint::load(path, &schedule, self.hex.side(), self.bound)?;
            report_loaded(&self.settings.context, level, self.bound, path, table.size());
            self.settings.note_loaded(path);
            self.guides.push(table);
            return Ok(());
        }
        // A table of many hours must not be lost whole to a stop: with a
        // checkpoint directory its forward layers are journalled beside it.
        let side = self.hex.side();
        let journal = self.settings.checkpoints.as_ref().map(|dir| {
            let id = Identity { side, level, bound: self.bound, cells: schedule.cells };
            Journal::new(journal::dir(dir, side, level, self.bound), id)
        });
        let (table, stats) = reference::build(
            &schedule,
            self.bound,
            self.guides.last(),
            (self.settings.layers, journal.as_ref()),
            &self.settings.context,
        )?;
        report_built(&self.settings.context, &stats);
        if stats.resumed_layers + stats.resumed_tables > 0 {
            self.settings.note_loaded(journal.as_ref().expect("resumed from a journal").dir());
        }
        if let Some(path) = &saved {
            checkpoint::save(path, side, self.bound, &table)?;
        }
        if let Some(journal) = &journal {
            journal.remove()?;
        }
        self.builds.push(stats);
        self.guides.push(table);
        Ok(())
    }

    /// What building each table held and took, level by level.
    #[cfg(test)]
    pub fn builds(&self) -> &[BuildStats] {
        &self.builds
    }

    /// The table of `level`, if built (`None` for level 0).
    pub fn guide(&self, level: u8) -> Option<&Guide> {
        level.checked_sub(1).and_then(|j| self.guides.get(usize::from(j)))
    }

    /// The minimum level-k penalty, when it is `<= bound()`; `level <= top()`.
    pub fn minimum(&self, level: u8) -> Option<usize> {
        let table = self.guide(level).expect("the ladder reaches this level");
        table.future[0].get(&0).map(|&m| usize::from(m))
    }
}
