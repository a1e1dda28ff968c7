//! The kernel table ([`kernels!`]): every kernel, one row each, written
//! once: its name ([`Kernel`]), what is fixed about it (name, sizes, role,
//! plan method, family, CPU features, the builds that carry it) and the
//! constructor of its code; and the words its columns use ([`Method`],
//! [`Role`], [`Family`], [`Build`]). Whether this build and CPU run a kernel is read
//! from its row too ([`Kernel::is_available`]); which kernel runs, and the
//! code that runs it, are the dispatcher's (`crate::dispatch`).
//!
//! This module imports nothing of the crate but [`super::cpu`]: every
//! other layer names kernels through it. The rows name each kernel's
//! constructor by a path that only the layers above expand (see
//! [`kernels!`]).

use core::fmt;
use core::ops::RangeInclusive;

use super::cpu::{self, Feature};

/// Largest board side any part of the crate handles.
pub const MAX_N: usize = 32;

/// A size a kernel does not take: [`Kernel::check_size`]'s answer, which
/// `?` turns into [`crate::Error::SizeOutOfRange`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedSize {
    /// The size asked for.
    pub n: usize,
    /// The kernel that was asked.
    pub kernel: Kernel,
}

/// What a kernel is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// A production kernel; `auto` chooses among these.
    Fast,
    /// One of the seed articles' algorithms, kept to cross-check the fast
    /// kernels and to reproduce the articles' comparisons. Never chosen by
    /// `auto`. The number is the seed's file prefix in `shared/seeds/`.
    Reference {
        /// Seed number (000, 001, 003, 004).
        seed: u8,
    },
}

