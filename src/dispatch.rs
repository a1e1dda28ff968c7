//! The one place that maps a [`Kernel`] to a running [`Solver`] and decides
//! what `auto` means on this CPU.
//!
//! `auto` walks [`auto_preference`] for the N and the task asked (the
//! symmetric kernels first from N = [`SYMMETRIC_FROM`] up, from
//! [`SYMMETRIC_FUNDAMENTAL_FROM`] for fundamental solutions; below, the
//! portable one first for counting and davidad's machine first for
//! enumerating), fastest first, and takes the first kernel that this CPU
//! runs and that accepts the size; the choice for each task and N is made
//! once and cached in an atomic. The SIMD kernels' types can only be
//! constructed where the CPU has their features (`Sse41::new`, `Avx::new`,
//! which ask `is_x86_feature_detected!`; the standard library caches the
//! answer, and the check folds to a constant when the build already enables
//! the feature). The asm kernel's two encodings are detected the same way
//! (`Asm::sse41`, `Asm::avx`), and the name `asm` resolves to the best one
//! that runs ([`asm_kernel`]). A build with `--cfg queens_simd_force_portable`
//! (or `QUEENS_SIMD_FORCE_PORTABLE=1` at build time) compiles the SIMD and
//! asm kernels out, as does any target other than x86-64; the asm kernel is
//! also absent from x86-64 targets other than Linux (its assembly is ELF).

use core::sync::atomic::{AtomicU8, Ordering};

use crate::Error;
use crate::board::MAX_N;
use crate::kernel::portable::Portable;
use crate::kernel::symmetric::Symmetric;
use crate::kernel::{Kernel, Role, Solver, Task};
use crate::reference::bitboard64::Bitboard64;
use crate::reference::brute_force::BruteForce;
use crate::reference::heap_permutations::HeapPermutations;
use crate::reference::threat_masks::ThreatMasks;

cfg_if::cfg_if! {
    if #[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))] {
        use crate::kernel::avx::Avx;
        use crate::kernel::sse41::Sse41;

        /// Kernels `auto` may choose for N below [`SYMMETRIC_FROM`],
        /// fastest first, as measured on the reference machine (2-core AMD
        /// EPYC; criterion, `simd/count`, BENCHMARKS.md). On small boards
        /// the symmetric kernels' fixed cost (building about 6 N
        /// subproblems and their walkers) outweighs the search: at N = 8
        /// `portable` counts in 3.5 µs, `symmetric-bmi` in 5.7 µs. Among
        /// the others, the portable kernel is level with `asm-avx` up to
        /// N = 10 and ahead of every form of davidad's machine beyond
        /// (N = 12: 4.5 ms against 6.4 to 7.0 ms for `asm-avx`, `avx`,
        /// `asm-sse41` and `sse41`), whose path from one queen to
        /// the next crosses between general and xmm registers twice. The
        /// asm kernels are in the list only where they are built (x86-64
        /// Linux); elsewhere `is_available` skips them.
        const SMALL_N_PREFERENCE: &[Kernel] = &[
            Kernel::Portable,
            Kernel::AsmAvx,
            Kernel::Avx,
            Kernel::AsmSse41,
            Kernel::Sse41,
            Kernel::SymmetricBmi,
            Kernel::Symmetric,
        ];

        /// Kernels `auto` may choose to enumerate below N =
        /// [`SYMMETRIC_FROM`] (and to find fundamental solutions below
        /// [`SYMMETRIC_FUNDAMENTAL_FROM`]), fastest first (criterion,
        /// `simd/enumerate`, BENCHMARKS.md): davidad's machine takes less
        /// than half of `portable`'s time there (N = 8: `sse41` 5.4 µs,
        /// `asm-avx` 5.6 µs, `avx` 6.3 µs, `asm-sse41` 6.0 µs,
        /// `symmetric-bmi` 9.3 µs, `portable` 12.5 µs), its encodings within
        /// noise of each other: `sse41` first, as it needs the least of the
        /// CPU.
        const SMALL_N_ENUMERATION_PREFERENCE: &[Kernel] = &[
            Kernel::Sse41,
            Kernel::AsmAvx,
            Kernel::Avx,
            Kernel::AsmSse41,
            Kernel::Portable,
            Kernel::SymmetricBmi,
            Kernel::Symmetric,
        ];

        /// Kernels `auto` may choose from N = [`SYMMETRIC_FROM`] up,
        /// fastest first: the symmetric search visits about an eighth of
        /// the boards. Measured the same way: N = 10, `symmetric-bmi`
        /// 44 µs, `symmetric` 64 µs, `portable` 61 µs; N = 12, 0.77 ms,
        /// 1.19 ms and 4.49 ms.
        const LARGE_N_PREFERENCE: &[Kernel] = &[
            Kernel::SymmetricBmi,
            Kernel::Symmetric,
            Kernel::Portable,
            Kernel::AsmAvx,
            Kernel::Avx,
            Kernel::AsmSse41,
            Kernel::Sse41,
        ];

        fn sse41() -> Option<Box<dyn Solver>> {
            Sse41::new().map(|k| Box::new(k) as Box<dyn Solver>)
        }

        fn symmetric_bmi() -> Option<Box<dyn Solver>> {
            crate::kernel::symmetric::SymmetricBmi::new().map(|k| Box::new(k) as Box<dyn Solver>)
        }

        fn avx() -> Option<Box<dyn Solver>> {
            Avx::new().map(|k| Box::new(k) as Box<dyn Solver>)
        }

        /// Why the SIMD kernels may be missing in this build.
        const SIMD_ABSENT_BECAUSE: Option<&str> = None;
    } else {
        /// Kernels `auto` may choose for N below [`SYMMETRIC_FROM`]: this
        /// build has neither SIMD nor asm kernels, and the symmetric
        /// kernel's fixed cost outweighs its search on small boards.
        const SMALL_N_PREFERENCE: &[Kernel] = &[Kernel::Portable, Kernel::Symmetric];

        /// Kernels `auto` may choose from N = [`SYMMETRIC_FROM`] up.
        const LARGE_N_PREFERENCE: &[Kernel] = &[Kernel::Symmetric, Kernel::Portable];

        /// Kernels `auto` may choose to enumerate below N =
        /// [`SYMMETRIC_FROM`]: as for counting.
        const SMALL_N_ENUMERATION_PREFERENCE: &[Kernel] = SMALL_N_PREFERENCE;

        fn sse41() -> Option<Box<dyn Solver>> {
            None
        }

        fn symmetric_bmi() -> Option<Box<dyn Solver>> {
            None
        }

        fn avx() -> Option<Box<dyn Solver>> {
            None
        }

        const SIMD_ABSENT_BECAUSE: Option<&str> = Some(if cfg!(queens_simd_force_portable) {
            FORCED_BECAUSE
        } else {
            "it needs an x86-64 target"
        });
    }
}

