//! How every kernel's type is declared: [`kernel_type!`].
//!
//! A kernel's type is a zero-sized proof that this CPU runs it: `new()`
//! makes one only where the CPU (and its operating system) has the
//! features of the kernel's row of the kernel table, so code that holds
//! one may call the kernel's `#[target_feature]` functions, compiled with
//! the same features (`target_features!` in the table writes them once).
//! The dispatcher hands the proof out as a `'static` reference.

/// Declares a kernel's type (see the module's docs):
///
/// ```text
/// kernel_type! {
///     /// The `my-kernel` kernel. Holding one proves this CPU runs the
///     /// features of its row.
///     pub struct MyKernel = Kernel::MyKernel;
/// }
/// ```
///
/// Every kernel type is declared so but the assembly's, one type for two
/// encodings (`kernel::asm`, which says why).
macro_rules! kernel_type {
    ($(#[$meta:meta])* $vis:vis struct $name:ident = $kernel:expr;) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $name(());

        impl $name {
            /// `Some` exactly where this CPU (and its operating system)
            /// runs the features of this kernel's row of the kernel table
            /// (a kernel in plain Rust needs none); asked once, then
            /// cached.
            pub fn new() -> Option<$name> {
                $crate::vocabulary::cpu::has_all($kernel.cpu_features()).then_some($name(()))
            }

            /// This proof as a `'static` solver: what the dispatcher hands
            /// out (the type is zero-sized, so the reference costs nothing).
            pub(crate) fn as_static(self) -> &'static $name {
                &$name(())
            }
        }
    };
}
pub(crate) use kernel_type;
