//! Counting the pairs of two sets of masks that share no bit: the join's
//! inner loop, where most of its time goes as N grows. Written once,
//! generic over the width of a vector ([`PatternWords`]): `u64` in the
//! portable kernel, 256 bits with AVX2, 512 with AVX-512.
//!
//! # Bit-sliced patterns
//!
//! The patterns (the larger set) are stored bit-sliced: 64 patterns make a
//! word of each *slice*, word `w` of slice `b` holding bit `b` of patterns
//! `64w..64w + 64`. An item is then matched against a whole vector of
//! patterns at once: OR together the item's slices, and lane `j` of the
//! result is set exactly when pattern `j` shares a bit with the item. Its
//! popcount is the vector's conflicts with the item, for one OR per set bit
//! of the item (about `n` of them) instead of one test per pattern. Lanes
//! past the last pattern are 0 in every slice, so they never count as
//! conflicts, and the pairs that share no bit are all pairs less the
//! conflicts. Only the slices of bits some pattern has are stored: an
//! item's other bits meet nothing.
//!
//! # The sieve
//!
//! Before that, a sieve skips most pairs that conflict on up to fourteen
//! *cut* bits, chosen for each row set from its own two lists (`cuts.rs`:
//! those that most items and most patterns have; for even N the two long
//! diagonals always, as the top two). Items and patterns come filed by
//! their cut bits read as a number, their class: as many cut bits as the
//! lists are long enough for (`cuts::Policy::cuts`). An item of class `u`
//! can only match patterns of a class `v` with `u & v == 0`: the items of
//! class `u` are matched against those classes only, gathered into one run
//! of slices ([`gather`]), about (3/4)^4 = 32% of the patterns with four
//! cut bits set half the time (35% of all pairs at N = 18). Each class
//! starts on a word of its own, so a gathered run holds nothing but the
//! classes it should. For even N the classes also weigh the pairs
//! ([`weight`]: the transpose): a class pair of weight 0 is never scanned,
//! one of weight 2 is scanned in a run of its own and counted twice. With
//! a band of two, each side's masks are also filed by their middle rows'
//! tags (`transpose::TagWeights`), the tags above the cut bits in the
//! class: a pair the long diagonals weigh 1 takes the weight of its two
//! tags instead, 0, 1 or 2, and again weight 0 is never scanned.
//!
//! Where a row set has ten cut bits or more, the items' classes are
//! taken eight at a time, those that differ only in the three lowest cut
//! bits (their *fine* bits): one run is gathered for the eight, of the
//! pattern classes their other bits match, in eight segments by the
//! patterns' fine bits, and each class of items scans only the segments
//! whose fine bits it does not have ([`FINE_BITS`]). The pairs scanned
//! are the same; the gathering, a third of the joins' time at N = 28 with
//! a run per class of about sixty items, is done an eighth as often.
//!
//! # The scan
//!
//! The run is scanned a group of up to eight vectors at a time, one
//! accumulator each, every item of the class against the whole group
//! ([`scan`]): the group (at most 8 vectors of up to 34 slices at N = 18,
//! 17 KiB for 512-bit vectors) stays in the L1 cache while the items
//! stream past, each item's set bits turned into slice offsets by a table
//! of the run's rows. A group of up to four vectors takes two or four
//! items at a time ([`scan_interleaved`]). Where the kernel has `pext`,
//! the run is read through tables of the ORs of each four of its rows
//! instead (`or_tables.rs`), four rows a read.

use alloc::vec::Vec;

#[cfg(test)]
use super::cuts::CUTS;
use super::grow::{self, AlignedWords};
use super::or_tables;
use super::split::LongDiagonals;
use super::stats::JoinStats;
use super::transpose::MAX_TAGS;
use super::words::PatternWords;
use crate::Error;

/// Masks filed by class, their tag index (`transpose::TagWeights`) above
/// their `cuts` cut bits read as a number (`cuts::Cuts::class`): those of
/// class `c` are `masks[starts[c]..starts[c + 1]]`, `tags * 2^cuts`
/// classes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group<'a> {
    pub(crate) masks: &'a [u64],
    /// `tags * 2^cuts + 1` of them.
    pub(crate) starts: &'a [usize],
    /// How many cut bits make the classes.
    pub(crate) cuts: usize,
    /// How many tags (1 without the band's rule).
    pub(crate) tags: usize,
}

impl Group<'_> {
    pub(crate) fn len(&self) -> usize {
        self.masks.len()
    }

    fn class(&self, class: usize) -> &[u64] {
        &self.masks[self.starts[class]..self.starts[class + 1]]
    }

    /// How many classes: `tags * 2^cuts`.
    fn classes(&self) -> usize {
        self.starts.len() - 1
    }
}

