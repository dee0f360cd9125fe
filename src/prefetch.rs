//! The processor's prefetch hint: the one place where Chariot uses
//! `unsafe`, because safe Rust cannot issue the instruction (its stable
//! form is an `unsafe` intrinsic and the safe one is not yet stable).
//!
//! The search asks for the hash table's line of the position after a move
//! before it makes the move. A plain read of that line would do the same
//! but makes the processor wait for it (a read must finish before it
//! retires); the hint does not. Measured (`docs/search-and-evaluation.md`):
//! `bench 13` in 0.915 of the time, datagen in 0.946, the same nodes.
#![allow(unsafe_code)]

/// Asks the processor to bring the cache line holding `value` into its
/// caches, and returns at once. A hint only: nothing is read that the
/// program can see, so no result changes. Does nothing on processors
/// other than x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let address = (value as *const T).cast::<i8>();
        // SAFETY: the prefetch instruction reads no memory the program can
        // observe and cannot fault, whatever the address; `address` comes
        // from a reference in any case. SSE, which provides it, is part of
        // every x86-64 processor.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
