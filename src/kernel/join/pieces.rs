//! The join cut into numbered pieces: what a plan ([`crate::plan`]) counts
//! on threads, in shards across machines and from checkpoints.
//!
//! A [`JoinPiece`] is a chunk of one split's row sets ([`Chunk`]): those whose
//! first choices of rows, from the outside in, are the chunk's. The pieces
//! of a board are every split's chunks of `Split::piece_len` choices, in a fixed
//! order; their counts add up to the board's. `run.rs` counts them, each
//! thread building the quarter-boards the row sets it joins read.

use alloc::vec::Vec;

use super::band::{self, Band};
use super::grow;
use super::split::{Chunk, Split, all_rows, outside_in_order};
use crate::Error;

/// The first word of a join plan's fingerprint: its method ("JOIN") and
/// the version of its split, which changes whenever the pieces or the way
/// they are dealt to shards do, or what a piece counts (version 2: in
/// runs, `Plan::shard`; version 3: the bands of N = 24 and 25 up; version
/// 4, [`BAND_RULE_VERSION`]), so that shards and checkpoints of other
/// pieces are refused. No symmetric plan's fingerprint starts with it
/// (theirs start with the symmetric split's version, a small number).
pub(crate) const SPLIT_VERSION: u64 = 0x4a4f_494e_0000_0003;

/// Version 4, for the boards whose splits have a band of two (even N from
/// 24): the band's rule (`transpose::MiddleRows`) weighs their solutions
/// otherwise piece by piece, though not in all. The pieces of every other
/// board count what they did, and keep version 3 and their records.
pub(crate) const BAND_RULE_VERSION: u64 = 0x4a4f_494e_0000_0004;

/// The version of the join plan of an `n`x`n` board (see
/// [`SPLIT_VERSION`]).
pub(crate) fn split_version(n: usize) -> u64 {
    if n.is_multiple_of(2) && band::Band::width(n) == 2 {
        BAND_RULE_VERSION
    } else {
        SPLIT_VERSION
    }
}

/// One piece of a join count: a chunk of one split's row sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JoinPiece {
    /// Which split: its band's place in [`band::bands`].
    pub(crate) split: usize,
    /// That split's band, the queens it places first.
    pub(crate) band: Band,
    pub(crate) chunk: Chunk,
}

impl JoinPiece {
    /// Its split, built.
    pub(crate) fn split(&self, n: usize) -> Split {
        Split::new(n, self.band)
    }

    /// The rows the piece's choices give the west half and those they give
    /// the east half, as board row sets (the split's rows from the outside
    /// in, found without building it).
    pub(crate) fn rows(&self, n: usize) -> (u32, u32) {
        let free_rows = all_rows(n) & !self.band.row_set();
        let (order, _) = outside_in_order(n, free_rows);
        self.decided(|at| usize::from(order[at]))
    }

    /// Its split, then its choices read first to last: pieces in this order
    /// share their first choices with their neighbours.
    pub(crate) fn choice_order(&self) -> (usize, u32) {
        let len = self.chunk.len as u32;
        let first_to_last = if len == 0 {
            0
        } else {
            self.chunk.pattern.reverse_bits() >> (32 - len)
        };
        (self.split, first_to_last)
    }

    /// Feeds what names the piece (its split and its choices) to a plan's
    /// fingerprint.
    pub(crate) fn fingerprint(&self, eat: &mut dyn FnMut(u64)) {
        eat(self.split as u64);
        eat(self.band.key());
        eat(u64::from(self.chunk.pattern));
        eat(self.chunk.len as u64);
    }

    /// How many row sets it has: those its chunk lists
    /// ([`Chunk::row_sets`]), numbered in that order by a count's parts.
    pub(crate) fn row_sets(&self, n: usize) -> u32 {
        let mut count = 0;
        self.chunk
            .for_each_row_set(&self.split(n), |_, _| count += 1);
        count
    }