/// How the pairs are weighed: by the long diagonals (the top cut bits),
/// and where those weigh a pair 1, by the band's rule on the two tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weighing {
    pub(crate) diagonals: LongDiagonals,
    /// `tags[i][p]`: the weight of an item of tag `i` and a pattern of tag
    /// `p` (all 1 without tags).
    pub(crate) tags: [[u8; MAX_TAGS]; MAX_TAGS],
}

impl From<LongDiagonals> for Weighing {
    fn from(diagonals: LongDiagonals) -> Weighing {
        Weighing {
            diagonals,
            tags: [[1; MAX_TAGS]; MAX_TAGS],
        }
    }
}

/// The weight of the pairs of an item of class `u` and a pattern of class
/// `v` (classes of `cuts` cut bits) as `weighing` says (see
/// `split::Split::new`). With both long diagonals (the top two cut bits):
/// 0 if one has a queen on one long diagonal and the other on the other, 2
/// if either has both, else 1. With one (the top cut bit): 2 with a queen
/// on it, else 1. Without: 1. The
/// transpose swaps which half holds the anti-diagonal's queen and keeps the
/// rest, so of a solution with both long diagonals taken and its transpose
/// exactly one has them in one half, and the weights add up to the count.
fn diagonal_weight(u: usize, v: usize, cuts: usize, weighing: LongDiagonals) -> usize {
    match weighing {
        LongDiagonals::Unweighed => return 1,
        // The split closed the diagonal's squares in the half whose pairs
        // would weigh 0: a queen on it weighs 2.
        LongDiagonals::One => return 1 + ((u | v) >> (cuts - 1) & 1),
        LongDiagonals::Both => {}
    }
    let (main, anti) = (1 << (cuts - 1), 1 << (cuts - 2));
    let (u_main, u_anti) = (u & main != 0, u & anti != 0);
    let (v_main, v_anti) = (v & main != 0, v & anti != 0);
    if (u_main && v_anti) || (u_anti && v_main) {
        0
    } else if (u_main && u_anti) || (v_main && v_anti) {
        2
    } else {
        1
    }
}

/// The weight of the pairs of an item of class `u` and a pattern of class
/// `v` (a tag above `cuts` cut bits): the long diagonals' on the cut bits
/// ([`diagonal_weight`]), and where that is 1, the tags'.
#[inline(always)]
fn weight(u: usize, v: usize, cuts: usize, weighing: &Weighing) -> usize {
    let low = (1 << cuts) - 1;
    match diagonal_weight(u & low, v & low, cuts, weighing.diagonals) {
        1 => usize::from(weighing.tags[u >> cuts][v >> cuts]),
        decided => decided,
    }
}

/// The buffers of a matcher, reused from one row set to the next.
#[derive(Default)]
pub(crate) struct MatcherScratch {
    /// Every pattern bit-sliced: row `r` (the `r`-th bit of the patterns'
    /// union) at `sliced[r * stride..]`, each class from a word of its own.
    sliced: AlignedWords,
    /// The rows of `sliced` before its row of zeros.
    sliced_rows: usize,
    /// The classes one item class can match, gathered into one run.
    gathered: AlignedWords,
    /// Per class of patterns: where it starts in a row of `sliced` (one
    /// more: the words of every class), and the bits its patterns have.
    first_word: Vec<usize>,
    unions: Vec<u64>,
    /// The classes of patterns one class of items matches, by weight.
    matched: [Vec<usize>; 3],
    /// The 8-word copies that gather their words from a row of `sliced`:
    /// where each reads, and where it writes in a row of the run.
    blocks: Vec<(u32, u32)>,
    /// The tables of ORs of the scan by tables (`or_tables.rs`).
    tables: AlignedWords,
    /// What the matcher did, added up until read.
    pub(crate) stats: JoinStats,
}

/// Words, rounded up to whole groups of up to eight vectors of `W`: what a
/// run of `words` takes, so that the scan never reads past its slice.
fn padded<W: PatternWords>(words: usize) -> usize {
    words.next_multiple_of(W::WORDS)
}

