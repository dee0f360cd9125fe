//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data, and the key XOR the data.
//! Threads read and write entries racily by design; a torn entry (key from
//! one write, data from another) fails the XOR check and reads as a miss, so
//! a probe never returns data stored for another position. Entries sit in
//! 64-byte clusters of four, one cache line per probe.

use crate::types::Move;
use crate::types::score::to_i16;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtData {
    pub mv: Option<Move>,
    /// Score as stored (mate scores relative to the stored node; see
    /// `types::score::from_tt`).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// One entry: the packed data, and the key XOR the data.
struct Entry<'a> {
    key_xor_data: &'a AtomicU64,
    data: &'a AtomicU64,
}

/// Words per cluster: four entries of two words, 64 bytes.
const CLUSTER_WORDS: usize = 8;
const CLUSTER_BYTES: usize = CLUSTER_WORDS * 8;
/// The largest table `clear` zeroes in place rather than allocating afresh.
const CLEAR_IN_PLACE_MB: usize = 32;

// Data layout: move 16 | score 16 | eval 16 | depth 8 | generation 6 + bound 2.
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = mv.map_or(0, |m| m.bits()) as u64;
    let s = to_i16(score) as u16 as u64;
    let e = to_i16(eval) as u16 as u64;
    let d = (depth.clamp(-1, 254) + 1) as u64;
    let gb = ((generation as u64 & 0x3F) << 2) | bound as u64;
    m | s << 16 | e << 32 | d << 48 | gb << 56
}

fn unpack(data: u64) -> Option<TtData> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtData {
        mv: Move::from_bits(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - 1,
        bound,
    })
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32 - 1
}

fn generation_of(data: u64) -> u8 {
    ((data >> 58) & 0x3F) as u8
}