    /// [`JoinPiece::rows`] in `split`, the piece's.
    pub(crate) fn rows_in(&self, split: &Split) -> (u32, u32) {
        self.decided(|at| split.row_at(at))
    }

    /// The west and east rows of its choices, the `at`-th choice's row
    /// being `row_at(at)`.
    fn decided(&self, row_at: impl Fn(usize) -> usize) -> (u32, u32) {
        let (mut west, mut east) = (0, 0);
        for at in 0..self.chunk.len {
            let row = 1 << row_at(at);
            if self.chunk.pattern >> at & 1 != 0 {
                west |= row;
            } else {
                east |= row;
            }
        }
        (west, east)
    }
}

/// Every piece of an `n`x`n` board (`n` up to 32), split by split (none
/// of a split that counts nothing), and each split's pieces with their
/// split built, to `visit`.
fn for_each_split(n: usize, mut visit: impl FnMut(&Split, &[JoinPiece])) {
    let bands = band::bands(n);
    let splits = bands.len();
    let mut pieces = Vec::new();
    for (index, band) in bands.into_iter().enumerate() {
        let split = Split::new(n, band);
        if split.is_empty() {
            continue;
        }
        pieces.clear();
        pieces.extend(
            Chunk::all(&split, split.piece_len(splits))
                .into_iter()
                .map(|chunk| JoinPiece {
                    split: index,
                    band,
                    chunk,
                }),
        );
        visit(&split, &pieces);
    }
}

/// Every piece of an `n`x`n` board (`n` up to 32), split by split (none
/// of a split that counts nothing).
#[cfg(test)]
pub(crate) fn pieces(n: usize) -> Vec<JoinPiece> {
    let mut all = Vec::new();
    for_each_split(n, |_, pieces| all.extend_from_slice(pieces));
    all
}

/// Calls `visit` with every piece of an `n`x`n` board (`n` up to 32) and
/// its estimate ([`estimate_in`]): a join plan's pieces, in their fixed
/// order.
pub(crate) fn for_each_estimated(n: usize, mut visit: impl FnMut(JoinPiece, u64)) {
    for_each_split(n, |split, pieces| {
        for piece in pieces {
            visit(*piece, estimate_in(split, piece));
        }
    });
}

/// How many pieces [`for_each_estimated`] visits, found without keeping
/// them: what a plan will hold, before it is built.
pub(crate) fn how_many(n: usize) -> usize {
    let mut count = 0;
    for_each_split(n, |_, pieces| count += pieces.len());
    count
}

/// A rough measure of a piece's work, cheap to compute: the join of a row
/// set with `j` of the west's `w` rows north of the line costs about
/// `C(w, j)^1.5` (measured at N = 16 and 18: within a factor of two for
/// most row sets, and right in its ordering), summed over the piece's row
/// sets, counted by their rows north and south without building them.
#[cfg(test)]
pub(crate) fn estimate(n: usize, piece: &JoinPiece) -> u64 {
    estimate_in(&piece.split(n), piece)
}

/// [`estimate`] in `split`, the piece's: over [`ways_north`], how many
/// row sets times `C(w, j)^1.5`.
pub(crate) fn estimate_in(split: &Split, piece: &JoinPiece) -> u64 {
    ways_north(split, piece).iter().fold(0u64, |total, way| {
        let cost = way.cost.saturating_mul(way.cost.isqrt());
        total.saturating_add(way.sets.saturating_mul(cost))
    })
}

/// Row sets of a piece that take `more_north` of its undecided rows north
/// of the line ([`ways_north`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WayNorth {
    /// How many of the undecided rows they take north of the line.
    pub(crate) more_north: usize,
    /// How many row sets do.
    pub(crate) sets: u64,
    /// `C(w, j)` of each, `j` the west's rows north of the line: how many
    /// ways its north queens can take their columns.
    pub(crate) cost: u64,
}

