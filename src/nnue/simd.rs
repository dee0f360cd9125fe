//! The network's inner loops in two versions, chosen when the program
//! runs: plain Rust for any processor (`portable`), and AVX2 instructions
//! (`avx2`) for the processors that have them, nearly every PC of the last
//! ten years.
//!
//! The default build targets baseline x86-64, whose vectors are 128 bits
//! (SSE2): the compiler vectorises the plain loops on its own, but only
//! that wide. The AVX2 version works on 256 bits (16 units) at a time; on
//! `chariot nnue-speed` the output layer takes a quarter of the time and an
//! update about half. Integer sums are the same in any order and width, so
//! both versions give identical results; a test checks them against each
//! other and against the formula in `i64` on random rows.
//!
//! This module is the second place that allows `unsafe`: calling a function
//! compiled for AVX2 is `unsafe` because it would fault on a processor
//! without it (each call is made only after the processor was asked), and
//! so are the vector loads and stores, which take pointers.
#![allow(unsafe_code)]

use super::network::{HIDDEN, QA, Row};

/// The loops themselves, compiled for the baseline processor here and
/// inlined into the AVX2 versions.
pub(super) mod portable {
    use super::*;

    /// `acc += row`, unit by unit.
    #[inline(always)]
    pub fn add(acc: &mut Row, row: &Row) {
        for (v, w) in acc.0.iter_mut().zip(&row.0) {
            *v += w;
        }
    }

    /// `new = old + add - sub`, unit by unit.
    #[inline(always)]
    pub fn add_sub(new: &mut Row, old: &Row, add: &Row, sub: &Row) {
        for i in 0..new.0.len() {
            new.0[i] = old.0[i] + add.0[i] - sub.0[i];
        }
    }

    /// `new = old + add - sub - gone`, unit by unit.
    #[inline(always)]
    pub fn add_sub_sub(new: &mut Row, old: &Row, add: &Row, sub: &Row, gone: &Row) {
        for i in 0..new.0.len() {
            new.0[i] = old.0[i] + add.0[i] - sub.0[i] - gone.0[i];
        }
    }

    /// One half of the output layer: the sum over units of `clamp(v, 0,
    /// QA)² · w`, in units of QA²·QB (it fits `i32`: see
    /// `MAX_OUTPUT_WEIGHT`).
    #[inline(always)]
    pub fn output_half(half: &Row, weights: &Row) -> i32 {
        let mut sum = 0i32;
        for i in 0..half.0.len() {
            // v·w fits in 16 bits (v <= QA = 255, |w| <= 127), so one
            // factor is made in i16 and only the second product is
            // widened: the same sum, in the 16-bit multiply-add that
            // every x86-64 has (a 32-bit multiply needs SSE4.1).
            let v = half.0[i].clamp(0, QA as i16);
            let vw = v * weights.0[i];
            sum += i32::from(v) * i32::from(vw);
        }
        sum
    }
}

/// The same loops in AVX2 instructions, 16 units at a time. (The plain
/// loops compiled with AVX2 enabled stay at 128 bits: the compiler's
/// tuning for the baseline processor prefers them.) Calling one is
/// `unsafe`: the caller must know that the processor has AVX2.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// Units per 256-bit vector.
    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    // SAFETY (the loads and stores below): a `Row` is `HIDDEN` i16 on a
    // 64-byte boundary, so each 32-byte vector `k < HIDDEN / LANES` of it
    // lies inside the row and on a 32-byte boundary, as the aligned load
    // and store require.
    #[inline(always)]
    fn load(row: &Row, k: usize) -> __m256i {
        unsafe { _mm256_load_si256(row.0.as_ptr().add(k * LANES).cast()) }
    }

    #[inline(always)]
    fn store(row: &mut Row, k: usize, value: __m256i) {
        unsafe { _mm256_store_si256(row.0.as_mut_ptr().add(k * LANES).cast(), value) }
    }

    #[target_feature(enable = "avx2")]
    pub fn add(acc: &mut Row, row: &Row) {
        for k in 0..HIDDEN / LANES {
            store(acc, k, _mm256_add_epi16(load(acc, k), load(row, k)));
        }
    }

    #[target_feature(enable = "avx2")]
    pub fn add_sub(new: &mut Row, old: &Row, add: &Row, sub: &Row) {
        for k in 0..HIDDEN / LANES {
            let v = _mm256_sub_epi16(_mm256_add_epi16(load(old, k), load(add, k)), load(sub, k));
            store(new, k, v);
        }
    }

    #[target_feature(enable = "avx2")]
    pub fn add_sub_sub(new: &mut Row, old: &Row, add: &Row, sub: &Row, gone: &Row) {
        for k in 0..HIDDEN / LANES {
            let v = _mm256_sub_epi16(_mm256_add_epi16(load(old, k), load(add, k)), load(sub, k));
            store(new, k, _mm256_sub_epi16(v, load(gone, k)));
        }
    }

    #[target_feature(enable = "avx2")]
    pub fn output_half(half: &Row, weights: &Row) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sums = zero;
        for k in 0..HIDDEN / LANES {
            // As in the portable loop: v clamped, v·w in 16 bits, then
            // v·(v·w) multiplied and added in pairs into 32 bits.
            let v = _mm256_min_epi16(_mm256_max_epi16(load(half, k), zero), qa);
            let vw = _mm256_mullo_epi16(v, load(weights, k));
            sums = _mm256_add_epi32(sums, _mm256_madd_epi16(v, vw));
        }
        let quad = _mm_add_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256::<1>(sums));
        let pair = _mm_add_epi32(quad, _mm_shuffle_epi32::<0b01_00_11_10>(quad));
        let one = _mm_add_epi32(pair, _mm_shuffle_epi32::<0b10_11_00_01>(pair));
        _mm_cvtsi128_si32(one)
    }
}

