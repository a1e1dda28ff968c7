//! Growing the join's large buffers without aborting the process.
//!
//! The join's tables of quarter-boards (`quarters.rs`), its half-boards
//! (`halves.rs`) and the matcher's slices (`matcher.rs`) grow with N, to
//! tens or hundreds of MiB a thread ([`super::memory::estimate`]). A
//! refused allocation there must reach the caller as
//! [`Error::OutOfMemory`], not abort the program that linked the kernel,
//! so each of them reserves its room with `try_reserve` first, here; the
//! `resize` that follows then never allocates.
//!
//! So do the small buffers asked for between the large ones, while a
//! table or a row set is built (a quarter's rows, the sieve's lists per
//! class: kilobytes), where the memory may just have run out.
//!
//! What stays infallible is allocated once per count or per piece, before
//! any table, and is bounded whatever the memory limit: the lists of
//! splits (`Split::all`, at most 17), of a split's chunks (`Chunk::all`,
//! 16 bytes each: its pieces, under 1 MiB for the 59,640 of N = 32) and of a
//! plan's pieces, and a chunk's row sets (`Chunk::row_sets`, a few
//! thousand). A
//! process that cannot get them has no room to report an error either,
//! and checking them would cost code on every path for nothing.

use alloc::vec::Vec;
use core::alloc::Layout;

use crate::Error;

/// Bytes of address space left free after each buffer that this module
/// grows: once a buffer's allocation succeeds, [`headroom_left`] checks
/// that this much more could still be allocated, and if not, the buffer
/// is freed and refused ([`Error::OutOfMemory`]). What a count allocates
/// infallibly between two such buffers (the standard library's, and what
/// the caller does when a piece is reported) then has room.
///
/// It is address space a count needs beyond its buffers, not memory (the
/// probe touches nothing): the command line's check adds it to the address
/// space a count needs (`cli/memory.rs`). Measured (N = 16 and 18 on 1 and
/// 2 threads, a counting global allocator, `tests/memory_limits.rs`): the
/// allocations a count makes outside this module between two of its
/// buffers total at most a few KiB, as many pages as a thread without an
/// arena of its own maps one per allocation; but glibc's main arena grows
/// its heap by at least 128 KiB, and where `brk` is refused, by a mapping
/// of 1 MiB. 4 MiB covers that four times over.
pub(crate) const HEADROOM: u64 = 4 << 20;

/// A new vector of `len` zeros, allocated zeroed, as `vec![0; len]` is:
/// memory fresh from the system (a large table's) is zero already, so
/// nothing is written until the table is filled.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the allocation is refused.
pub(crate) fn zeroed<T: Zeroable>(len: usize) -> Result<Vec<T>, Error> {
    let layout = Layout::array::<T>(len).map_err(|_| refused::<T>(len))?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout's size is not zero.
    let words = unsafe { alloc::alloc::alloc_zeroed(layout) };
    if words.is_null() {
        return Err(refused::<T>(len));
    }
    if !headroom_left() {
        // SAFETY: allocated just above with this layout, and not used.
        unsafe { alloc::alloc::dealloc(words, layout) };
        return Err(refused_with_headroom::<T>(len));
    }
    // SAFETY: the global allocator allocated `words` with the layout of
    // `len` values of `T` (its alignment, and `len` times its size: a
    // capacity of `len`), and zero bytes are a `T` (`Zeroable`): all `len`
    // are initialised.
    Ok(unsafe { Vec::from_raw_parts(words.cast::<T>(), len, len) })
}

/// The types [`zeroed`] makes: those whose all-zero bytes are a value.
///
/// # Safety
///
/// Every byte of the type's value zero is a valid value of the type.
pub(crate) unsafe trait Zeroable: Copy {}

// SAFETY: every bit pattern of an integer is a value, zero too.
unsafe impl Zeroable for u32 {}
// SAFETY: as above.
unsafe impl Zeroable for u64 {}

/// A new vector holding a copy of `values`, allocated to their size.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the allocation is refused.
pub(crate) fn copied<T: Copy>(values: &[T]) -> Result<Vec<T>, Error> {
    let mut vector = Vec::new();
    vector
        .try_reserve_exact(values.len())
        .map_err(|_| refused::<T>(values.len()))?;
    if vector.capacity() != 0 && !headroom_left() {
        return Err(refused_with_headroom::<T>(values.len()));
    }
    vector.extend_from_slice(values);
    Ok(vector)
}

