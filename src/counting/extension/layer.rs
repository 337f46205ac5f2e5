//! One layer of the lift's program (`lift`): the states reached after a
//! position, each with its counts by penalty added so far.

use crate::counting::extension::trail::Reached;
use crate::counting::hashing::KeyHasher;
use crate::counting::tally::Tally;

/// One layer: each state with its refinements by penalty added so far, in
/// one flat vector (`width` counts a state) so that no state allocates. The
/// counts are `u128`, or `BigUint` for a partial whose refinements outgrow
/// it (n = 15 level 6 from level 3). The index holds each state's position
/// (4 bytes and a control byte), the state itself only `states`: a map keyed
/// by the `u128` states held each twice in 32-byte entries, and n = 16's
/// level-6 layers outgrew the machine.
pub(super) struct LiftLayer<T> {
    index: hashbrown::HashTable<u32>,
    pub(super) states: Vec<u128>,
    counts: Vec<T>,
}

impl<T: Tally> Default for LiftLayer<T> {
    fn default() -> Self {
        LiftLayer { index: hashbrown::HashTable::new(), states: Vec::new(), counts: Vec::new() }
    }
}

/// The hash of a state in a layer's index.
fn hashed(state: u128) -> u64 {
    use std::hash::BuildHasher;
    std::hash::BuildHasherDefault::<KeyHasher>::default().hash_one(state)
}

impl<T: Tally> LiftLayer<T> {
    pub(super) fn start(width: usize) -> LiftLayer<T> {
        let mut layer = LiftLayer::default();
        layer.slot(0, width)[0] = T::one();
        layer
    }

    pub(super) fn clear(&mut self) {
        self.index.clear();
        self.states.clear();
        self.counts.clear();
    }

    /// The counts of `state`, added (zero) if new.
    pub(super) fn slot(&mut self, state: u128, width: usize) -> &mut [T] {
        let states = &self.states;
        let entry =
            self.index.entry(hashed(state), |&at| states[at as usize] == state, |&at| hashed(states[at as usize]));
        let at = match entry {
            hashbrown::hash_table::Entry::Occupied(found) => *found.get() as usize,
            hashbrown::hash_table::Entry::Vacant(vacant) => {
                let next = states.len();
                vacant.insert(u32::try_from(next).expect("fewer than 2^32 states in a layer"));
                self.states.push(state);
                self.counts.resize(self.counts.len() + width, T::zero());
                next
            }
        };
        &mut self.counts[at * width..(at + 1) * width]
    }

    pub(super) fn get(&self, state: u128, width: usize) -> Option<&[T]> {
        let at = *self.index.find(hashed(state), |&at| self.states[at as usize] == state)? as usize;
        Some(&self.counts[at * width..(at + 1) * width])
    }

    /// What the draw-back keeps of this layer.
    pub(super) fn reached(&self, width: usize) -> Reached
    where
        T: PartialEq,
    {
        Reached::of(self.iter(width), self.states.len(), width)
    }

    pub(super) fn iter(&self, width: usize) -> impl Iterator<Item = (u128, &[T])> {
        self.states.iter().copied().zip(self.counts.chunks(width))
    }
}