/// The pairs of `items` and `patterns` that share no bit, with vectors of
/// `W`.
///
/// Its helpers are `#[inline(always)]`: it runs inside each kernel's
/// `#[target_feature]` function, and a helper that was not inlined there
/// would lose the kernel's instructions.
///
/// Its buffers grow fallibly: the slices (`sliced`, `gathered`: as large
/// as the patterns, megabytes from N = 20), and the lists per class
/// (`first_word`, `unions`, `matched`: at most `2^cuts::CUTS + 1` entries),
/// small, but asked for between the large ones, where the memory may just
/// have run out.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for a buffer is refused.
///
/// # Safety
///
/// The CPU runs `W`'s instructions.
#[inline(always)]
pub(crate) unsafe fn disjoint_pairs<W: PatternWords>(
    items: Group<'_>,
    patterns: Group<'_>,
    weighing: &Weighing,
    scratch: &mut MatcherScratch,
) -> Result<u64, Error> {
    debug_assert_eq!(items.cuts, patterns.cuts);
    debug_assert!(items.cuts >= weighing.diagonals.bits());
    if items.len() == 0 || patterns.len() == 0 {
        return Ok(0);
    }
    // The patterns, bit-sliced.
    let classes = patterns.classes();
    let (mut first_word, mut unions) = (
        core::mem::take(&mut scratch.first_word),
        core::mem::take(&mut scratch.unions),
    );
    let union = classes_of(&patterns, &mut first_word, &mut unions)?;
    let mut row = [0usize; 64];
    let fine = fine_bits(items.cuts, weighing.diagonals.bits());
    // Rows that end with a block of zeros where runs have segments.
    let zeros = if fine > 0 { ZEROS } else { 0 };
    // On an error the lists taken from `scratch` are dropped: it stays
    // usable, its buffers empty.
    let stride = {
        let slicing = (&first_word[..], &unions[..], union, zeros);
        // SAFETY: the caller's CPU.
        unsafe { slice_patterns::<W>(&patterns, slicing, &mut row, scratch)? }
    };
    let nonempty = classes_with_boards(&patterns);
    scratch.stats.classes += (nonempty + classes_with_boards(&items)) as u64;
    let mut matched = core::mem::take(&mut scratch.matched);
    let mut tables = core::mem::take(&mut scratch.tables);
    // Room for every class, so that `matched_classes` never allocates.
    matched
        .iter_mut()
        .try_for_each(|by_weight| grow::reserve(by_weight, classes))?;
    let mut pairs = 0;
    for first in (0..items.classes()).step_by(1 << fine) {
        let fine_classes = first..first + (1 << fine);
        if fine_classes.clone().all(|u| items.class(u).is_empty()) {
            continue;
        }
        // The bits the items have: only their slices are read.
        let item_bits = fine_classes
            .flat_map(|u| items.class(u))
            .fold(0, |all, &item| all | item);
        // The classes of patterns they can match on the coarse bits, by
        // the weight of the pairs (the fine bits are below the long
        // diagonals', so they do not weigh).
        matched_classes(first, &patterns, weighing, &mut matched);
        for (w, matched) in matched.iter().enumerate().skip(1) {
            let coarse = Coarse {
                first,
                fine,
                item_bits,
                matched,
                every_class: fine == 0 && matched.len() == nonempty,
            };
            let slices = Slices {
                stride,
                row: &row,
                first_word: &first_word,
                unions: &unions,
            };
            // SAFETY: the caller's CPU.
            let found = unsafe {
                pairs_of_coarse::<W>(&coarse, &items, &patterns, &slices, scratch, &mut tables)?
            };
            pairs += w as u64 * found;
        }
    }
    (scratch.first_word, scratch.unions, scratch.matched) = (first_word, unions, matched);
    scratch.tables = tables;
    Ok(pairs)
}

/// Low cut bits that split the items' classes a second time, where a row
/// set has at least [`FINE_FROM`] cut bits: the items of the `2^FINE_BITS`
/// classes that differ only there share one gathered run (their *coarse*
/// class's), its pattern classes in [`Segment`]s by those bits, and each
/// scans only the segments it can match. A run is then gathered once for
/// up to eight classes of items, where the gathering had become a third
/// of the joins' time at N = 28.
const FINE_BITS: usize = 3;

/// The fewest cut bits that take [`FINE_BITS`] fine bits.
const FINE_FROM: usize = 10;

/// The fine bits of a row set of `cuts` cut bits whose top
/// `diagonal_bits` weigh its pairs: none below [`FINE_FROM`], and never a
/// bit that weighs.
fn fine_bits(cuts: usize, diagonal_bits: usize) -> usize {
    if cuts >= FINE_FROM {
        FINE_BITS.min(cuts - diagonal_bits)
    } else {
        0
    }
}

/// A coarse class of items: those of classes `first..first + 2^fine`
/// (their bits `item_bits`), and the pattern classes of one weight they
/// can match on the coarse bits, `matched`, ascending; whether those are
/// every class with patterns (and there are no fine bits: the slices are
/// then the run, as they lie).
struct Coarse<'a> {
    first: usize,
    fine: usize,
    item_bits: u64,
    matched: &'a [usize],
    every_class: bool,
}

/// The bit-sliced patterns: rows `stride` words apart, bit `b` in row
/// `row[b]`, class `c` from word `first_word[c]`, its bits `unions[c]`.
struct Slices<'a> {
    stride: usize,
    row: &'a [usize; 64],
    first_word: &'a [usize],
    unions: &'a [u64],
}