cfg_if::cfg_if! {
    if #[cfg(all(target_arch = "x86_64", target_os = "linux", not(queens_simd_force_portable)))] {
        use crate::kernel::asm::Asm;

        fn asm_sse41() -> Option<Box<dyn Solver>> {
            Asm::sse41().map(|k| Box::new(k) as Box<dyn Solver>)
        }

        fn asm_avx() -> Option<Box<dyn Solver>> {
            Asm::avx().map(|k| Box::new(k) as Box<dyn Solver>)
        }

        /// Why the asm kernel may be missing in this build.
        const ASM_ABSENT_BECAUSE: Option<&str> = None;
    } else {
        fn asm_sse41() -> Option<Box<dyn Solver>> {
            None
        }

        fn asm_avx() -> Option<Box<dyn Solver>> {
            None
        }

        const ASM_ABSENT_BECAUSE: Option<&str> = Some(if cfg!(queens_simd_force_portable) {
            FORCED_BECAUSE
        } else if cfg!(target_arch = "x86_64") {
            "its assembly is ELF for the System V ABI, built for x86-64 Linux only"
        } else {
            "it needs an x86-64 target"
        });
    }
}

/// The smallest N for which `auto` prefers the symmetric kernels: below it,
/// their fixed cost outweighs the eighth of the search they save (measured
/// crossover, reference machine, criterion: N = 9 `portable` 14.2 µs
/// against `symmetric-bmi` 16.3 µs; N = 10, 63 µs against 48 µs).
pub const SYMMETRIC_FROM: usize = 10;

/// The smallest N for which `auto` prefers the symmetric kernels to find
/// fundamental solutions: they search one board per class, where the
/// others enumerate half the solutions and check each for canonical form
/// (`queens-simd N --unique --time`, reference machine: N = 7,
/// `symmetric-bmi` 3.1 µs, `asm-avx` 3.3 µs; N = 6, 1.9 µs against
/// 0.44 µs).
pub const SYMMETRIC_FUNDAMENTAL_FROM: usize = 7;

/// The kernels `auto` may choose for `task` at size `n`, fastest first on
/// the reference machine; `auto` takes the first that runs here and
/// accepts `n`. The symmetric kernels lead from N = [`SYMMETRIC_FROM`] up
/// (from [`SYMMETRIC_FUNDAMENTAL_FROM`] for fundamental solutions); below,
/// `portable` counts fastest and davidad's machine, where built, enumerates
/// fastest. `n` from 0 to [`MAX_N`].
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] (for `auto`) if `n` is over [`MAX_N`]: no
/// kernel accepts it, so `auto` has nothing to prefer.
pub fn auto_preference(n: usize, task: Task) -> Result<&'static [Kernel], Error> {
    Kernel::Auto.check_size(n)?;
    let symmetric_from = match task {
        Task::Fundamental => SYMMETRIC_FUNDAMENTAL_FROM,
        Task::Count | Task::Enumerate => SYMMETRIC_FROM,
    };
    Ok(match task {
        _ if n >= symmetric_from => LARGE_N_PREFERENCE,
        Task::Count => SMALL_N_PREFERENCE,
        Task::Enumerate | Task::Fundamental => SMALL_N_ENUMERATION_PREFERENCE,
    })
}

