//! The clause store: every clause's literals in one flat arena, found by id.
//!
//! Invariants: ids are added in strictly increasing order, so a clause's
//! arena offset grows with its id and compaction can slide live clauses down
//! in id order without reordering; an id's slot is `ABSENT` until added and
//! `DELETED` after deletion (a tombstone, never reused, except that
//! `retire` forgets every id from some point on, for the lifted check).

/// Slot length marking an id that was never added.
const ABSENT: u32 = u32::MAX;
/// Slot length marking a deleted id.
const DELETED: u32 = u32::MAX - 1;
/// Slack beyond twice the current table that an id may jump ahead: proof
/// producers number clauses densely, and the bound keeps a hostile id from
/// making the id table allocate gigabytes.
pub(crate) const ID_SLACK: u64 = 1 << 20;

#[derive(Clone, Copy)]
struct Slot {
    start: u32,
    len: u32,
}

const ABSENT_SLOT: Slot = Slot { start: 0, len: ABSENT };

/// What an id names right now.
pub(crate) enum Lookup<'a> {
    Live(&'a [i32]),
    Deleted,
    Absent,
}

/// Why a deletion was refused.
pub(crate) enum DeleteRefusal {
    Unknown,
    AlreadyDeleted,
}

pub(crate) struct ClauseStore {
    arena: Vec<i32>,
    /// Indexed by clause id; slot 0 is never used since ids start at 1.
    slots: Vec<Slot>,
    /// Arena literals owned by deleted clauses, reclaimed by `compact`.
    garbage: usize,
    last_id: u64,
}

impl ClauseStore {
    pub(crate) fn with_capacity(clauses: usize, literals: usize) -> Self {
        let mut slots = Vec::with_capacity(clauses + 1);
        slots.push(ABSENT_SLOT);
        ClauseStore { arena: Vec::with_capacity(literals), slots, garbage: 0, last_id: 0 }
    }

    /// The largest id added so far (0 before any).
    pub(crate) fn last_id(&self) -> u64 {
        self.last_id
    }

    /// The largest id `push` will accept next.
    pub(crate) fn id_limit(&self) -> u64 {
        (self.slots.len() as u64).saturating_mul(2).saturating_add(ID_SLACK)
    }

    /// Stores a clause. The caller has checked `last_id < id <= id_limit()`.
    /// Returns false only if the arena would outgrow 32-bit offsets even
    /// after compaction (billions of live literals).
    pub(crate) fn push(&mut self, id: u64, lits: &[i32]) -> bool {
        debug_assert!(id > self.last_id && id <= self.id_limit());
        if self.arena.len() + lits.len() >= u32::MAX as usize {
            self.compact();
            if self.arena.len() + lits.len() >= u32::MAX as usize {
                return false;
            }
        }
        let index = id as usize;
        if self.slots.len() <= index {
            self.slots.resize(index + 1, ABSENT_SLOT);
        }
        self.slots[index] = Slot { start: self.arena.len() as u32, len: lits.len() as u32 };
        self.arena.extend_from_slice(lits);
        self.last_id = id;
        true
    }

    #[inline]
    pub(crate) fn get(&self, id: u64) -> Lookup<'_> {
        let Some(slot) = self.slots.get(id as usize) else {
            return Lookup::Absent;
        };
        match slot.len {
            ABSENT => Lookup::Absent,
            DELETED => Lookup::Deleted,
            len => {
                let start = slot.start as usize;
                Lookup::Live(&self.arena[start..start + len as usize])
            }
        }
    }

    pub(crate) fn delete(&mut self, id: u64) -> Result<(), DeleteRefusal> {
        let Some(slot) = self.slots.get_mut(id as usize) else {
            return Err(DeleteRefusal::Unknown);
        };
        match slot.len {
            ABSENT => return Err(DeleteRefusal::Unknown),
            DELETED => return Err(DeleteRefusal::AlreadyDeleted),
            len => {
                self.garbage += len as usize;
                slot.len = DELETED;
            }
        }
        self.compact_if_worth_it();
        Ok(())
    }

    fn compact_if_worth_it(&mut self) {
        // Compaction walks every slot, so it also waits until the garbage is
        // worth a quarter of the table: without that, a small live set amid
        // tens of millions of ids would be walked over and over.
        if self.garbage * 2 > self.arena.len() && self.garbage * 4 >= self.slots.len() {
            self.compact();
        }
    }

    /// Forgets every id from `first` on, except that live clause `keep`
    /// (an id `>= first`, if given) is renumbered `first`; returns its new
    /// id. The live clauses only lose members, as by deletions, and the ids
    /// after `first` may be added again.
    pub(crate) fn retire(&mut self, first: u64, keep: Option<u64>) -> Option<u64> {
        debug_assert!(first >= 1 && keep.is_none_or(|id| id >= first));
        let kept = keep.and_then(|id| match self.get(id) {
            Lookup::Live(clause) => Some(clause.to_vec()),
            _ => None,
        });
        let cut = (first as usize).min(self.slots.len());
        // The forgotten clauses' literals become garbage, reclaimed by the
        // next compaction as deleted clauses' are.
        let live = self.slots[cut..].iter().filter(|slot| slot.len < DELETED);
        self.garbage += live.map(|slot| slot.len as usize).sum::<usize>();
        self.slots.truncate(cut);
        self.last_id = self.slots.iter().rposition(|slot| slot.len != ABSENT).unwrap_or(0) as u64;
        self.compact_if_worth_it();
        let lits = kept?;
        // Cannot fail: a compaction would leave less than the arena held.
        let pushed = self.push(first, &lits);
        debug_assert!(pushed);
        Some(first)
    }

    /// Slides live clauses down over the garbage, keeping id order.
    fn compact(&mut self) {
        let mut write = 0usize;
        for slot in self.slots.iter_mut() {
            if slot.len >= DELETED {
                continue;
            }
            let start = slot.start as usize;
            let len = slot.len as usize;
            self.arena.copy_within(start..start + len, write);
            slot.start = write as u32;
            write += len;
        }
        self.arena.truncate(write);
        self.garbage = 0;
    }

    /// Arena length, live plus not yet reclaimed (for tests of compaction).
    pub(crate) fn arena_len(&self) -> usize {
        self.arena.len()
    }
}