/// The pairs of the items of `coarse` and its matched patterns that share
/// no bit, unweighed: the run of its matched classes gathered once, by
/// segment ([`segments_of`]), and each of its fine classes of items
/// scanned against the segments whose fine bits it does not have, as one
/// run where they follow each other.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the run or the tables is
/// refused.
///
/// # Safety
///
/// The CPU runs `W`'s instructions.
#[inline(always)]
unsafe fn pairs_of_coarse<W: PatternWords>(
    coarse: &Coarse<'_>,
    items: &Group<'_>,
    patterns: &Group<'_>,
    slices: &Slices<'_>,
    scratch: &mut MatcherScratch,
    tables: &mut AlignedWords,
) -> Result<u64, Error> {
    let zeros = slices.stride.saturating_sub(ZEROS);
    let (segments, words) = segments_of::<W>(slices, patterns, coarse, zeros, &mut scratch.blocks)?;
    let union = segments.iter().fold(0, |all, s| all | s.union);
    if segments.iter().all(|s| s.patterns == 0) {
        return Ok(0);
    }
    let reach = union & coarse.item_bits;
    let (run, offset) = run_of::<W>(scratch, slices, words, reach, coarse.every_class)?;
    let (mut found, mut stats) = (0, JoinStats::default());
    for f in 0..1usize << coarse.fine {
        let items_f = items.class(coarse.first | f);
        if items_f.is_empty() {
            continue;
        }
        let bits = items_f.iter().fold(0, |all, &item| all | item);
        // The runs of segments `g` with `g & f == 0`, those that follow
        // each other as one.
        let mut g = 0;
        while g < 1 << coarse.fine {
            let from = g;
            while g < 1 << coarse.fine && g & f == 0 {
                g += 1;
            }
            if g == from {
                g += 1;
                continue;
            }
            let part = &segments[from..g];
            let scanned: usize = part.iter().map(|s| s.patterns).sum();
            if scanned == 0 {
                continue;
            }
            let (start, end) = (part[0].start, part[part.len() - 1].end);
            let vectors = (end - start).div_ceil(W::WORDS);
            let part_reach = bits & part.iter().fold(0, |all, s| all | s.union);
            // SAFETY: the CPU runs `W`'s instructions; every bit of
            // `part_reach` is one of `reach`'s, whose rows each hold the
            // segments' words, `vectors` whole vectors from `start`, as
            // does the row of zeros at `offset[64]`.
            let conflicts = unsafe {
                conflicts_in_run::<W>(&run[start..], vectors, items_f, part_reach, &offset, tables)?
            };
            let tried = items_f.len() as u64 * scanned as u64;
            found += tried - conflicts;
            stats.scanned += tried;
            stats.lanes += (items_f.len() * vectors * W::WORDS * 64) as u64;
        }
    }
    scratch.stats.scanned += stats.scanned;
    scratch.stats.lanes += stats.lanes;
    scratch.stats.found += found;
    Ok(found)
}

/// A segment of a gathered run: the matched classes of one value of the
/// fine bits, from word `start` (a whole vector's first) to `end` of a
/// row, and zeros from there to the end of its last vector; `patterns` of
/// them, with the bits `union`.
#[derive(Clone, Copy, Default)]
struct Segment {
    start: usize,
    end: usize,
    patterns: usize,
    union: u64,
}

/// The segments of the run of `coarse`'s matched classes, and the 8-word
/// copies that gather them into a row (into `blocks`: see [`gather`]),
/// segment `g` the classes whose fine bits are `g`, ascending, each from
/// a whole vector of `W`. Where there are fine bits, a block from word
/// `zeros` of a row of the slices (8 words of zeros) clears each
/// segment's last vector past its classes, where the block before may
/// have written the next words of the slices; without, the one segment's
/// are cleared by [`gather`], as the run's end. Returns the segments and
/// the run's words.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the blocks is refused.
#[inline(always)]
fn segments_of<W: PatternWords>(
    slices: &Slices<'_>,
    patterns: &Group<'_>,
    coarse: &Coarse<'_>,
    zeros: usize,
    blocks: &mut Vec<(u32, u32)>,
) -> Result<([Segment; 1 << FINE_BITS], usize), Error> {
    blocks.clear();
    let mut segments = [Segment::default(); 1 << FINE_BITS];
    let fine = (1 << coarse.fine) - 1;
    let mut words = 0;
    for (g, segment) in segments.iter_mut().enumerate().take(1 << coarse.fine) {
        segment.start = words;
        // The run of words being merged: where it starts in the slices,
        // and how long it is.
        let (mut start, mut len) = (0, 0);
        for &v in coarse.matched.iter().filter(|&&v| v & fine == g) {
            let (first, end) = (slices.first_word[v], slices.first_word[v + 1]);
            if first != start + len {
                push_blocks(start, len, words - len, blocks)?;
                (start, len) = (first, 0);
            }
            len += end - first;
            words += end - first;
            segment.patterns += patterns.class(v).len();
            segment.union |= slices.unions[v];
        }
        push_blocks(start, len, words - len, blocks)?;
        segment.end = words;
        if coarse.fine > 0 {
            let next = padded::<W>(words);
            push_blocks(zeros, next - words, words, blocks)?;
            words = next;
        }
    }
    Ok((segments, words))
}