/// How a plan (`plan::Plan`, with the `std` feature) cuts a board into pieces: one method per
/// family of kernels that count pieces, each family counting only its
/// own method's. Each kernel's method is a column of the kernel table
/// ([`Kernel::method`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Method {
    /// The symmetric kernel's subproblems (corner, edge and tie cases,
    /// split by their first rows), counted by the symmetric and lane
    /// kernels.
    Symmetric,
    /// The join kernels' pieces (row sets of the west half, by their first
    /// choices), counted by the join kernels.
    Join,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 2] = [Method::Symmetric, Method::Join];

    /// Its name in records and messages: `symmetric` or `join`.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Symmetric => "symmetric",
            Method::Join => "join",
        }
    }

    /// The method whose plans the concrete `kernel` counts: its
    /// [`Kernel::method`], read from the kernel table. `None` for a kernel
    /// that counts no plan's pieces, and for `auto` and `asm`, which stand
    /// for a kernel that depends on N (see `dispatch::plan_for`, with the
    /// `std` feature).
    pub const fn of(kernel: Kernel) -> Option<Method> {
        kernel.method()
    }

    /// The kernels that count this method's plans, in the kernel table's
    /// order (fastest first).
    pub fn kernels(self) -> impl DoubleEndedIterator<Item = Kernel> {
        Kernel::ALL
            .iter()
            .copied()
            .filter(move |k| k.method() == Some(self))
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod derive;
mod table;

pub(crate) use derive::if_built;
#[cfg_attr(not(any(test, feature = "trace")), allow(unused_imports))]
pub(crate) use derive::{family_kernel, family_kernel_rows, if_family};
pub(crate) use table::kernels;
use table::{ALL_SIZES, BLOCKS_SIZES, DAVIDAD_SIZES, LANES_SIZES};

/// The vocabulary's part of the table (a callback of [`kernels!`]):
/// [`Kernel`], a variant per row in the table's order; `FACTS`, the rows
/// as data, at their variants' indices; and `target_features!`, an arm
/// per row. `$d` is a `$`, for the macro it defines.
macro_rules! define_kernels {
    (
        ($d:tt)
        $(
            $(#[$doc:meta])*
            $variant:ident {
                name: $name:literal,
                description: $description:literal,
                sizes: $sizes:expr,
                role: $role:expr,
                method: $method:expr,
                enumerates: $enumerates:literal,
                family: $family:ident,
                cpu: $cpu:literal,
                build: $build:ident,
                code: $how:ident $(($($path:ident)::+))?,
            }
        )*
    ) => {
        /// A kernel by name. `Auto` stands for the fastest kernel available on this
        /// CPU for the size asked (see [`crate::dispatch`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Kernel {
            $( $(#[$doc])* $variant, )*
        }

        /// The table's rows as data, each at its variant's index.
        const FACTS: &[Facts] = &[
            $(
                Facts {
                    kernel: Kernel::$variant,
                    name: $name,
                    description: $description,
                    sizes: $sizes,
                    role: $role,
                    method: $method,
                    enumerates: $enumerates,
                    family: Family::$family,
                    build: Build::$build,
                    cpu: &cpu::named::<{ cpu::count_named($cpu) }>($cpu),
                },
            )*
        ];

        /// Each kernel's CPU features, as `#[target_feature(enable = ...)]`
        /// takes them: its row's `cpu`, for the kernel's code.
        /// `target_features!(ItsVariant => { fn ... })` compiles each
        /// function given with those features, in the kernel's own file;
        /// `target_features!(ItsVariant)` is the list. (An attribute takes a
        /// literal, not a constant: hence a macro.)
        // Only the x86-64 kernels have features to compile for.
        #[cfg_attr(not(x86_kernels), allow(unused_macros))]
        macro_rules! target_features {
            $(
                ($variant $d($d then:tt)*) => {
                    $d crate::vocabulary::kernel::target_features! { @ $cpu $d($d then)* }
                };
            )*
            (@ $d features:literal) => {
                $d features
            };
            (@ $d features:literal => { $d($d item:item)* }) => {
                $d( #[target_feature(enable = $d features)] $d item )*
            };
        }
    };
}

// The enum, `FACTS` and `target_features!`, from the table's rows.
kernels!(define_kernels, $);
#[cfg_attr(not(x86_kernels), allow(unused_imports))]
pub(crate) use target_features;

/// The algorithm a kernel encodes, one per family of kernels that differ
/// only in the CPU features they are compiled for. `auto` prefers
/// families ([`crate::dispatch`]), and within a family takes the kernels
/// in the kernel table's order, the widest vectors first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// The join of half-boards: `join-avx512`, `join-avx512bw`,
    /// `join-avx2`, `join`.
    Join,
    /// The symmetric walkers in vector lanes: `lanes-avx512`, `lanes-avx2`.
    Lanes,
    /// The symmetric search: `symmetric-bmi`, `symmetric`.
    Symmetric,
    /// Two rows a step as sets of placements: `blocks-bmi`, `blocks`.
    Blocks,
    /// Bitmask backtracking: `portable`.
    Portable,
    /// davidad's xmm state machine: `sse41`, `avx`, `asm-sse41`, `asm-avx`.
    Davidad,
    /// A seed article's own algorithm, each its own: never preferred.
    Reference,
    /// `auto` and `asm`, names for another kernel.
    Alias,
}

/// Which builds carry a kernel's code (see `build.rs` for the cfgs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Build {
    /// Every build: plain Rust.
    Everywhere,
    /// Builds with the `alloc` feature: plain Rust that holds sets of
    /// half-boards.
    Alloc,
    /// `Simd` builds with the `alloc` feature.
    SimdAlloc,
    /// x86-64 builds that do not force the portable kernel (`x86_kernels`).
    X86,
    /// Those whose target has vector registers (`simd_kernels`).
    Simd,
    /// Those on Linux, for the ELF assembly (`asm_kernels`).
    Asm,
    /// A name for another kernel, resolved by the dispatcher.
    Alias,
}

/// Everything fixed about a kernel: a row of [`kernels!`], as data (`FACTS`).
struct Facts {
    kernel: Kernel,
    name: &'static str,
    description: &'static str,
    sizes: RangeInclusive<usize>,
    role: Role,
    /// The plan whose pieces it counts (on threads, in shards, from
    /// checkpoints), if any: a symmetric plan for the symmetric and lane
    /// kernels, a join plan for the join kernels. (`auto` counts the plan
    /// of the kernel it picks for N: see [`Kernel::splits`].)
    method: Option<Method>,
    /// Whether it visits solutions (enumeration, fundamental solutions)
    /// as well as counting them.
    enumerates: bool,
    /// The algorithm it encodes: `auto`'s preferences order families, and
    /// within a family the kernels follow this table's order.
    family: Family,
    build: Build,
    cpu: &'static [Feature],
}

/// [`Kernel::ALL`]: the table's kernels that are not aliases, in its order.
const CONCRETE: [Kernel; FACTS.len() - ALIAS_COUNT] = {
    let mut concrete = [Kernel::Auto; FACTS.len() - ALIAS_COUNT];
    let (mut row, mut next) = (0, 0);
    while row < FACTS.len() {
        if !matches!(FACTS[row].build, Build::Alias) {
            concrete[next] = FACTS[row].kernel;
            next += 1;
        }
        row += 1;
    }
    assert!(next == concrete.len());
    concrete
};

/// `auto` and `asm`.
const ALIAS_COUNT: usize = 2;

// Each row sits at its variant's index.
const _: () = {
    let mut i = 0;
    while i < FACTS.len() {
        assert!(FACTS[i].kernel as usize == i);
        i += 1;
    }
};

impl Kernel {
    /// Every concrete kernel (not `Auto` or `Asm`), fast kernels first:
    /// the kernel table's rows, aliases left out.
    pub const ALL: &'static [Kernel] = &CONCRETE;

    /// The names that stand for another kernel: [`crate::dispatch::resolve_for`] turns
    /// them into one of [`Kernel::ALL`].
    pub const ALIASES: &'static [Kernel] = &[Kernel::Auto, Kernel::Asm];

    const fn facts(self) -> &'static Facts {
        &FACTS[self as usize]
    }

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        self.facts().name
    }

    /// One line saying what the kernel is.
    pub const fn description(self) -> &'static str {
        self.facts().description
    }

    /// Board sizes the kernel accepts.
    pub const fn sizes(self) -> RangeInclusive<usize> {
        // `RangeInclusive` is not `Copy`; its ends are.
        let sizes = &self.facts().sizes;
        RangeInclusive::new(*sizes.start(), *sizes.end())
    }

    /// Production kernel or seed reference.
    pub const fn role(self) -> Role {
        self.facts().role
    }

    /// The plan whose pieces the kernel counts, and so on several threads,
    /// in shards and from checkpoints: [`Method::Symmetric`] for the
    /// symmetric and lane kernels, [`Method::Join`] for the join kernels,
    /// `None` for the others and for the aliases (`auto` counts the plan of
    /// the kernel it picks for N).
    pub const fn method(self) -> Option<Method> {
        self.facts().method
    }

    /// Whether the kernel counts a plan's subproblems (`plan`), and so
    /// runs on several threads, in shards and from checkpoints: those with
    /// a [`Kernel::method`], and `auto`, which counts the plan of the
    /// kernel it picks for N.
    pub const fn splits(self) -> bool {
        self.facts().method.is_some() || matches!(self, Kernel::Auto)
    }

    /// Whether the kernel counts a whole board on several threads
    /// (`dispatch::count_on_threads`, with the `std` feature): exactly
    /// those that split, through their plan.
    pub const fn counts_on_threads(self) -> bool {
        self.splits()
    }

    /// Whether the kernel visits solutions (enumeration, `--unique`) as
    /// well as counting them. Those that only count answer the rest with
    /// [`crate::Error::CountOnly`].
    pub const fn enumerates(self) -> bool {
        self.facts().enumerates
    }

    /// The algorithm it encodes.
    pub(crate) const fn family(self) -> Family {
        self.facts().family
    }

    /// Which builds carry the kernel.
    pub(crate) const fn build(self) -> Build {
        self.facts().build
    }

    /// The CPU features the kernel needs; its type's `new()` asks for
    /// exactly these.
    pub(crate) const fn cpu_features(self) -> &'static [Feature] {
        self.facts().cpu
    }

    /// The CPU features the kernel needs, by their names in
    /// `#[target_feature(enable = ...)]` (`"sse4.1"`, `"avx2"`), in the
    /// order of [`Kernel::unavailable_because`]'s checks; empty for a
    /// kernel that runs on every CPU.
    pub fn cpu_feature_names(self) -> impl Iterator<Item = &'static str> {
        self.cpu_features().iter().map(|feature| feature.name())
    }

    /// Errors unless the kernel accepts size `n`; defined for every `n`.
    /// (The answer converts to [`crate::Error::SizeOutOfRange`] with `?`.)
    ///
    /// # Errors
    ///
    /// [`UnsupportedSize`] if `n` is outside [`Kernel::sizes`].
    pub const fn check_size(self, n: usize) -> Result<(), UnsupportedSize> {
        let sizes = &self.facts().sizes;
        if *sizes.start() <= n && n <= *sizes.end() {
            Ok(())
        } else {
            Err(UnsupportedSize { n, kernel: self })
        }
    }

    /// Whether this CPU and build can run the kernel. Always true for
    /// `Auto`, which falls back to `Portable`; true for `Asm` where either
    /// encoding runs.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Auto => true,
            // Either encoding of the assembly.
            Kernel::Asm => asm_encodings().any(Kernel::is_available),
            // The kernel's type is built exactly where this holds (its
            // `new()` asks for the row's features; the dispatcher's tests
            // check that every kernel said to run here is built).
            _ => absent_because(self).is_none() && super::cpu::has_all(self.cpu_features()),
        }
    }

    /// Why this CPU or build cannot run the kernel, or `None` if it can.
    /// The build's reason comes first; the CPU's only where it is built.
    pub fn unavailable_because(self) -> Option<&'static str> {
        if self.is_available() {
            return None;
        }
        // `asm` needs at least its first encoding (SSE4.1).
        let needs = if self == Kernel::Asm {
            asm_encodings().next().unwrap_or(self)
        } else {
            self
        };
        Some(absent_because(needs).unwrap_or(match needs.cpu_features() {
            [Feature::Sse41] => "this CPU lacks SSE4.1",
            [Feature::Avx] => "this CPU or its operating system lacks AVX",
            [Feature::Avx2] => "this CPU or its operating system lacks AVX2",
            [
                Feature::Avx512F,
                Feature::Avx512Vpopcntdq,
            ] => "this CPU or its operating system lacks AVX-512 F or VPOPCNTDQ",
            [Feature::Avx512F, Feature::Avx512Bw, ..] => {
                "this CPU or its operating system lacks AVX-512 F or BW, or BMI2"
            }
            [Feature::Avx2, ..] => {
                "this CPU or its operating system lacks AVX2, or one of BMI1, BMI2, LZCNT and POPCNT"
            }
            [Feature::Avx512F, ..] => {
                "this CPU or its operating system lacks AVX-512 F or VPOPCNTDQ, or one of BMI1, \
                 BMI2, LZCNT and POPCNT"
            }
            [] => "it is not built in",
            _ => "this CPU lacks one of BMI1, BMI2, LZCNT and POPCNT",
        }))
    }

    /// The kernel called `name`, at compile time: for tables of kernels by
    /// name (the figures `auto`'s rules cite). A name that is no kernel's
    /// fails the build.
    pub(crate) const fn named(name: &str) -> Kernel {
        let mut row = 0;
        while row < FACTS.len() {
            let (have, want) = (FACTS[row].name.as_bytes(), name.as_bytes());
            let mut same = have.len() == want.len();
            let mut i = 0;
            while same && i < have.len() {
                same = have[i] == want[i];
                i += 1;
            }
            if same {
                return FACTS[row].kernel;
            }
            row += 1;
        }
        panic!("no kernel has that name")
    }

    /// The kernel called `name` on the command line, if any. (With the
    /// `alloc` feature, `name.parse::<Kernel>()` says which names exist.)
    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALIASES
            .iter()
            .chain(Kernel::ALL)
            .copied()
            .find(|k| k.name() == name)
    }
}

