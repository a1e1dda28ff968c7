//! What this CPU can do: the one place that asks it.
//!
//! With the `std` feature the answer comes from `is_x86_feature_detected!`,
//! which the standard library caches (and which folds to a constant for a
//! feature the build already enables). Without `std` the crate reads CPUID
//! itself ([`by_cpuid`]) once, and keeps the answer in an atomic. Off
//! x86-64, or in a build that forces the portable kernel, no feature is
//! ever reported.

/// A CPU feature some kernel needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Feature {
    /// `pblendw`, the one SSE4.1 instruction of davidad's machine.
    Sse41,
    /// VEX encodings, with the operating system saving the ymm state.
    Avx,
    /// 256-bit integer operations (`vpor`, `vpshufb`, `vpsadbw` on ymm).
    Avx2,
    /// 512-bit integer operations and mask registers (`vporq`, `vptestmq`
    /// on zmm), with the operating system saving the zmm and mask state.
    Avx512F,
    /// Byte and word operations on zmm registers (`vpshufb`, `vpermw`,
    /// `vptestmb`, `vpsadbw`) and 64-bit mask registers.
    Avx512Bw,
    /// `vpopcntq`: a popcount of every 64-bit lane of a vector.
    Avx512Vpopcntdq,
    /// `blsi`, `tzcnt`, `andn`.
    Bmi1,
    /// `shlx`, `shrx`.
    Bmi2,
    /// `lzcnt`.
    Lzcnt,
    /// `popcnt`.
    Popcnt,
}

impl Feature {
    /// Every feature, in the order of their bits in [`by_cpuid`]'s answer:
    /// [`NAMES`]' order.
    #[cfg(any(all(x86_kernels, not(feature = "std")), test))]
    const ALL: [Feature; NAMES.len()] = {
        let mut all = [Feature::Sse41; NAMES.len()];
        let mut i = 0;
        while i < NAMES.len() {
            all[i] = NAMES[i].0;
            i += 1;
        }
        all
    };

    /// Its name in `#[target_feature(enable = ...)]`: `sse4.1`, `avx2`
    /// (`--kernels --format json` lists them).
    pub(crate) const fn name(self) -> &'static str {
        NAMES[self as usize].1
    }

    /// This feature's bit in a set of features.
    #[cfg(all(x86_kernels, any(not(feature = "std"), test)))]
    const fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// Every feature by its name in `#[target_feature(enable = ...)]`, for
/// [`named`], in the order of their declaration (and so of their bits).
const NAMES: [(Feature, &str); 10] = [
    (Feature::Sse41, "sse4.1"),
    (Feature::Avx, "avx"),
    (Feature::Avx2, "avx2"),
    (Feature::Avx512F, "avx512f"),
    (Feature::Avx512Bw, "avx512bw"),
    (Feature::Avx512Vpopcntdq, "avx512vpopcntdq"),
    (Feature::Bmi1, "bmi1"),
    (Feature::Bmi2, "bmi2"),
    (Feature::Lzcnt, "lzcnt"),
    (Feature::Popcnt, "popcnt"),
];

// `NAMES` follows the declaration: each feature's place is its bit.
const _: () = {
    let mut i = 0;
    while i < NAMES.len() {
        assert!(NAMES[i].0 as usize == i);
        i += 1;
    }
};

/// How many features `list` names: `#[target_feature(enable = ...)]`'s
/// comma-separated names, as the kernel table's `target_features!` holds
/// them.
pub(crate) const fn count_named(list: &str) -> usize {
    let bytes = list.as_bytes();
    let mut count = if bytes.is_empty() { 0 } else { 1 };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b',' {
            count += 1;
        }
        i += 1;
    }
    count
}