/// The piece's row sets by how many of its undecided rows they take north
/// of the line.
pub(crate) fn ways_north(split: &Split, piece: &JoinPiece) -> Vec<WayNorth> {
    let north = |rows: u32| (rows & ((1u32 << split.line) - 1)).count_ones() as usize;
    let (west, east) = piece.rows_in(split);
    let undecided = split.free_rows & !(west | east);
    let (open_north, open_south) = (
        north(undecided),
        undecided.count_ones() as usize - north(undecided),
    );
    let (taken, taken_north) = (west.count_ones() as usize, north(west));
    let Some(left) = split.west.checked_sub(taken) else {
        return Vec::new();
    };
    (0..=left.min(open_north))
        .filter(|&more_north| left - more_north <= open_south)
        .map(|more_north| WayNorth {
            more_north,
            sets: binomial(open_north, more_north)
                .saturating_mul(binomial(open_south, left - more_north)),
            cost: binomial(split.west, taken_north + more_north),
        })
        .collect()
}

/// `C(n, k)`, saturating.
pub(super) fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut value = 1u64;
    for i in 0..k.min(n - k) {
        value = value.saturating_mul((n - i) as u64) / (i as u64 + 1);
    }
    value
}

/// `pieces`, those whose first `depth` choices (and split) agree taken
/// together, in the order of the first of each group, the rest after it in
/// the order given: a thread that counts them in turn keeps its tables.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the list is refused (the
/// pieces, their places and their groups' ranks: 56 bytes a piece).
pub(super) fn grouped(
    pieces: &[(usize, JoinPiece)],
    depth: usize,
) -> Result<Vec<(usize, JoinPiece)>, Error> {
    let key = |at: u64| {
        let piece = &pieces[at as usize].1;
        (piece.split, piece.chunk.first(depth))
    };
    // The pieces' places in `pieces`, sorted by group, then by place: the
    // first of a group ranks it. Then by rank, then by place. No map, and
    // sorts that allocate nothing: only the lists are asked for, fallibly.
    let mut places = grow::zeroed::<u64>(pieces.len())?;
    let in_order = |places: &mut [u64]| {
        for (at, place) in places.iter_mut().enumerate() {
            *place = at as u64;
        }
    };
    in_order(&mut places);
    places.sort_unstable_by_key(|&at| (key(at), at));
    let mut rank = grow::zeroed::<u64>(pieces.len())?;
    let mut first = 0;
    for (i, &at) in places.iter().enumerate() {
        if key(at) != key(places[first]) {
            first = i;
        }
        rank[at as usize] = places[first];
    }
    in_order(&mut places);
    places.sort_unstable_by_key(|&at| (rank[at as usize], at));
    let mut sorted = grow::copied(pieces)?;
    for (slot, &at) in sorted.iter_mut().zip(&places) {
        *slot = pieces[at as usize];
    }
    Ok(sorted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::split::Side;

    /// The plans the band's rule weighs otherwise (even N with a band of
    /// two, 24 and up) are version 4; every other keeps version 3, and
    /// with it its records.
    #[test]
    fn only_the_boards_of_the_bands_rule_change_version() {
        for n in 0..=crate::MAX_N {
            let want = if n % 2 == 0 && n >= band::EVEN_BANDS_FROM {
                BAND_RULE_VERSION
            } else {
                SPLIT_VERSION
            };
            assert_eq!(split_version(n), want, "n = {n}");
        }
    }

    #[test]
    fn every_piece_has_an_estimate_and_the_rows_it_decides() {
        for n in [12, 13, 16] {
            for piece in pieces(n) {
                assert!(estimate(n, &piece) > 0, "n = {n}, {piece:?}");
                let (west, east) = piece.rows(n);
                assert_eq!(west & east, 0);
                assert_eq!((west | east).count_ones() as usize, piece.chunk.len);
                let split = piece.split(n);
                assert_eq!(split.side_rows(Side::West, west), west);
                assert_eq!(piece.rows_in(&split), (west, east));
            }
        }
    }
}