/// Whether this build was made with `queens_simd_force_portable`, which
/// leaves `auto` only the portable and symmetric kernels.
pub const PORTABLE_FORCED: bool = cfg!(queens_simd_force_portable);

/// What `--kernels` says of such a build, and why a SIMD or asm kernel is
/// missing from it.
pub const FORCED_BECAUSE: &str =
    "this build forces the portable kernel (queens_simd_force_portable)";

/// The solver behind a concrete `kernel`, or `None` where this CPU or build
/// cannot run it. Every kernel type is a zero-sized proof that it can run
/// here, so these boxes do not allocate.
fn try_solver(kernel: Kernel) -> Option<Box<dyn Solver>> {
    match kernel {
        Kernel::Auto | Kernel::Asm => None,
        Kernel::Portable => Portable::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::Symmetric => Symmetric::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::SymmetricBmi => symmetric_bmi(),
        Kernel::Sse41 => sse41(),
        Kernel::Avx => avx(),
        Kernel::AsmSse41 => asm_sse41(),
        Kernel::AsmAvx => asm_avx(),
        Kernel::Bitboard64 => Bitboard64::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::ThreatMasks => ThreatMasks::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::BruteForce => BruteForce::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::HeapPermutations => HeapPermutations::new().map(|k| Box::new(k) as Box<dyn Solver>),
    }
}

/// Whether this CPU and build can run `kernel`.
pub fn is_available(kernel: Kernel) -> bool {
    match kernel {
        Kernel::Auto => true,
        Kernel::Asm => asm_kernel() != Kernel::Asm,
        _ => try_solver(kernel).is_some(),
    }
}

/// Why this CPU or build cannot run `kernel`, or `None` if it can.
pub fn unavailable_because(kernel: Kernel) -> Option<&'static str> {
    if is_available(kernel) {
        return None;
    }
    const LACKS_SSE41: &str = "this CPU lacks SSE4.1";
    const LACKS_AVX: &str = "this CPU or its operating system lacks AVX";
    // The build's reason comes first; a CPU reason only where it is built.
    let (absent_from_build, cpu_lacks) = match kernel {
        Kernel::Sse41 => (SIMD_ABSENT_BECAUSE, LACKS_SSE41),
        Kernel::Avx => (SIMD_ABSENT_BECAUSE, LACKS_AVX),
        // `asm` needs at least its SSE4.1 encoding.
        Kernel::Asm | Kernel::AsmSse41 => (ASM_ABSENT_BECAUSE, LACKS_SSE41),
        Kernel::AsmAvx => (ASM_ABSENT_BECAUSE, LACKS_AVX),
        Kernel::SymmetricBmi => (
            SIMD_ABSENT_BECAUSE,
            "this CPU lacks one of BMI1, BMI2, LZCNT and POPCNT",
        ),
        _ => return Some("it is not built in"),
    };
    Some(absent_from_build.unwrap_or(cpu_lacks))
}

/// The concrete kernel the name `asm` stands for: the AVX encoding where it
/// runs, else the SSE4.1 one, else `Asm` itself (unavailable).
pub fn asm_kernel() -> Kernel {
    [Kernel::AsmAvx, Kernel::AsmSse41]
        .into_iter()
        .find(|&k| try_solver(k).is_some())
        .unwrap_or(Kernel::Asm)
}

/// `auto`'s choice for each task (in [`Task`] order) and N: 0 while not
/// yet made, else 1 + the kernel's index in [`Kernel::ALL`].
static AUTO_CHOICE: [[AtomicU8; MAX_N + 1]; 3] =
    [const { [const { AtomicU8::new(0) }; MAX_N + 1] }; 3];