/// Why this build does not carry `kernel` at all, or `None` if it does.
pub(crate) fn absent_because(kernel: Kernel) -> Option<&'static str> {
    // Each build's cfg from `if_built!`, the one map.
    let built = match kernel.build() {
        Build::Everywhere => if_built!(Everywhere { true } else { false }),
        Build::Alias => if_built!(Alias { true } else { false }),
        Build::Alloc => if_built!(Alloc { true } else { false }),
        Build::X86 => if_built!(X86 { true } else { false }),
        Build::Simd => if_built!(Simd { true } else { false }),
        Build::SimdAlloc => if_built!(SimdAlloc { true } else { false }),
        Build::Asm => if_built!(Asm { true } else { false }),
    };
    // The first of the aliases' conditions (see `build.rs`) that fails.
    (!built).then_some(
        if !cfg!(feature = "alloc") && matches!(kernel.build(), Build::Alloc) {
            "it needs the crate's alloc feature"
        } else if PORTABLE_FORCED {
            FORCED_BECAUSE
        } else if !cfg!(target_arch = "x86_64") {
            "it needs an x86-64 target"
        } else if !cfg!(simd_kernels) {
            "this target has no vector registers (a soft-float target)"
        } else if !cfg!(feature = "alloc") && matches!(kernel.build(), Build::SimdAlloc) {
            "it needs the crate's alloc feature"
        } else {
            "its assembly is ELF for the System V ABI, built for x86-64 Linux only"
        },
    )
}