/// The `N` features `list` names, in its order ([`count_named`] gives
/// `N`). Evaluated at compile time: a name that is no [`Feature`] fails
/// the build.
pub(crate) const fn named<const N: usize>(list: &str) -> [Feature; N] {
    let bytes = list.as_bytes();
    let mut features = [Feature::Sse41; N];
    let (mut start, mut found) = (0, 0);
    while start < bytes.len() {
        let mut end = start;
        while end < bytes.len() && bytes[end] != b',' {
            end += 1;
        }
        let mut known = false;
        let mut k = 0;
        while k < NAMES.len() {
            let name = NAMES[k].1.as_bytes();
            if name.len() == end - start {
                let mut same = true;
                let mut i = 0;
                while i < name.len() {
                    same &= name[i] == bytes[start + i];
                    i += 1;
                }
                if same {
                    features[found] = NAMES[k].0;
                    found += 1;
                    known = true;
                }
            }
            k += 1;
        }
        assert!(known, "a feature name the crate does not know");
        start = end + 1;
    }
    assert!(found == N, "N is count_named(list)");
    features
}

/// Whether this CPU (and its operating system) has every feature of
/// `features`. Cheap after the first call: a cached answer.
// Off x86-64 no kernel asks.
#[cfg_attr(not(x86_kernels), allow(dead_code))]
pub(crate) fn has_all(features: &[Feature]) -> bool {
    features.iter().all(|&f| has(f))
}

/// Whether this CPU has `feature`; never off x86-64 or when the portable
/// kernel is forced.
#[cfg_attr(not(x86_kernels), allow(dead_code))]
pub(crate) fn has(feature: Feature) -> bool {
    cfg_if::cfg_if! {
        if #[cfg(all(x86_kernels, feature = "std"))] {
            match feature {
                Feature::Sse41 => std::arch::is_x86_feature_detected!("sse4.1"),
                Feature::Avx => std::arch::is_x86_feature_detected!("avx"),
                Feature::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
                Feature::Avx512F => std::arch::is_x86_feature_detected!("avx512f"),
                Feature::Avx512Bw => std::arch::is_x86_feature_detected!("avx512bw"),
                Feature::Avx512Vpopcntdq => {
                    std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                }
                Feature::Bmi1 => std::arch::is_x86_feature_detected!("bmi1"),
                Feature::Bmi2 => std::arch::is_x86_feature_detected!("bmi2"),
                Feature::Lzcnt => std::arch::is_x86_feature_detected!("lzcnt"),
                Feature::Popcnt => std::arch::is_x86_feature_detected!("popcnt"),
            }
        } else if #[cfg(x86_kernels)] {
            cached() & feature.bit() != 0
        } else {
            let _ = feature;
            false
        }
    }
}

/// Whether this CPU executes each 512-bit vector instruction as two
/// 256-bit halves, so that 16 lanes of a zmm register cost about what two
/// steps of 8 in a ymm register do: AMD's family 19h (Zen 4), the one core
/// with AVX-512 we have measured so. There `lanes-avx2` counts the boards
/// of N = 7 to 11 faster than `lanes-avx512` (BENCHMARKS.md, "Zen 4: N =
/// 8 against the peer, and `auto`"), where Zen 5, which runs
/// zmm instructions whole, favours `lanes-avx512` (and issue 29's Intel
/// Xeon timed the two alike at N = 8). Read from CPUID once, and only on a
/// CPU with AVX-512 F: false everywhere else.
pub(crate) fn splits_512_bit_vectors() -> bool {
    cfg_if::cfg_if! {
        if #[cfg(all(x86_kernels, not(miri)))] {
            use core::sync::atomic::{AtomicU8, Ordering};
            const UNKNOWN: u8 = 0;
            static SPLITS: AtomicU8 = AtomicU8::new(UNKNOWN);
            match SPLITS.load(Ordering::Relaxed) {
                UNKNOWN => {
                    let splits = has(Feature::Avx512F) && is_amd_family(0x19);
                    // Racing threads compute the same answer.
                    SPLITS.store(1 + u8::from(splits), Ordering::Relaxed);
                    splits
                }
                known => known == 2,
            }
        } else {
            false
        }
    }
}

