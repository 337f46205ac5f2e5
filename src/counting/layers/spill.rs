//! Sorted runs spilled to scratch files, for layers whose successors outgrow
//! the sweep's memory budget.
//!
//! Invariants relied on:
//! - a spilled run is written in increasing key order and read back in the
//!   same order with the same counts (`Tally::write_to` and `read_from` are
//!   lossless), so merging spilled runs gives what merging the runs in memory
//!   would have;
//! - every file lives in one temporary directory that `Scratch` owns; it is
//!   removed when the `Scratch` is dropped, which happens on success, on an
//!   error returned through `?`, and on unwinding. Spill files are never
//!   results, so they are written in place, not renamed.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;

use tempfile::TempDir;

use crate::counting::basics::SweepError;
use crate::counting::layers::sorted::{merge, Keyed, Source};
use crate::counting::tally::Tally;

/// Buffer of each open scratch file: large enough that a merge over many
/// files reads sequentially, small enough that `MAX_FAN_IN` of them are cheap.
const BUFFER: usize = 1 << 16;

/// Most spilled runs merged at once (options table).
pub const MAX_FAN_IN: usize = crate::options::SPILL_FAN_IN.default;

/// The scratch directory of one sweep, created at the first spill.
#[derive(Default)]
pub struct Scratch {
    dir: Option<TempDir>,
    files: usize,
}

/// A run on disk.
pub struct Spilled {
    path: PathBuf,
    len: usize,
}

impl Scratch {
    /// Merges `sources` into a new scratch file.
    pub fn spill<T: Tally>(&mut self, sources: Vec<Source<'_, T, SweepError>>) -> Result<Spilled, SweepError> {
        let path = self.next_path()?;
        let file = File::create(&path).map_err(|e| SweepError::scratch(&path, e))?;
        let mut out = BufWriter::with_capacity(BUFFER, file);
        let mut len = 0;
        merge(sources, |(key, count)| {
            key.write_to(&mut out)
                .and_then(|()| count.write_to(&mut out))
                .map_err(|e| SweepError::scratch(&path, e))?;
            len += 1;
            Ok(())
        })?;
        out.flush().map_err(|e| SweepError::scratch(&path, e))?;
        Ok(Spilled { path, len })
    }

    /// Merges spilled runs into one file, once there are too many to read at once.
    pub fn compact<T: Tally>(&mut self, runs: &mut Vec<Spilled>) -> Result<(), SweepError> {
        if runs.len() < MAX_FAN_IN {
            return Ok(());
        }
        let sources = runs.iter().map(Spilled::read::<T>).collect::<Result<Vec<_>, _>>()?;
        let merged = self.spill(sources)?;
        for run in runs.drain(..) {
            run.remove()?;
        }
        runs.push(merged);
        Ok(())
    }

    /// Files written so far.
    pub fn files(&self) -> usize {
        self.files
    }

    /// A fresh file name in the scratch directory (created on first use).
    pub fn next_path(&mut self) -> Result<PathBuf, SweepError> {
        if self.dir.is_none() {
            let dir = tempfile::Builder::new()
                .prefix("hexcert-sweep-")
                .tempdir()
                .map_err(|e| SweepError::scratch(&std::env::temp_dir(), e))?;
            self.dir = Some(dir);
        }
        let dir = self.dir.as_ref().expect("created above");
        self.files += 1;
        Ok(dir.path().join(format!("run-{}", self.files)))
    }
}

impl Spilled {
    /// The run as a merge source.
    pub fn read<T: Tally>(&self) -> Result<Source<'static, T, SweepError>, SweepError> {
        let path = self.path.clone();
        let file = File::open(&path).map_err(|e| SweepError::scratch(&path, e))?;
        let mut input = BufReader::with_capacity(BUFFER, file);
        Ok(Box::new((0..self.len).map(move |_| {
            let read = |input: &mut BufReader<File>| -> std::io::Result<Keyed<T>> {
                let key = u128::read_from(input)?;
                Ok((key, T::read_from(input)?))
            };
            read(&mut input).map_err(|e| SweepError::scratch(&path, e))
        })))
    }

    /// Deletes the file once merged, so the disk holds only live runs.
    pub fn remove(self) -> Result<(), SweepError> {
        std::fs::remove_file(&self.path).map_err(|e| SweepError::scratch(&self.path, e))
    }
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use super::*;
    use crate::counting::layers::sorted::{borrowed, merged_run, sorted_run, Layer, Run};

    /// Counts past `u128` with keys that repeat across runs.
    fn runs() -> Vec<Run<BigUint>> {
        let huge = BigUint::from(u128::MAX) * 3u8;
        (0..5u128)
            .map(|r| {
                let entries = (0..300u128).map(|i| ((i * 7 + r * 11) % 97, &huge + BigUint::from(i * r))).collect();
                sorted_run(entries).expect("big integers do not overflow")
            })
            .collect()
    }

    /// Big counts written to scratch files and merged back equal the merge in
    /// memory, and the scratch directory is gone once the `Scratch` is.
    #[test]
    fn spilled_big_counts_merge_like_counts_in_memory() {
        let runs = runs();
        let in_memory = Layer::merged(&runs, 4).expect("merges");
        let mut scratch = Scratch::default();
        let spilled: Vec<Spilled> =
            runs.iter().map(|run| scratch.spill(vec![borrowed(run)]).expect("spills")).collect();
        let sources = spilled.iter().map(Spilled::read::<BigUint>).collect::<Result<Vec<_>, _>>().expect("reads");
        let from_disk = merged_run(sources).expect("merges");
        let flat: Vec<_> = in_memory.iter().cloned().collect();
        assert_eq!(from_disk, flat);
        assert!(flat.windows(2).all(|w| w[0].0 < w[1].0), "keys once, in order");
        assert!(flat.iter().all(|e| e.1 > BigUint::from(u128::MAX)));
        let dir = scratch.dir.as_ref().expect("created").path().to_path_buf();
        assert!(dir.exists());
        drop(scratch);
        assert!(!dir.exists(), "scratch directory left behind");
    }
}