/// The encodings of the hand-written assembly, which `asm` stands for: the
/// table's rows built as [`Build::Asm`], in its order (SSE4.1, then AVX).
pub(crate) fn asm_encodings() -> impl DoubleEndedIterator<Item = Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .filter(|k| matches!(k.build(), Build::Asm))
}

/// Whether this build was made with `queens_simd_force_portable`, which
/// leaves `auto` only the plain-Rust kernels: `portable`, `symmetric`,
/// `blocks` and `join`.
const PORTABLE_FORCED: bool = cfg!(queens_simd_force_portable);

/// Why a SIMD or asm kernel is missing from such a build.
const FORCED_BECAUSE: &str = "this build forces the portable kernel (queens_simd_force_portable)";

/// Where this build forces the portable kernels (built with `--cfg
/// queens_simd_force_portable`, or `QUEENS_SIMD_FORCE_PORTABLE=1`), the
/// sentence that says so, which [`Kernel::unavailable_because`] gives for
/// each SIMD or asm kernel; `None` in every other build.
pub fn portable_forced() -> Option<&'static str> {
    PORTABLE_FORCED.then_some(FORCED_BECAUSE)
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_finds_its_kernel_and_no_other() {
        for &kernel in Kernel::ALIASES.iter().chain(Kernel::ALL) {
            assert_eq!(Kernel::from_name(kernel.name()), Some(kernel));
            assert_eq!(kernel.name().parse::<Kernel>(), Ok(kernel));
        }
        for name in ["", "AUTO", "sse4.1", "asm ", "symmetric_bmi"] {
            assert_eq!(Kernel::from_name(name), None, "{name:?}");
        }
        assert_eq!(
            Kernel::ALL.len() + Kernel::ALIASES.len(),
            FACTS.len(),
            "every row is a kernel or an alias"
        );
    }

    #[test]
    fn the_kernels_that_split_are_those_with_a_plan_method_and_auto() {
        // The plan method a row gives agrees with its family: the join
        // family counts join plans, the symmetric search and its lanes
        // symmetric ones, no other family any.
        for &kernel in Kernel::ALIASES.iter().chain(Kernel::ALL) {
            let method = match kernel.family() {
                Family::Join => Some(Method::Join),
                Family::Symmetric | Family::Lanes => Some(Method::Symmetric),
                _ => None,
            };
            assert_eq!(kernel.method(), method, "{kernel}");
            assert_eq!(kernel.splits(), method.is_some() || kernel == Kernel::Auto);
            assert_eq!(kernel.counts_on_threads(), kernel.splits(), "{kernel}");
            assert_eq!(Method::of(kernel), kernel.method(), "{kernel}");
        }
        for method in Method::ALL {
            assert!(
                method.kernels().count() >= 2,
                "{method}: a portable kernel and a fast one"
            );
        }
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>(), Ok(method));
            assert!(method.kernels().all(|k| k.role() == Role::Fast));
        }
    }
}