/// The classes of `group` that hold half-boards.
fn classes_with_boards(group: &Group<'_>) -> usize {
    (0..group.classes())
        .filter(|&v| !group.class(v).is_empty())
        .count()
}

/// The conflicts of every item of `items` with the `vectors` vectors of
/// `run` (bit `b`'s row at `offset[b]` words from its start): read through
/// tables of ORs where `W` has `pext` ([`or_tables::scan`]), else a row at a
/// time ([`scan`]).
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the tables is refused.
///
/// # Safety
///
/// The CPU runs `W`'s instructions; for every bit `b` of `reach`, and for
/// `b = 64`, `offset[b] + vectors * W::WORDS` words fit in `run`, and
/// `offset[64]`'s are zeros.
#[inline(always)]
unsafe fn conflicts_in_run<W: PatternWords>(
    run: &[u64],
    vectors: usize,
    items: &[u64],
    reach: u64,
    offset: &[u32; 65],
    tables: &mut AlignedWords,
) -> Result<u64, Error> {
    // SAFETY: this function's contract is both scans'.
    unsafe {
        if W::COMPRESSES {
            or_tables::scan::<W>(run.as_ptr(), vectors, items, reach, offset, tables)
        } else {
            Ok(scan::<W>(run.as_ptr(), vectors, items, reach, offset))
        }
    }
}

/// The run of slices that a coarse class of items scans, whose 8-word
/// copies are `scratch.blocks` (`words` words a row): all of
/// `scratch.sliced` (`slices`) if its classes are every class with
/// patterns, as they lie, else just them gathered into
/// `scratch.gathered`, only the rows of the bits of `reach`. Returns the
/// run and each bit's row as an offset in words from its start, and past
/// the last bit (`offset[64]`) a row of zeros.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the gathered run is refused.
#[inline(always)]
fn run_of<'a, W: PatternWords>(
    scratch: &'a mut MatcherScratch,
    slices: &Slices<'_>,
    words: usize,
    reach: u64,
    every_class: bool,
) -> Result<(&'a [u64], [u32; 65]), Error> {
    let (run, run_stride, run_row, zeros) = if every_class {
        (
            scratch.sliced.words(),
            slices.stride,
            *slices.row,
            scratch.sliced_rows,
        )
    } else {
        let gathered_row = gather(
            scratch.sliced.words(),
            slices.stride,
            slices.row,
            &scratch.blocks,
            words,
            reach,
            &mut scratch.gathered,
            padded::<W>,
        )?;
        let run = scratch.gathered.words();
        let zeros = reach.count_ones() as usize;
        (run, padded::<W>(words), gathered_row, zeros)
    };
    // Each bit's row, as an offset from the run's start, and past the last
    // bit (`trailing_zeros` of 0) the row of zeros.
    let mut offset = [0u32; 65];
    let mut rest = reach;
    while rest != 0 {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        offset[bit] = (run_row[bit] * run_stride) as u32;
    }
    offset[64] = (zeros * run_stride) as u32;
    Ok((run, offset))
}

/// Where each class of `patterns` starts in a row of the slices, in words,
/// into `first_word` (one more than the classes: the last, the words of
/// every class), and the bits each class's patterns have, into `unions`;
/// returns the bits of every pattern.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the lists is refused.
#[inline(always)]
fn classes_of(
    patterns: &Group<'_>,
    first_word: &mut Vec<usize>,
    unions: &mut Vec<u64>,
) -> Result<u64, Error> {
    first_word.clear();
    unions.clear();
    grow::reserve(first_word, patterns.classes() + 1)?;
    grow::reserve(unions, patterns.classes())?;
    first_word.push(0);
    for class in 0..patterns.classes() {
        let masks = patterns.class(class);
        unions.push(masks.iter().fold(0, |union, &m| union | m));
        first_word.push(first_word[class] + masks.len().div_ceil(64));
    }
    Ok(unions.iter().fold(0, |all, &u| all | u))
}

/// Slices `patterns` into `scratch.sliced`: only the rows of the bits some
/// pattern has (`union`, numbered into `row`), each class from its word of
/// `first_word` (the bits of class `c` are `unions[c]`), each row ending
/// with `zeros` words of zeros, which the gathered runs' segments copy
/// past their classes ([`segments_of`]). Returns the words from one row
/// to the next.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the slices is refused.
///
/// # Safety
///
/// The CPU runs `W`'s instructions.
#[inline(always)]
unsafe fn slice_patterns<W: PatternWords>(
    patterns: &Group<'_>,
    (first_word, unions, union, zeros): (&[usize], &[u64], u64, usize),
    row: &mut [usize; 64],
    scratch: &mut MatcherScratch,
) -> Result<usize, Error> {
    let mut rows = 0;
    for (bit, slot) in row.iter_mut().enumerate() {
        if union >> bit & 1 != 0 {
            *slot = rows;
            rows += 1;
        }
    }
    let stride = padded::<W>(first_word[patterns.classes()]) + zeros;
    // One more row, all zeros: what an item's bits past its last read.
    scratch.sliced.refill((rows + 1) * stride + SPARE)?;
    scratch.sliced_rows = rows;
    for class in 0..patterns.classes() {
        for (i, chunk) in patterns.class(class).chunks(64).enumerate() {
            let word = first_word[class] + i;
            // SAFETY: the CPU runs `W`'s instructions; every row of a bit
            // of `union` is below `rows`, so `row[b] * stride + word` is
            // inside `sliced` (`word < stride`).
            unsafe {
                W::slice(
                    chunk,
                    unions[class],
                    row,
                    stride,
                    &mut scratch.sliced.words_mut()[word..],
                )
            };
        }
    }
    Ok(stride)
}