/// Makes `vector` at least `len` long, the new places holding `value`
/// (it never shrinks): the buffers that only grow, reused from one row set
/// to the next.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the allocation is refused; `vector` is left
/// as it was.
#[inline(always)]
pub(crate) fn at_least<T: Clone>(vector: &mut Vec<T>, len: usize, value: T) -> Result<(), Error> {
    if vector.len() < len {
        reserve(vector, len - vector.len())?;
        vector.resize(len, value);
    }
    Ok(())
}

/// Empties `vector`, then fills it with `len` copies of `value`.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the allocation is refused; `vector` is left
/// empty.
#[inline(always)]
pub(crate) fn refill<T: Clone>(vector: &mut Vec<T>, len: usize, value: T) -> Result<(), Error> {
    vector.clear();
    reserve(vector, len)?;
    vector.resize(len, value);
    Ok(())
}

/// Pushes `value` onto `list` where room for it is found, for a visitor
/// that cannot stop: once the room is refused, `refused` keeps that first
/// error and later values are dropped.
pub(crate) fn push_while_room<T>(list: &mut Vec<T>, refused: &mut Result<(), Error>, value: T) {
    if refused.is_ok() {
        *refused = reserve(list, 1);
        if refused.is_ok() {
            list.push(value);
        }
    }
}

/// Words whose first lies on a 64-byte boundary, a cache line: with rows
/// a whole number of vectors long, no 512-bit load of the matcher
/// straddles two lines. (An allocator aligns a `Vec<u64>` to 16 bytes or a
/// page offset, and which it was changed the speed of a whole sample by a
/// sixth, at random from run to run: BENCHMARKS.md.)
#[derive(Default)]
pub(crate) struct AlignedWords {
    words: Vec<u64>,
    start: usize,
    len: usize,
}

/// Words per cache line.
const LINE: usize = 8;

impl AlignedWords {
    /// Empties it, then fills it with `len` zeros.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the allocation is refused; it is left
    /// empty.
    #[inline(always)]
    pub(crate) fn refill(&mut self, len: usize) -> Result<(), Error> {
        self.grown_by(len, |words, len| refill(words, len, 0))
    }

    /// Makes it `len` words long, their values left as they were (or
    /// zero where it grew): for a caller that writes every word.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the allocation is refused; it is left
    /// empty.
    #[inline(always)]
    pub(crate) fn resize(&mut self, len: usize) -> Result<(), Error> {
        self.grown_by(len, |words, len| at_least(words, len, 0))
    }

    /// Makes it `len` words long, the words beneath grown by `grow` to hold
    /// them from the first cache line boundary on; left empty if refused.
    #[inline(always)]
    fn grown_by(
        &mut self,
        len: usize,
        grow: impl FnOnce(&mut Vec<u64>, usize) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.len = 0;
        grow(&mut self.words, len + LINE - 1)?;
        self.start = self.words.as_ptr().align_offset(8 * LINE).min(LINE - 1);
        self.len = len;
        Ok(())
    }

    /// The words.
    #[inline(always)]
    pub(crate) fn words(&self) -> &[u64] {
        &self.words[self.start..][..self.len]
    }

    /// The words, to write.
    #[inline(always)]
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words[self.start..][..self.len]
    }
}

/// Room for `additional` more elements in `vector`. Where it has the room
/// already (nearly always, once the buffers have grown), one comparison.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the allocation is refused.
#[inline(always)]
pub(crate) fn reserve<T>(vector: &mut Vec<T>, additional: usize) -> Result<(), Error> {
    if vector.capacity() - vector.len() >= additional {
        return Ok(());
    }
    reserve_more(vector, additional)
}

