//! Asks the operating system to back large tables with 2 MB pages (Linux's
//! transparent huge pages), the one place where Chariot calls the C library
//! directly: safe Rust has no `madvise`.
//!
//! The hash table is read at random. With 4 KB pages nearly every probe also
//! misses the processor's address cache (TLB) and walks the page tables,
//! which under a virtual machine costs several memory reads more. With the
//! hash table and the continuation history advised, datagen took 0.943 of
//! the time for the same games byte for byte (median of 8 paired runs, all
//! faster) and `chariot bench` 0.879 (`docs/search-and-evaluation.md`).
#![allow(unsafe_code)]

/// The size of a huge page on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// Advises the kernel to use huge pages for the whole 2 MB blocks inside
/// `memory`. Best called before the memory is first written, so that its
/// pages are huge from the start. A hint only: contents never change, and
/// where the system has no transparent huge pages (or another system) it
/// does nothing.
pub fn advise<T>(memory: &[T]) {
    let start = memory.as_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    let first = start.next_multiple_of(HUGE_PAGE);
    let last = end / HUGE_PAGE * HUGE_PAGE;
    if last > first {
        advise_range(first, last - first);
    }
}

#[cfg(target_os = "linux")]
fn advise_range(address: usize, length: usize) {
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    unsafe extern "C" {
        fn madvise(address: *mut std::ffi::c_void, length: usize, advice: std::ffi::c_int) -> std::ffi::c_int;
    }
    // SAFETY: the range lies inside one live allocation (whole pages, as
    // madvise requires: 2 MB-aligned start and length), and MADV_HUGEPAGE
    // only changes how the kernel backs those pages, never what they hold.
    // An error (no transparent huge pages in this kernel) changes nothing,
    // so the result is not looked at.
    let _ = unsafe { madvise(address as *mut std::ffi::c_void, length, MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_range(_address: usize, _length: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advising_leaves_the_contents_alone() {
        let mut table = vec![0u64; 3 * HUGE_PAGE / 8];
        for (i, word) in table.iter_mut().enumerate() {
            *word = i as u64;
        }
        advise(&table);
        advise(&table[..10]);
        advise::<u64>(&[]);
        assert!(table.iter().enumerate().all(|(i, &word)| word == i as u64));
    }
}