/// Whether CPUID names this CPU AMD's (leaf 0: "AuthenticAMD") and its
/// family `family` (leaf 1 EAX: the base family in bits 8-11, plus the
/// extended family in bits 20-27 when the base is 0xF, as AMD documents).
/// No target feature tells the family, so this `cpuid` stays in every
/// build: never inlined, so that CI finds it under this name when it checks
/// that a build for x86-64-v4 keeps no other.
#[cfg(all(x86_kernels, not(miri)))]
#[inline(never)]
fn is_amd_family(family: u32) -> bool {
    let vendor = cpuid(0, 0);
    // "Auth" "enti" "cAMD" in EBX, EDX, ECX, little-endian.
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
    let eax = cpuid(1, 0).eax;
    let base = eax >> 8 & 0xF;
    let extended = if base == 0xF { eax >> 20 & 0xFF } else { 0 };
    amd && base + extended == family
}

/// CPUID's leaf `leaf`, subleaf `subleaf`. `__cpuid_count` is a safe
/// function from Rust 1.94 on and `unsafe` before; the block keeps the
/// crate building from its `rust-version` (1.89), and the lint it raises
/// on newer compilers is allowed. Always inlined, so that the instruction
/// stays in its caller (CI looks for it in `is_amd_family`).
#[cfg(x86_kernels)]
#[cfg_attr(all(miri, feature = "std", not(test)), allow(dead_code))]
#[inline(always)]
#[allow(unused_unsafe)]
fn cpuid(leaf: u32, subleaf: u32) -> core::arch::x86_64::CpuidResult {
    // SAFETY: every x86-64 CPU has the CPUID instruction (this module is
    // built for x86-64 only); it reads no memory and only writes the four
    // registers it returns.
    unsafe { core::arch::x86_64::__cpuid_count(leaf, subleaf) }
}

/// [`by_cpuid`]'s answer, asked once: bit 31 marks it known.
#[cfg(all(x86_kernels, not(feature = "std")))]
fn cached() -> u32 {
    use core::sync::atomic::{AtomicU32, Ordering};
    const KNOWN: u32 = 1 << 31;
    static FEATURES: AtomicU32 = AtomicU32::new(0);
    let known = FEATURES.load(Ordering::Relaxed);
    if known & KNOWN != 0 {
        return known;
    }
    // Racing threads compute the same answer; either store is right.
    let asked = by_cpuid() | KNOWN;
    FEATURES.store(asked, Ordering::Relaxed);
    asked
}

/// The features of [`Feature::ALL`] this CPU has, one bit each
/// ([`Feature::bit`]), read from CPUID as the vendors document it: leaf 1
/// ECX (SSE4.1 bit 19, POPCNT 23, OSXSAVE 27, AVX 28), leaf 7 EBX (BMI1
/// bit 3, AVX2 5, BMI2 8, AVX512F 16, AVX512BW 30), leaf 7 ECX (AVX512_VPOPCNTDQ bit
/// 14), leaf 0x8000_0001 ECX (LZCNT bit 5), and for AVX the operating
/// system's consent in XCR0 (xmm and ymm state, bits 1 and 2; for AVX-512
/// also the mask and zmm state, bits 5 to 7).
#[cfg(all(x86_kernels, any(not(feature = "std"), test)))]
pub(crate) fn by_cpuid() -> u32 {
    let bit = |word: u32, at: u32| word >> at & 1 != 0;
    // Every x86-64 CPU has CPUID; leaves past the maximum it reports
    // (leaf 0 EAX, 0x8000_0000 EAX) are not asked.
    let max_leaf = cpuid(0, 0).eax;
    let max_extended = cpuid(0x8000_0000, 0).eax;
    let leaf1 = cpuid(1, 0);
    let (leaf7, leaf7_ecx) = if max_leaf >= 7 {
        let leaf = cpuid(7, 0);
        (leaf.ebx, leaf.ecx)
    } else {
        (0, 0)
    };
    let extended = if max_extended >= 0x8000_0001 {
        cpuid(0x8000_0001, 0).ecx
    } else {
        0
    };
    let saved = if bit(leaf1.ecx, 27) { xcr0() } else { 0 };
    let os_saves_ymm = saved & 0b110 == 0b110;
    let os_saves_zmm = saved & 0b1110_0110 == 0b1110_0110;
    let has = |feature: Feature| match feature {
        Feature::Sse41 => bit(leaf1.ecx, 19),
        Feature::Avx => bit(leaf1.ecx, 28) && os_saves_ymm,
        Feature::Avx2 => bit(leaf7, 5) && os_saves_ymm,
        Feature::Avx512F => bit(leaf7, 16) && os_saves_zmm,
        Feature::Avx512Bw => bit(leaf7, 30) && os_saves_zmm,
        Feature::Avx512Vpopcntdq => bit(leaf7_ecx, 14) && os_saves_zmm,
        Feature::Bmi1 => bit(leaf7, 3),
        Feature::Bmi2 => bit(leaf7, 8),
        Feature::Lzcnt => bit(extended, 5),
        Feature::Popcnt => bit(leaf1.ecx, 23),
    };
    Feature::ALL
        .into_iter()
        .filter(|&f| has(f))
        .fold(0, |set, f| set | f.bit())
}