/// The classes with patterns that items of class `u` can match (those
/// that share no cut bit with it), by the weight of their pairs: those of
/// weight `w` into `matched[w]`, ascending, weighed as `weighing` says
/// (see [`weight`]).
///
/// Only the classes without a bit of `u` are visited (every subset of its
/// complement, `2^(cuts - |u|)` of them, for each tag), not all `2^cuts`:
/// with many cut bits the classes a row set pairs up are `3^cuts`, not
/// `4^cuts`.
#[inline(always)]
fn matched_classes(
    u: usize,
    patterns: &Group<'_>,
    weighing: &Weighing,
    matched: &mut [Vec<usize>; 3],
) {
    for weight_class in matched.iter_mut() {
        weight_class.clear();
    }
    let cuts = patterns.cuts;
    let free = ((1 << cuts) - 1) & !u;
    for tag in 0..patterns.tags {
        // Every subset of `free`, ascending: the next is the lowest subset
        // above, found by carrying through the bits not in `free`.
        let mut v = 0usize;
        loop {
            let class = tag << cuts | v;
            if !patterns.class(class).is_empty() {
                matched[weight(u, class, cuts, weighing)].push(class);
            }
            if v == free {
                break;
            }
            v = ((v | !free) + 1) & free;
        }
    }
}

/// Gathers a run of slices into `out` by `blocks`, 8-word copies from a
/// row of `sliced` into a row of the run (`words` words): only the rows of
/// the bits of `reach`, then a row of zeros. Returns each bit's row in
/// `out`, whose rows are `stride_of(words)` apart.
///
/// A class holds a few words, so a copy per class and row, sized at run
/// time, cost more in calls and mispredicted loops than in the words it
/// moved. So the classes' words are first merged into runs of words that
/// follow each other in a row of `sliced` (classes next to each other, or
/// with only empty classes between them), and those cut into `blocks` of
/// 8 words: each row is then the same loop of whole 8-word copies. A
/// block may read up to 7 words past its run of words (the slices end
/// with spare words, [`SPARE`]) and write up to 7 past it, which the next
/// block, or the zeros that end the row, overwrite; those zeros may spill
/// into the next row, written after, and past the last, into the row of
/// zeros, written last.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for `out` is refused.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn gather(
    sliced: &[u64],
    stride: usize,
    row: &[usize; 64],
    blocks: &[(u32, u32)],
    words: usize,
    reach: u64,
    out: &mut AlignedWords,
    stride_of: fn(usize) -> usize,
) -> Result<[usize; 64], Error> {
    let out_stride = stride_of(words);
    let mut out_row = [0usize; 64];
    let rows = reach.count_ones() as usize;
    out.resize((rows + 1) * out_stride + SPARE)?;
    let out = out.words_mut();
    let mut rest = reach;
    let mut at = 0;
    while rest != 0 {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out_row[bit] = at;
        let (source, target) = (&sliced[row[bit] * stride..], &mut out[at * out_stride..]);
        for &(from, to) in blocks {
            let (from, to) = (from as usize, to as usize);
            target[to..to + 8].copy_from_slice(&source[from..from + 8]);
        }
        target[words..words + 8].fill(0);
        at += 1;
    }
    out[at * out_stride..][..out_stride].fill(0);
    Ok(out_row)
}

/// The blocks of 8 words that copy `len` words from `from` to `to`.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for them is refused.
#[inline(always)]
fn push_blocks(
    from: usize,
    len: usize,
    to: usize,
    blocks: &mut Vec<(u32, u32)>,
) -> Result<(), Error> {
    grow::reserve(blocks, len.div_ceil(8))?;
    for k in (0..len).step_by(8) {
        blocks.push(((from + k) as u32, (to + k) as u32));
    }
    Ok(())
}

/// Spare words at the end of the slices and of a gathered run, for
/// [`gather`]'s whole blocks of 8 words.
const SPARE: usize = 8;

/// Words of zeros at the end of each row of the slices: a block's worth.
const ZEROS: usize = 8;

