//! Property tests: the symmetry group laws and the bitboard round trips, on
//! random placements (any permutation, solution or not).

use proptest::prelude::*;
use queens_simd::Board;
use queens_simd::symmetry::{Symmetry, canonical, canonical_orbit_size, is_canonical, orbit_size};

/// A random permutation of `0..n` for `n` in `sizes`.
fn board(sizes: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Board> {
    sizes
        .prop_flat_map(|n| Just((0..n as u8).collect::<Vec<u8>>()).prop_shuffle())
        .prop_map(|columns| Board::from_columns(&columns).unwrap())
}

fn symmetry() -> impl Strategy<Value = Symmetry> {
    prop::sample::select(Symmetry::ALL.to_vec())
}

/// The composition `first` then `second`, found among the eight by its
/// action on squares of a board whose squares are all distinguishable.
fn compose(n: usize, first: Symmetry, second: Symmetry) -> Option<Symmetry> {
    Symmetry::ALL.into_iter().find(|&s| {
        (0..n).all(|r| {
            (0..n).all(|c| {
                let (r1, c1) = first.map_square(n, r, c).unwrap();
                second.map_square(n, r1, c1) == s.map_square(n, r, c)
            })
        })
    })
}

proptest! {
    #[test]
    fn apply_moves_every_queen_as_map_square_says(b in board(0..=32), s in symmetry()) {
        let image = s.apply(&b);
        for (row, &col) in b.columns().iter().enumerate() {
            let (r, c) = s.map_square(b.n(), row, usize::from(col)).unwrap();
            prop_assert_eq!(usize::from(image.columns()[r]), c);
        }
    }

    #[test]
    fn identity_changes_nothing(b in board(0..=32)) {
        prop_assert_eq!(Symmetry::Identity.apply(&b), b);
    }

    #[test]
    fn inverse_undoes(b in board(0..=32), s in symmetry()) {
        prop_assert_eq!(s.inverse().apply(&s.apply(&b)), b);
    }

    #[test]
    fn the_eight_are_closed_under_composition(b in board(2..=32), s in symmetry(), t in symmetry()) {
        let st = compose(b.n(), s, t);
        prop_assert!(st.is_some());
        prop_assert_eq!(t.apply(&s.apply(&b)), st.unwrap().apply(&b));
    }

    #[test]
    fn composition_is_associative(b in board(0..=32), s in symmetry(), t in symmetry(), u in symmetry()) {
        // (u . t) . s == u . (t . s), as symmetries of the square.
        let n = b.n().max(2);
        let left = compose(n, s, t).and_then(|ts| compose(n, ts, u));
        let right = compose(n, t, u).and_then(|ut| compose(n, s, ut));
        prop_assert_eq!(left, right);
    }

    #[test]
    fn rotations_generate_order_four(b in board(0..=32)) {
        let r = Symmetry::Rotate90;
        prop_assert_eq!(r.apply(&r.apply(&r.apply(&r.apply(&b)))), b);
        prop_assert_eq!(r.apply(&r.apply(&b)), Symmetry::Rotate180.apply(&b));
    }

    #[test]
    fn images_of_solutions_are_solutions(b in board(0..=12), s in symmetry()) {
        prop_assert_eq!(s.apply(&b).is_solution(), b.is_solution());
    }

    #[test]
    fn canonical_is_the_same_for_the_whole_orbit(b in board(0..=32), s in symmetry()) {
        let c = canonical(&b);
        prop_assert_eq!(canonical(&s.apply(&b)), c);
        prop_assert!(c <= b);
        prop_assert!(is_canonical(&c));
        prop_assert_eq!(is_canonical(&b), c == b);
        prop_assert!([1, 2, 4, 8].contains(&orbit_size(&b)));
        prop_assert_eq!(canonical_orbit_size(&b), is_canonical(&b).then(|| orbit_size(&b)));
    }

    #[test]
    fn bitboard_round_trips(b in board(0..=8)) {
        let bits = b.to_bitboard().unwrap();
        prop_assert_eq!(bits.count_ones() as usize, b.n());
        prop_assert_eq!(Board::from_bitboard(b.n(), bits).unwrap(), b);
    }

    #[test]
    fn bitboards_that_are_not_one_queen_per_row_and_column_are_refused(n in 1usize..=8, bits in any::<u64>()) {
        match Board::from_bitboard(n, bits) {
            Ok(b) => prop_assert_eq!(b.to_bitboard().unwrap(), bits),
            Err(_) => {
                let rows_ok = (0..8).all(|r| {
                    let line = (bits >> (8 * r)) & 0xff;
                    if r < n { line.count_ones() == 1 && line < (1 << n) } else { line == 0 }
                });
                let cols = (0..n).fold(0u64, |acc, r| acc | ((bits >> (8 * r)) & 0xff));
                prop_assert!(!rows_ok || cols.count_ones() as usize != n);
            }
        }
    }

    #[test]
    fn bitboards_are_refused_above_8(b in board(9..=32)) {
        prop_assert!(b.to_bitboard().is_err());
    }
}
