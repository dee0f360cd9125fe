//! The processor check. A build made for a newer processor than the
//! baseline (`cargo build-fast`: x86-64-v3) would die on an illegal
//! instruction on an older one before it says a word; `check_or_exit`, the
//! first thing `main` does, says instead what is missing and how to build a
//! binary that runs there.
//!
//! The check itself is compiled for the newer processor too, so it is kept
//! to a few integer comparisons with constants and writes of fixed text: no
//! loops the compiler could vectorise, no formatting, no variable shifts
//! (BMI2) and no `a & !b` (BMI1's `andn`). `docs/building.md` says how it
//! was tried on an emulated older processor.

use std::io::Write;

/// One instruction-set feature the fast build may use: where CPUID reports
/// it, and whether this binary was compiled to use it.
struct Feature {
    name: &'static str,
    /// Index into `cpuid_words`: 0 = leaf 1 ECX, 1 = leaf 7 EBX, 2 = leaf 0x80000001 ECX.
    word: usize,
    mask: u32,
    compiled_in: bool,
}

const fn feature(name: &'static str, word: usize, bit: u32, compiled_in: bool) -> Feature {
    Feature { name, word, mask: 1 << bit, compiled_in }
}

const FEATURES: [Feature; 13] = [
    feature("sse3", 0, 0, cfg!(target_feature = "sse3")),
    feature("ssse3", 0, 9, cfg!(target_feature = "ssse3")),
    feature("fma", 0, 12, cfg!(target_feature = "fma")),
    feature("sse4.1", 0, 19, cfg!(target_feature = "sse4.1")),
    feature("sse4.2", 0, 20, cfg!(target_feature = "sse4.2")),
    feature("movbe", 0, 22, cfg!(target_feature = "movbe")),
    feature("popcnt", 0, 23, cfg!(target_feature = "popcnt")),
    feature("avx", 0, 28, cfg!(target_feature = "avx")),
    feature("f16c", 0, 29, cfg!(target_feature = "f16c")),
    feature("bmi1", 1, 3, cfg!(target_feature = "bmi1")),
    feature("avx2", 1, 5, cfg!(target_feature = "avx2")),
    feature("bmi2", 1, 8, cfg!(target_feature = "bmi2")),
    feature("lzcnt", 2, 5, cfg!(target_feature = "lzcnt")),
];

/// The CPUID bits this binary needs, per word; made at compile time.
const REQUIRED: [u32; 3] = {
    let mut required = [0; 3];
    let mut i = 0;
    while i < FEATURES.len() {
        if FEATURES[i].compiled_in {
            required[FEATURES[i].word] |= FEATURES[i].mask;
        }
        i += 1;
    }
    required
};

/// The instruction-set features this binary was compiled to use that the
/// processor running it lacks; empty on every build for the baseline and on
/// every processor that has them.
pub fn missing_features() -> Vec<&'static str> {
    let words = cpuid_words();
    FEATURES.iter().filter(|f| f.compiled_in && words[f.word] & f.mask == 0).map(|f| f.name).collect()
}

/// Exits with code 2 and a message on stderr when the processor lacks what
/// this binary was compiled for. Not inlined: the caller's own code, built
/// for the newer processor, must not be scheduled before the check.
#[inline(never)]
pub fn check_or_exit() {
    let words = cpuid_words();
    if words[0] & REQUIRED[0] != REQUIRED[0]
        || words[1] & REQUIRED[1] != REQUIRED[1]
        || words[2] & REQUIRED[2] != REQUIRED[2]
    {
        refuse(words);
    }
}

#[cold]
#[inline(never)]
fn refuse(words: [u32; 3]) -> ! {
    let mut err = std::io::stderr();
    let _ = err.write_all(b"chariot: this binary was built for a newer processor (cargo build-fast); this one lacks");
    for f in &FEATURES {
        if f.compiled_in && words[f.word] & f.mask == 0 {
            let _ = err.write_all(b" ");
            let _ = err.write_all(f.name.as_bytes());
        }
    }
    let _ = err.write_all(b".\nBuild the portable binary instead: cargo build --release\n");
    std::process::exit(2)
}

/// The three CPUID words that hold the features above. Asked of CPUID
/// itself, because `is_x86_feature_detected!` answers "yes" without asking
/// for every feature enabled at compile time, which is exactly the case to
/// catch.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn cpuid_words() -> [u32; 3] {
    use std::arch::x86_64::{__cpuid, __cpuid_count, __get_cpuid_max};
    let leaf1 = __cpuid(1).ecx;
    let leaf7 = if __get_cpuid_max(0).0 >= 7 { __cpuid_count(7, 0).ebx } else { 0 };
    let extended = if __get_cpuid_max(0x8000_0000).0 >= 0x8000_0001 { __cpuid(0x8000_0001).ecx } else { 0 };
    [leaf1, leaf7, extended]
}

/// Other processors: no x86 feature is compiled in, so none is asked for.
#[cfg(not(target_arch = "x86_64"))]
fn cpuid_words() -> [u32; 3] {
    [0; 3]
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_processor_running_the_tests_has_what_the_tests_were_built_for() {
        // The test binary itself runs here, so nothing it was compiled for
        // can be missing: a wrong CPUID bit would show up as missing.
        assert_eq!(super::missing_features(), Vec::<&str>::new());
    }

    #[test]
    fn the_required_bits_are_those_of_the_features_compiled_in() {
        let compiled = super::FEATURES.iter().filter(|f| f.compiled_in).count() as u32;
        assert_eq!(super::REQUIRED.iter().map(|w| w.count_ones()).sum::<u32>(), compiled);
    }
}