/// [`reserve`] where the room must be allocated: amortised, as
/// `Vec::reserve` would (twice the capacity), and if that is refused, just
/// the room asked for, which may still fit. Then [`headroom_left`]: if
/// not, an empty vector's new buffer is freed (a vector that held values
/// keeps its larger one, for its owner to drop with the error).
#[cold]
#[inline(never)]
fn reserve_more<T>(vector: &mut Vec<T>, additional: usize) -> Result<(), Error> {
    let len = vector.len().saturating_add(additional);
    if vector.try_reserve(additional).is_err() && vector.try_reserve_exact(additional).is_err() {
        return Err(refused::<T>(len));
    }
    if core::mem::size_of::<T>() != 0 && !headroom_left() {
        if vector.is_empty() {
            *vector = Vec::new();
        }
        return Err(refused_with_headroom::<T>(len));
    }
    Ok(())
}

/// Whether [`HEADROOM`] bytes could still be allocated: they are, and
/// freed at once, never touched (so no page of them is made resident).
/// With glibc an allocation this large is a mapping of its own, unless
/// freed ones have raised its threshold; either way what it checks is
/// what the next small allocations will find.
#[inline(never)]
pub(crate) fn headroom_left() -> bool {
    const PROBE: Layout = match Layout::from_size_align(HEADROOM as usize, 16) {
        Ok(layout) => layout,
        Err(_) => panic!("the headroom is a layout"),
    };
    // SAFETY: the layout's size is not zero.
    let probe = unsafe { alloc::alloc::alloc(PROBE) };
    // Opaque, so that the optimiser keeps an allocation it sees unused.
    let probe = core::hint::black_box(probe);
    if probe.is_null() {
        return false;
    }
    // SAFETY: allocated just above with this layout.
    unsafe { alloc::alloc::dealloc(probe, PROBE) };
    true
}

/// The error for a refused buffer of `len` elements of `T`.
#[cold]
fn refused<T>(len: usize) -> Error {
    Error::OutOfMemory {
        bytes: (len as u64).saturating_mul(core::mem::size_of::<T>() as u64),
    }
}

/// The error for a buffer of `len` elements of `T` that was allocated but
/// left less than [`HEADROOM`]: the bytes asked for are both.
#[cold]
fn refused_with_headroom<T>(len: usize) -> Error {
    Error::OutOfMemory {
        bytes: (len as u64)
            .saturating_mul(core::mem::size_of::<T>() as u64)
            .saturating_add(HEADROOM),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer larger than any address space is refused with its size,
    /// and the vector asked to grow is left as it was. (`black_box`: an
    /// optimised build may elide an allocation that is never used, and
    /// with it the refusal.)
    #[test]
    fn an_impossible_buffer_is_an_error_not_an_abort() {
        use core::hint::black_box;
        let huge = black_box(usize::MAX / 16);
        let expected = Error::OutOfMemory {
            bytes: huge as u64 * 8,
        };
        assert_eq!(black_box(zeroed::<u64>(huge)).err(), Some(expected.clone()));
        let mut vector = alloc::vec![1u64, 2, 3];
        assert_eq!(at_least(&mut vector, huge, 0).err(), Some(expected.clone()));
        assert_eq!(vector, [1, 2, 3]);
        assert_eq!(refill(&mut vector, huge, 0).err(), Some(expected));
        assert!(vector.is_empty());
        // Past `isize::MAX` bytes: a capacity overflow, the same error.
        assert!(matches!(
            black_box(zeroed::<u64>(black_box(usize::MAX))),
            Err(Error::OutOfMemory { bytes: u64::MAX })
        ));
    }

    #[test]
    fn buffers_grow_and_refill_as_asked() {
        let mut vector = alloc::vec![7u32; 3];
        assert_eq!(vector, [7, 7, 7]);
        at_least(&mut vector, 2, 0).unwrap();
        assert_eq!(vector, [7, 7, 7], "never shrinks");
        at_least(&mut vector, 5, 0).unwrap();
        assert_eq!(vector, [7, 7, 7, 0, 0]);
        refill(&mut vector, 2, 9).unwrap();
        assert_eq!(vector, [9, 9]);
        assert_eq!(copied(&vector).unwrap(), [9, 9]);
        assert_eq!(zeroed::<u64>(3).unwrap(), [0, 0, 0]);
        assert!(zeroed::<u32>(0).unwrap().is_empty());
        // Large enough to come fresh from the system, and zero all the same.
        assert!(
            zeroed::<u64>(1 << 20)
                .unwrap()
                .iter()
                .all(|&word| word == 0)
        );
    }
}