/// The conflicts of every item with `vectors` vectors of the rows at
/// `base`: the OR of the rows of the item's bits in `reach` (bit `b`'s row
/// at `offset[b]` words from `base`), a group of eight vectors at a time,
/// and the rest in one group of their own.
///
/// # Safety
///
/// The CPU runs `W`'s instructions; for every bit `b` of `reach`,
/// `base + offset[b]` is followed by `vectors * W::WORDS` readable words.
#[inline(always)]
unsafe fn scan<W: PatternWords>(
    base: *const u64,
    vectors: usize,
    items: &[u64],
    reach: u64,
    offset: &[u32; 65],
) -> u64 {
    // SAFETY: the CPU runs `W`'s instructions (this function's contract); the
    // groups cover vectors `first..vectors` and no more, so each `scan_group`
    // reads only the words the caller vouches for after each bit's row.
    unsafe {
        let mut sum = W::zero();
        let mut first = 0;
        while vectors - first >= 8 {
            sum = scan_group::<W, 8>(base, first, items, reach, offset, sum);
            first += 8;
        }
        sum = match vectors - first {
            0 => sum,
            1 => scan_interleaved::<W, 1, 4>(base, first, items, reach, offset, sum),
            2 => scan_interleaved::<W, 2, 4>(base, first, items, reach, offset, sum),
            3 => scan_interleaved::<W, 3, 2>(base, first, items, reach, offset, sum),
            4 => scan_interleaved::<W, 4, 2>(base, first, items, reach, offset, sum),
            5 => scan_group::<W, 5>(base, first, items, reach, offset, sum),
            6 => scan_group::<W, 6>(base, first, items, reach, offset, sum),
            _ => scan_group::<W, 7>(base, first, items, reach, offset, sum),
        };
        W::total(sum)
    }
}

/// `sum` plus the conflicts of every item with vectors `first..first + G`.
///
/// # Safety
///
/// As for [`scan`], for those vectors.
#[inline(always)]
unsafe fn scan_group<W: PatternWords, const G: usize>(
    base: *const u64,
    first: usize,
    items: &[u64],
    reach: u64,
    offset: &[u32; 65],
    mut sum: W,
) -> W {
    // SAFETY: the caller's, and the CPU runs `W`'s instructions.
    unsafe {
        let base = base.add(first * W::WORDS);
        for &item in items {
            let mut hits = [W::zero(); G];
            let mut rest = item & reach;
            // Two bits a step, then the last if there is one.
            while rest & rest.wrapping_sub(1) != 0 {
                let one = base.add(*offset.get_unchecked(rest.trailing_zeros() as usize) as usize);
                rest &= rest - 1;
                let two = base.add(*offset.get_unchecked(rest.trailing_zeros() as usize) as usize);
                rest &= rest - 1;
                for (g, hit) in hits.iter_mut().enumerate() {
                    *hit = hit.or_load_two(one.add(g * W::WORDS), two.add(g * W::WORDS));
                }
            }
            if rest != 0 {
                let row = base.add(*offset.get_unchecked(rest.trailing_zeros() as usize) as usize);
                for (g, hit) in hits.iter_mut().enumerate() {
                    *hit = hit.or_load(row.add(g * W::WORDS));
                }
            }
            sum = W::add_counts(sum, hits);
        }
        sum
    }
}

/// [`scan_group`] with `I` items at a time, for small groups: their reads
/// interleaved, so that the chains of one item's bits overlap, and one
/// loop for the `I` of them, as long as the most bits any has (the others
/// read the row of zeros at `offset[64]` meanwhile): one loop exit, where
/// an item of its own would mispredict its own.
///
/// # Safety
///
/// As for [`scan`], for those vectors, and `offset[64]`'s row is zeros.
#[inline(always)]
unsafe fn scan_interleaved<W: PatternWords, const G: usize, const I: usize>(
    base: *const u64,
    first: usize,
    items: &[u64],
    reach: u64,
    offset: &[u32; 65],
    mut sum: W,
) -> W {
    // SAFETY: the caller's, and the CPU runs `W`'s instructions.
    unsafe {
        let base = base.add(first * W::WORDS);
        let mut chunks = items.chunks_exact(I);
        for chunk in &mut chunks {
            let mut rest = [0u64; I];
            let mut most = 0;
            for (rest, &item) in rest.iter_mut().zip(chunk) {
                *rest = item & reach;
                most = most.max(rest.count_ones());
            }
            let mut hits = [[W::zero(); G]; I];
            for _ in 0..most {
                for (rest, hits) in rest.iter_mut().zip(hits.iter_mut()) {
                    let row =
                        base.add(*offset.get_unchecked(rest.trailing_zeros() as usize) as usize);
                    *rest &= rest.wrapping_sub(1);
                    for (g, hit) in hits.iter_mut().enumerate() {
                        *hit = hit.or_load(row.add(g * W::WORDS));
                    }
                }
            }
            for hits in hits {
                sum = W::add_counts(sum, hits);
            }
        }
        scan_group::<W, G>(base, 0, chunks.remainder(), reach, offset, sum)
    }
}