/// The kernel `auto` picks for `task` at size `n` (from 0 to [`MAX_N`]):
/// the first kernel of [`auto_preference`] that runs here and accepts `n`.
/// Made once per task and N, then read from a cache.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] (for `auto`) if `n` is over [`MAX_N`], which
/// no kernel accepts.
pub fn auto_kernel(n: usize, task: Task) -> Result<Kernel, Error> {
    let choices = match task {
        Task::Count => &AUTO_CHOICE[0],
        Task::Enumerate => &AUTO_CHOICE[1],
        Task::Fundamental => &AUTO_CHOICE[2],
    };
    // Past MAX_N there is no choice, and no slot of the cache.
    Kernel::Auto.check_size(n)?;
    let cached = &choices[n];
    if let Some(&kernel) =
        Kernel::ALL.get(usize::from(cached.load(Ordering::Relaxed)).wrapping_sub(1))
    {
        return Ok(kernel);
    }
    let kernel = auto_preference(n, task)?
        .iter()
        .copied()
        .find(|k| k.role() == Role::Fast && is_available(*k) && k.sizes().contains(&n))
        .unwrap_or(Kernel::Portable);
    if let Some(index) = Kernel::ALL.iter().position(|&k| k == kernel) {
        // Racing threads compute the same choice; either store is right.
        cached.store(index as u8 + 1, Ordering::Relaxed);
    }
    Ok(kernel)
}

/// The solver behind a concrete `kernel`, or why there is none.
pub fn solver(kernel: Kernel) -> Result<Box<dyn Solver>, Error> {
    try_solver(kernel).ok_or(Error::KernelUnavailable(kernel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
    #[test]
    fn simd_kernels_exist_exactly_where_the_cpu_has_their_feature() {
        let sse41 = std::arch::is_x86_feature_detected!("sse4.1");
        let avx = std::arch::is_x86_feature_detected!("avx");
        assert_eq!(Sse41::new().is_some(), sse41);
        assert_eq!(Avx::new().is_some(), avx);
        assert_eq!(is_available(Kernel::Sse41), sse41);
        assert_eq!(is_available(Kernel::Avx), avx);
    }

    #[cfg(not(all(target_arch = "x86_64", not(queens_simd_force_portable))))]
    #[test]
    fn simd_kernels_are_absent_from_this_build() {
        for kernel in [Kernel::Sse41, Kernel::Avx, Kernel::SymmetricBmi] {
            assert!(!is_available(kernel));
            assert_eq!(unavailable_because(kernel), SIMD_ABSENT_BECAUSE);
            assert_eq!(solver(kernel).err(), Some(Error::KernelUnavailable(kernel)));
        }
        for n in 0..=MAX_N {
            for task in Task::ALL {
                let symmetric_from = if task == Task::Fundamental {
                    SYMMETRIC_FUNDAMENTAL_FROM
                } else {
                    SYMMETRIC_FROM
                };
                let expected = if n < symmetric_from {
                    Kernel::Portable
                } else {
                    Kernel::Symmetric
                };
                assert_eq!(auto_kernel(n, task), Ok(expected), "N = {n}, {task:?}");
            }
        }
    }

    #[test]
    fn a_reason_is_given_exactly_for_unavailable_kernels() {
        for &kernel in Kernel::ALL {
            assert_eq!(
                unavailable_because(kernel).is_none(),
                is_available(kernel),
                "{kernel}"
            );
            assert_eq!(solver(kernel).is_ok(), is_available(kernel), "{kernel}");
        }
    }

    #[test]
    fn auto_picks_the_first_preferred_kernel_that_runs_and_fits() {
        for task in Task::ALL {
            for n in 0..=MAX_N {
                let picked = auto_kernel(n, task).unwrap();
                assert_eq!(picked.role(), Role::Fast, "N = {n}, {task:?}");
                assert!(
                    is_available(picked) && picked.sizes().contains(&n),
                    "N = {n}, {task:?}"
                );
                // No kernel ahead of it in the preference list could have
                // served.
                for &ahead in auto_preference(n, task)
                    .unwrap()
                    .iter()
                    .take_while(|&&k| k != picked)
                {
                    assert!(
                        !is_available(ahead) || !ahead.sizes().contains(&n),
                        "N = {n}, {task:?}: {ahead} could serve before {picked}"
                    );
                }
                // The second call reads the cache and agrees.
                assert_eq!(auto_kernel(n, task), Ok(picked), "N = {n}, {task:?}");
                assert!(solver(picked).is_ok());
            }
            for n in [MAX_N + 1, usize::MAX] {
                let refused = Kernel::Auto.check_size(n).unwrap_err();
                assert_eq!(auto_kernel(n, task), Err(refused.clone()));
                assert_eq!(auto_preference(n, task), Err(refused));
            }
        }
    }

    #[test]
    fn both_preferences_list_every_fast_kernel_once() {
        for n in [0, SYMMETRIC_FUNDAMENTAL_FROM, SYMMETRIC_FROM, MAX_N] {
            for task in Task::ALL {
                let mut listed = auto_preference(n, task).unwrap().to_vec();
                listed.sort();
                let mut fast: Vec<Kernel> = Kernel::ALL
                    .iter()
                    .copied()
                    .filter(|k| k.role() == Role::Fast && is_available(*k))
                    .collect();
                fast.sort();
                listed.retain(|k| is_available(*k));
                assert_eq!(listed, fast, "N = {n}, {task:?}");
            }
        }
    }
}