/// XCR0, the state components the operating system saves; called only
/// where CPUID reports OSXSAVE, without which `xgetbv` faults.
#[cfg(all(x86_kernels, any(not(feature = "std"), test)))]
fn xcr0() -> u64 {
    let (low, high): (u32, u32);
    // SAFETY: `by_cpuid` calls this only when CPUID leaf 1 reports OSXSAVE,
    // which is exactly when `xgetbv` is enabled; with ECX = 0 it reads
    // XCR0 into EDX:EAX and touches no memory, stack or flags.
    unsafe {
        core::arch::asm!(
            "xgetbv",
            in("ecx") 0u32,
            out("eax") low,
            out("edx") high,
            options(nomem, nostack, preserves_flags),
        );
    }
    u64::from(high) << 32 | u64::from(low)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPUID reader a `no_std` build uses agrees with the standard
    /// library's detection on this machine.
    #[cfg(all(x86_kernels, feature = "std"))]
    #[cfg_attr(miri, ignore = "Miri runs no inline assembly")]
    #[test]
    fn cpuid_agrees_with_the_standard_library() {
        let asked = by_cpuid();
        for feature in Feature::ALL {
            assert_eq!(asked & feature.bit() != 0, has(feature), "{feature:?}");
        }
    }

    /// The family and vendor read from CPUID agree with what Linux reads
    /// (`/proc/cpuinfo`), and a CPU splits 512-bit vectors exactly when it
    /// is AMD's family 19h with AVX-512 F.
    // Not under Miri, which runs no `cpuid`: there the family is never read.
    #[cfg(all(x86_kernels, feature = "std", target_os = "linux", not(miri)))]
    #[test]
    fn the_cpu_family_is_the_one_linux_reads() {
        let info = std::fs::read_to_string("/proc/cpuinfo").expect("Linux has /proc/cpuinfo");
        let field = |name: &str| {
            info.lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
                .and_then(|l| l.split(':').nth(1))
                .map(str::trim)
                .expect("every x86 CPU lists it")
        };
        let amd = field("vendor_id") == "AuthenticAMD";
        let family: u32 = field("cpu family").parse().expect("a number");
        for asked in [0x17, 0x19, 0x1A, 6] {
            assert_eq!(is_amd_family(asked), amd && family == asked, "{asked:#x}");
        }
        let zen4 = amd && family == 0x19 && has(Feature::Avx512F);
        assert_eq!(splits_512_bit_vectors(), zen4);
        assert_eq!(splits_512_bit_vectors(), zen4, "the cached answer");
    }

    #[cfg(not(x86_kernels))]
    #[test]
    fn no_feature_is_reported_without_x86_kernels() {
        assert!(Feature::ALL.iter().all(|&f| !has(f)));
        assert!(has_all(&[]));
        assert!(!splits_512_bit_vectors());
    }
}