/// Whether this processor has AVX2: a constant in a build for a processor
/// that has it, else asked once (the standard library keeps the answer).
#[inline(always)]
pub fn has_avx2() -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    return true;
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// Which version the loops run in on this processor (`chariot nnue-speed`).
pub fn version() -> &'static str {
    if has_avx2() { "avx2" } else { "portable" }
}

// The dispatchers. SAFETY (every `unsafe` below): the AVX2 version is
// called only when `has_avx2()` says the processor has AVX2.

/// `acc += row`, unit by unit.
#[inline(always)]
pub fn add(acc: &mut Row, row: &Row) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::add(acc, row) };
    }
    portable::add(acc, row)
}

/// `new = old + add - sub`, unit by unit.
#[inline(always)]
pub fn add_sub(new: &mut Row, old: &Row, add: &Row, sub: &Row) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::add_sub(new, old, add, sub) };
    }
    portable::add_sub(new, old, add, sub)
}

/// `new = old + add - sub - gone`, unit by unit.
#[inline(always)]
pub fn add_sub_sub(new: &mut Row, old: &Row, add: &Row, sub: &Row, gone: &Row) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::add_sub_sub(new, old, add, sub, gone) };
    }
    portable::add_sub_sub(new, old, add, sub, gone)
}

/// One half of the output layer (see [`portable::output_half`]).
#[inline(always)]
pub fn output_half(half: &Row, weights: &Row) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        return unsafe { avx2::output_half(half, weights) };
    }
    portable::output_half(half, weights)
}

#[cfg(test)]
mod tests {
    use super::super::network::{MAX_HIDDEN_WEIGHT, MAX_OUTPUT_WEIGHT};
    use super::*;
    use crate::rng::Rng;

    /// A row of values in `-limit..=limit`.
    fn random_row(rng: &mut Rng, limit: i16) -> Row {
        Row(std::array::from_fn(|_| (rng.below(2 * limit as u64 + 1) as i64 - limit as i64) as i16))
    }

    /// Every loop, in both versions, against the plain formula in `i64`,
    /// on random rows up to the limits a network file may hold (and sums
    /// of up to 33 rows, as a full board and the bias give).
    #[test]
    fn both_versions_of_every_loop_equal_the_plain_formula() {
        let mut rng = Rng::new(34);
        let avx2_here = has_avx2();
        if !avx2_here {
            eprintln!("this processor has no AVX2: only the portable loops are checked");
        }
        // Accumulator values stay within what 33 rows of MAX_HIDDEN_WEIGHT make.
        let acc_limit = 30 * MAX_HIDDEN_WEIGHT;
        for round in 0..2_000 {
            let old = random_row(&mut rng, acc_limit);
            let [a, s, g] = std::array::from_fn(|_| random_row(&mut rng, MAX_HIDDEN_WEIGHT));
            let weights = random_row(&mut rng, MAX_OUTPUT_WEIGHT);
            // Some halves mostly inside 0..=QA, where the clamp is not the whole story.
            let half = if round % 2 == 0 { random_row(&mut rng, acc_limit) } else { random_row(&mut rng, 300) };

            let want_add = Row(std::array::from_fn(|i| (old.0[i] as i64 + a.0[i] as i64) as i16));
            let want_add_sub = Row(std::array::from_fn(|i| (old.0[i] as i64 + a.0[i] as i64 - s.0[i] as i64) as i16));
            let want_add_sub_sub =
                Row(std::array::from_fn(|i| (old.0[i] as i64 + a.0[i] as i64 - s.0[i] as i64 - g.0[i] as i64) as i16));
            let want_output: i64 = (0..HIDDEN)
                .map(|i| {
                    let v = (half.0[i] as i64).clamp(0, QA as i64);
                    v * v * weights.0[i] as i64
                })
                .sum();

            type Loops = (
                fn(&mut Row, &Row),
                fn(&mut Row, &Row, &Row, &Row),
                fn(&mut Row, &Row, &Row, &Row, &Row),
                fn(&Row, &Row) -> i32,
            );
            let mut versions: Vec<(&str, Loops)> = vec![
                ("portable", (portable::add, portable::add_sub, portable::add_sub_sub, portable::output_half)),
                ("dispatched", (add, add_sub, add_sub_sub, output_half)),
            ];
            #[cfg(target_arch = "x86_64")]
            if avx2_here {
                // SAFETY: the processor has AVX2 (checked above).
                versions.push((
                    "avx2",
                    (
                        |x, y| unsafe { avx2::add(x, y) },
                        |x, y, z, w| unsafe { avx2::add_sub(x, y, z, w) },
                        |x, y, z, w, v| unsafe { avx2::add_sub_sub(x, y, z, w, v) },
                        |x, y| unsafe { avx2::output_half(x, y) },
                    ),
                ));
            }
            for (name, (f_add, f_add_sub, f_add_sub_sub, f_output)) in versions {
                let mut got = old;
                f_add(&mut got, &a);
                assert_eq!(got, want_add, "{name} add");
                let mut got = Row([7; HIDDEN]);
                f_add_sub(&mut got, &old, &a, &s);
                assert_eq!(got, want_add_sub, "{name} add_sub");
                f_add_sub_sub(&mut got, &old, &a, &s, &g);
                assert_eq!(got, want_add_sub_sub, "{name} add_sub_sub");
                assert_eq!(i64::from(f_output(&half, &weights)), want_output, "{name} output_half");
            }
        }
    }
}
