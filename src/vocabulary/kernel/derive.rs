//! The macros by which the layers above read the rows of [`kernels!`]: a
//! row's build ([`if_built!`]), and each kernel of a family as its own type
//! ([`family_kernel!`]).

#[cfg(doc)]
use super::kernels;

/// `if_built!(Build { then } else { otherwise })`: `then` in the builds
/// that carry [`Build`]'s code, `otherwise` in the others; the one map from
/// a [`Build`] to its cfg (`build.rs` sets them). The branch a build does
/// not carry is left out before its paths are resolved.
macro_rules! if_built {
    (Everywhere $then:block else $else:block) => { $crate::vocabulary::kernel::if_built!(@ (all()) $then $else) };
    (Alloc $then:block else $else:block) => { $crate::vocabulary::kernel::if_built!(@ (feature = "alloc") $then $else) };
    (SimdAlloc $then:block else $else:block) => {
        $crate::vocabulary::kernel::if_built!(@ (all(simd_kernels, feature = "alloc")) $then $else)
    };
    (X86 $then:block else $else:block) => { $crate::vocabulary::kernel::if_built!(@ (x86_kernels) $then $else) };
    (Simd $then:block else $else:block) => { $crate::vocabulary::kernel::if_built!(@ (simd_kernels) $then $else) };
    (Asm $then:block else $else:block) => { $crate::vocabulary::kernel::if_built!(@ (asm_kernels) $then $else) };
    (Alias $then:block else $else:block) => { $crate::vocabulary::kernel::if_built!(@ (all()) $then $else) };
    (@ ($($cfg:tt)*) $then:block $else:block) => {{
        #[cfg($($cfg)*)]
        let chosen = $then;
        #[cfg(not($($cfg)*))]
        let chosen = $else;
        chosen
    }};
}
pub(crate) use if_built;

/// `family_kernel!(Family, kernel, |k| body)`: for a `kernel` of that
/// [`Family`], `Some(body)` with `k` the kernel's own type, built, where
/// this build and CPU run it; `None` for the others. A match of every row
/// of the table, written from it: the tests' and the traces' way to each
/// kernel of a family, by its type, with no list of their own to keep.
// Used by the tests and the traces only.
#[cfg_attr(not(any(test, feature = "trace")), allow(unused_macros))]
macro_rules! family_kernel {
    ($family:ident, $kernel:expr, |$k:ident| $body:expr) => {
        $crate::vocabulary::kernel::kernels!(
            $crate::vocabulary::kernel::family_kernel_rows,
            $crate,
            $family,
            $kernel,
            |$k| $body
        )
    };
}
#[cfg_attr(not(any(test, feature = "trace")), allow(unused_imports))]
pub(crate) use family_kernel;

/// [`family_kernel!`]'s callback of [`kernels!`].
// Used by the tests and the traces only.
#[cfg_attr(not(any(test, feature = "trace")), allow(unused_macros))]
macro_rules! family_kernel_rows {
    (
        ($root:tt, $want:ident, $kernel:expr, |$k:ident| $body:expr)
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
        match $kernel {
            $(
                $crate::Kernel::$variant => $crate::vocabulary::kernel::if_family!(
                    $want, $family, $root, $build $(, $($path)::+)?, |$k| $body
                ),
            )*
        }
    };
}
#[cfg_attr(not(any(test, feature = "trace")), allow(unused_imports))]
pub(crate) use family_kernel_rows;

/// One row of [`family_kernel!`]: the row's kernel built and handed to the
/// body if its family is the one wanted, else `None`. (`macro_rules!`
/// compares words only by arms that spell them: one per family.)
// Used by the tests and the traces only.
#[cfg_attr(not(any(test, feature = "trace")), allow(unused_macros))]
macro_rules! if_family {
    (Join, Join, $($row:tt)*) => { $crate::vocabulary::kernel::if_family!(@ $($row)*) };
    (Lanes, Lanes, $($row:tt)*) => { $crate::vocabulary::kernel::if_family!(@ $($row)*) };
    (Symmetric, Symmetric, $($row:tt)*) => { $crate::vocabulary::kernel::if_family!(@ $($row)*) };
    (Blocks, Blocks, $($row:tt)*) => { $crate::vocabulary::kernel::if_family!(@ $($row)*) };
    (Portable, Portable, $($row:tt)*) => { $crate::vocabulary::kernel::if_family!(@ $($row)*) };
    (Davidad, Davidad, $($row:tt)*) => { $crate::vocabulary::kernel::if_family!(@ $($row)*) };
    (Reference, Reference, $($row:tt)*) => { $crate::vocabulary::kernel::if_family!(@ $($row)*) };
    (@ $root:tt, $build:ident, $($path:ident)::+, |$k:ident| $body:expr) => {
        $crate::vocabulary::kernel::if_built!($build {
            $root::$($path)::+().map(|$k| $body)
        } else {
            None
        })
    };
    ($want:ident, $family:ident, $($row:tt)*) => { None };
}
#[cfg_attr(not(any(test, feature = "trace")), allow(unused_imports))]
pub(crate) use if_family;
