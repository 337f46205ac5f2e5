//! What a lift's counting run keeps of its layers, so that one counted
//! refinement can be drawn back for the validator (`lift::Lift::witness`).
//!
//! Every layer is kept while they are small: the draw-back then reads them
//! as they are. Past `TRAIL_BYTES` the trail thins to one layer in about
//! the square root of their number L, and the draw-back replays the layers
//! between two kept ones on flags, a segment at a time, so that about
//! 2 sqrt(L) layers are held instead of L: n = 16's level 6 from level 3
//! at 47 held every layer and ran out of 24 GB. Thinning costs one more
//! pass of the program on flags, and only the partials whose layers are
//! that large pay it (n = 13's level 6: 133.7 s user keeping every layer,
//! 168.5 s thinned always, 132.4 s with the budget; docs/MEASUREMENTS.md).

use crate::counting::tally::Tally;

/// Bytes of kept layers (per class lifted, so per thread) past which the
/// trail thins.
pub(super) const TRAIL_BYTES: usize = 1 << 30;

/// One layer as the draw-back reads it: its states, and per state a bitset
/// of the penalties added that reach it (`words` words each).
pub(super) struct Reached {
    pub states: Vec<u128>,
    bits: Vec<u64>,
    words: usize,
}

impl Reached {
    /// The layer of `len` states given as (state, counts by penalty added).
    pub fn of<'a, T: Tally + PartialEq + 'a>(
        layer: impl Iterator<Item = (u128, &'a [T])>,
        len: usize,
        width: usize,
    ) -> Reached {
        let words = width.div_ceil(64);
        let (mut states, mut bits) = (Vec::with_capacity(len), vec![0u64; len * words]);
        let zero = T::zero();
        for (k, (state, counts)) in layer.enumerate() {
            states.push(state);
            for (added, _) in counts.iter().enumerate().filter(|(_, c)| **c != zero) {
                bits[k * words + added / 64] |= 1 << (added % 64);
            }
        }
        Reached { states, bits, words }
    }

    pub fn reached(&self, k: usize, added: usize) -> bool {
        self.bits[k * self.words + added / 64] >> (added % 64) & 1 == 1
    }

    fn bytes(&self) -> usize {
        self.states.len() * 16 + self.bits.len() * 8
    }
}

/// The kept layers: the one before each position `0, stride, 2 stride, ...`.
pub(super) struct Trail {
    kept: Vec<Reached>,
    stride: usize,
    bytes: usize,
    budget: usize,
    positions: usize,
}

impl Trail {
    /// An empty trail of a program over `positions` positions, thinned
    /// past `budget` bytes (`TRAIL_BYTES`; 0 thins it at once).
    pub fn new(positions: usize, budget: usize) -> Trail {
        Trail { kept: Vec::new(), stride: 1, bytes: 0, budget, positions }
    }

    /// Whether the layer before position `i` is to be kept.
    pub fn wants(&self, i: usize) -> bool {
        i.is_multiple_of(self.stride)
    }

    /// Keeps the next wanted layer; past the budget, keeps only one in
    /// about sqrt(L) of those kept so far and from now on.
    pub fn keep(&mut self, layer: Reached) {
        self.bytes += layer.bytes();
        self.kept.push(layer);
        if self.stride == 1 && self.bytes > self.budget {
            // Kept so far: every position, so a layer's index is its position.
            let stride = self.positions.isqrt().max(2);
            let mut position = 0;
            self.kept.retain(|_| {
                position += 1;
                (position - 1) % stride == 0
            });
            (self.stride, self.bytes) = (stride, self.kept.iter().map(Reached::bytes).sum());
        }
    }

    /// Forgets every layer (the run starts again).
    pub fn clear(&mut self) {
        *self = Trail::new(self.positions, self.budget);
    }

    /// Each kept layer with the positions it starts, `from..end`: the
    /// layers before `from + 1..end` are to be replayed from it.
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = (std::ops::Range<usize>, &Reached)> {
        self.kept
            .iter()
            .enumerate()
            .map(|(j, kept)| (j * self.stride..((j + 1) * self.stride).min(self.positions), kept))
    }
}
