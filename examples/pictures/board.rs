//! Boards as the pictures draw them: a grid of squares, row 0 at the top,
//! column 0 at the left, each square filled and marked by the caller.

use crate::svg::{Anchor, Svg, colour};

/// What a square of a drawn board shows: its fill, and a mark written in it
/// (so that its meaning does not rest on the colour alone).
#[derive(Clone, Copy)]
pub struct Square {
    pub fill: &'static str,
    pub mark: &'static str,
}

/// An empty square.
pub const EMPTY: Square = Square {
    fill: colour::WHITE,
    mark: "",
};

/// A queen.
pub const QUEEN: Square = Square {
    fill: colour::WHITE,
    mark: "♛",
};

/// Draws an `n`x`n` board with squares `size` pixels wide from (`x`, `y`),
/// `square(row, column)` telling what each one shows.
pub fn draw(
    svg: &mut Svg,
    x: i32,
    y: i32,
    n: usize,
    size: i32,
    square: impl Fn(usize, usize) -> Square,
) {
    for row in 0..n {
        for column in 0..n {
            let (sx, sy) = (x + column as i32 * size, y + row as i32 * size);
            let Square { fill, mark } = square(row, column);
            svg.rect(sx, sy, size, size, fill, Some(colour::GREY));
            if !mark.is_empty() {
                svg.text(
                    sx + size / 2,
                    sy + size * 3 / 4,
                    size * 3 / 4,
                    Anchor::Middle,
                    mark,
                );
            }
        }
    }
    svg.frame(x, y, n as i32 * size, n as i32 * size, colour::BLACK, 1);
}