pub struct TranspositionTable {
    /// The clusters, `CLUSTER_WORDS` words each, from word `first` on (the
    /// first word on a 64-byte boundary, so a cluster is one cache line).
    words: Box<[AtomicU64]>,
    first: usize,
    clusters: usize,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one cluster); if the allocator
    /// cannot give that much, the largest half, quarter, ... it can.
    ///
    /// The memory comes zeroed in one allocation (an all-zero word is an
    /// empty entry): the operating system hands out untouched pages, so even
    /// gigabytes take no time here and a GUI's `isready` after `setoption
    /// Hash` is answered at once; the pages fill in as the search writes.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut clusters = (mb.max(1).saturating_mul(1024 * 1024) / CLUSTER_BYTES).max(1);
        // Seven spare words to reach the 64-byte boundary.
        let words = loop {
            let len = clusters.saturating_mul(CLUSTER_WORDS).saturating_add(CLUSTER_WORDS - 1);
            match bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(len) {
                Ok(words) => break words,
                Err(()) if clusters > 1 => clusters /= 2,
                // Not even 64 bytes: nothing else could run either.
                Err(()) => panic!("no memory for a one-cluster hash table"),
            }
        };
        // Before the first write: the pages are then huge from the start.
        crate::huge_pages::advise(&words);
        let misalign = (words.as_ptr() as usize % CLUSTER_BYTES) / 8;
        let first = (CLUSTER_WORDS - misalign) % CLUSTER_WORDS;
        TranspositionTable { words, first, clusters, generation: AtomicU8::new(0) }
    }

    pub fn size_mb(&self) -> usize {
        self.clusters * CLUSTER_BYTES / (1024 * 1024)
    }

    /// Forgets every entry. A table up to `CLEAR_IN_PLACE_MB` is zeroed where
    /// it is (a few milliseconds), so that its pages, huge ones included,
    /// stay mapped: datagen clears its table before every game. A larger one
    /// is replaced by a fresh zeroed table of the same size (the old one
    /// freed first), as fast as `new` whatever the size, so that a GUI's
    /// `ucinewgame` with gigabytes of hash is answered at once.
    pub fn clear(&mut self) {
        let mb = self.size_mb();
        if mb <= CLEAR_IN_PLACE_MB {
            self.words.iter_mut().for_each(|word| *word.get_mut() = 0);
            *self.generation.get_mut() = 0;
            return;
        }
        self.words = Box::new([]);
        *self = TranspositionTable::new(mb);
    }

    /// Called once per search so older entries are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1) & 0x3F, Ordering::Relaxed);
    }

    #[inline]
    fn cluster_at(&self, index: usize) -> [Entry<'_>; 4] {
        let w = &self.words[self.first + index * CLUSTER_WORDS..][..CLUSTER_WORDS];
        std::array::from_fn(|i| Entry { key_xor_data: &w[2 * i], data: &w[2 * i + 1] })
    }

    /// The cluster `key` belongs to.
    #[inline]
    fn cluster_index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters as u128) >> 64) as usize
    }

    #[inline]
    fn cluster(&self, key: u64) -> [Entry<'_>; 4] {
        self.cluster_at(self.cluster_index(key))
    }

    /// Starts fetching the cache line of `key`'s cluster, so that the probe
    /// which follows soon (the search of the position after a move) does
    /// not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let first_word = self.first + self.cluster_index(key) * CLUSTER_WORDS;
        crate::prefetch::prefetch(&self.words[first_word]);
    }

    pub fn probe(&self, key: u64) -> Option<TtData> {
        for e in &self.cluster(key) {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        // Same position: refresh it. Otherwise replace the entry that is
        // least worth keeping: shallow, and from an older search.
        let mut victim = &cluster[0];
        let mut victim_worth = i32::MAX;
        for e in &cluster {
            let data = e.data.load(Ordering::Relaxed);
            let stored_key = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            if stored_key == key {
                let old = unpack(data);
                // Keep a deeper exact entry of the same search unless this
                // one is exact too.
                if let Some(old) = old
                    && bound != Bound::Exact
                    && old.depth > depth + 3
                    && generation_of(data) == generation
                {
                    return;
                }
                let mv = mv.or(old.and_then(|o| o.mv));
                let new = pack(mv, score, eval, depth, bound, generation);
                e.data.store(new, Ordering::Relaxed);
                e.key_xor_data.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 0x3F) as i32;
            let worth = if data == 0 { i32::MIN } else { depth_of(data) - 8 * age };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let new = pack(mv, score, eval, depth, bound, generation);
        victim.data.store(new, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.clusters.min(250);
        let mut used = 0;
        for index in 0..sample {
            for e in &self.cluster_at(index) {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        if sample == 0 { 0 } else { (used * 1000 / (sample * 4)) as u32 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::parse("h2e2");
        tt.store(0xDEAD_BEEF, m, -31_000, 55, 12, Bound::Lower);
        let d = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((d.mv, d.score, d.eval, d.depth, d.bound), (m, -31_000, 55, 12, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.store(0xDEAD_BEEF, None, 3, 4, -1, Bound::Exact);
        let d = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((d.mv, d.depth, d.bound), (m, -1, Bound::Exact), "the move survives a store without one");
    }

    #[test]
    fn clearing_forgets_every_entry_in_place_or_afresh() {
        for mb in [1, CLEAR_IN_PLACE_MB + 1] {
            let mut tt = TranspositionTable::new(mb);
            for key in 0..1000u64 {
                tt.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), None, 1, 2, 3, Bound::Exact);
            }
            tt.new_search();
            assert!(tt.probe(0x9E37_79B9_7F4A_7C15).is_some());
            tt.clear();
            assert_eq!(tt.size_mb(), mb);
            assert_eq!(tt.generation.load(Ordering::Relaxed), 0);
            assert!(tt.words.iter().all(|word| word.load(Ordering::Relaxed) == 0), "{mb} MB: an entry left");
        }
    }

    #[test]
    fn size_stays_within_request() {
        let tt = TranspositionTable::new(3);
        assert!(tt.clusters * 64 <= 3 * 1024 * 1024);
        assert_eq!((tt.words.as_ptr() as usize + tt.first * 8) % 64, 0, "clusters on cache lines");
        assert!(tt.first + tt.clusters * CLUSTER_WORDS <= tt.words.len());
        assert_eq!(tt.size_mb(), 3);
    }
}