/// A test mask's tag among `tags`: its low bits, read as a number.
#[cfg(test)]
fn test_tag(mask: u64, tags: usize) -> usize {
    (mask % tags as u64) as usize
}

/// `masks` filed by their top `cuts` bits, under their tag among `tags`
/// ([`test_tag`]), into `sorted`, as a [`Group`].
#[cfg(test)]
pub(crate) fn group(
    masks: &[u64],
    cuts: usize,
    tags: usize,
    sorted: &mut Vec<u64>,
) -> Group<'static> {
    let class = |m: u64| {
        let tag = test_tag(m, tags) << cuts;
        if cuts == 0 {
            tag
        } else {
            tag | (m >> (64 - cuts)) as usize
        }
    };
    sorted.clear();
    sorted.extend_from_slice(masks);
    sorted.sort_unstable_by_key(|&m| class(m));
    // Each class's size, then their running sums: one pass over the masks
    // (a pass per class was most of the join's unit tests' time, with
    // 3 << 14 classes).
    let mut starts = alloc::vec![0; (tags << cuts) + 1];
    for &m in sorted.iter() {
        starts[class(m) + 1] += 1;
    }
    for c in 0..tags << cuts {
        starts[c + 1] += starts[c];
    }
    // Tests only: leaked copies, so that the group outlives the buffer.
    Group {
        masks: Vec::leak(sorted.clone()),
        starts: Vec::leak(starts),
        cuts,
        tags,
    }
}

/// The oracle: every pair tested, one at a time, each weighed by the top
/// bits of the two masks and their tags among `tags` as `weighing` says
/// (see [`weight`]).
#[cfg(test)]
pub(crate) fn disjoint_pairs_one_by_one(
    items: &[u64],
    patterns: &[u64],
    tags: [usize; 2],
    weighing: &Weighing,
) -> u64 {
    let mut pairs = 0;
    for &item in items {
        for &pattern in patterns.iter().filter(|&&p| p & item == 0) {
            let on_diagonals = diagonal_weight(
                (item >> 62) as usize,
                (pattern >> 62) as usize,
                2,
                weighing.diagonals,
            );
            pairs += match on_diagonals {
                1 => weighing.tags[test_tag(item, tags[0])][test_tag(pattern, tags[1])],
                decided => decided as u8,
            } as u64;
        }
    }
    pairs
}

/// Random masks and the oracle, for every kernel's matcher:
/// `disjoint_pairs(items, patterns)` runs the kernel's.
#[cfg(test)]
pub(crate) fn check_against_the_oracle(
    mut disjoint_pairs: impl FnMut(Group<'_>, Group<'_>, &Weighing) -> u64,
) {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    // Sizes around the edges of words, vectors and groups of vectors.
    for (items, patterns) in [
        (0, 5),
        (3, 0),
        (1, 1),
        (7, 63),
        (9, 64),
        (5, 65),
        (40, 300),
        (7, 255),
        (9, 256),
        (7, 511),
        (9, 512),
        (5, 1025),
        (11, 2600),
        (13, 4100),
        (6, 7700),
        // Several items to a coarse class and runs of many vectors a
        // segment, where the cut bits take fine bits (`FINE_FROM`).
        (200, 2000),
    ] {
        let items: Vec<u64> = (0..items).map(|_| next() & next()).collect();
        let patterns: Vec<u64> = (0..patterns).map(|_| next() & next() & next()).collect();
        let weighings = [
            LongDiagonals::Unweighed,
            LongDiagonals::One,
            LongDiagonals::Both,
        ];
        // Without tags, and with sides of three and two tags whose pairs
        // weigh 0, 1 or 2 each (the band's rule tags one side, up to three).
        let tag_cases = [
            ([1, 1], [[1; MAX_TAGS]; MAX_TAGS]),
            ([3, 2], {
                let mut tags = [[0; MAX_TAGS]; MAX_TAGS];
                for (i, row) in tags.iter_mut().enumerate() {
                    for (p, weight) in row.iter_mut().enumerate() {
                        *weight = ((i * 7 + p * 5) % 3) as u8;
                    }
                }
                tags
            }),
        ];
        for (cuts, diagonals) in weighings
            .into_iter()
            .flat_map(|w| (w.bits()..=CUTS).map(move |cuts| (cuts, w)))
        {
            for (tags, table) in tag_cases {
                let weighing = Weighing {
                    diagonals,
                    tags: table,
                };
                assert_eq!(
                    disjoint_pairs(
                        group(&items, cuts, tags[0], &mut a),
                        group(&patterns, cuts, tags[1], &mut b),
                        &weighing
                    ),
                    disjoint_pairs_one_by_one(&items, &patterns, tags, &weighing),
                    "{} items, {} patterns, {cuts} cuts, {tags:?} tags, weighed: {weighing:?}",
                    items.len(),
                    patterns.len()
                );
            }
        }
    }
}
