//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data, and the key XOR the data.
//! Threads read and write entries racily by design; a torn entry (key from
//! one write, data from another) fails the XOR check and reads as a miss, so
//! a probe never returns data stored for another position. Entries sit in
//! 64-byte clusters of four, one cache line per probe.

use crate::types::Move;
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
    /// `search::score_from_tt`).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    entries: [Entry; 4],
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);

// Data layout: move 16 | score 16 | eval 16 | depth 8 | generation 6 + bound 2.
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = mv.map_or(0, |m| m.bits()) as u64;
    let s = (score as i16) as u16 as u64;
    let e = (eval as i16) as u16 as u64;
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
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one cluster).
    pub fn new(mb: usize) -> TranspositionTable {
        let count = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Cluster>()).max(1);
        let mut clusters = Vec::new();
        clusters.resize_with(count, Cluster::default);
        TranspositionTable { clusters, generation: AtomicU8::new(0) }
    }

    pub fn size_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        for c in &mut self.clusters {
            *c = Cluster::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search so older entries are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1) & 0x3F, Ordering::Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        let index = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    pub fn probe(&self, key: u64) -> Option<TtData> {
        for e in &self.cluster(key).entries {
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
        let mut victim = &cluster.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &cluster.entries {
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
        let sample = self.clusters.len().min(250);
        let mut used = 0;
        for c in &self.clusters[..sample] {
            for e in &c.entries {
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
    fn size_stays_within_request() {
        let tt = TranspositionTable::new(3);
        assert!(tt.clusters.len() * 64 <= 3 * 1024 * 1024);
        assert_eq!(tt.size_mb(), 3);
    }
}
