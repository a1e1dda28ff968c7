//! davidad's machine: the three words of its xmm register, row by row, on
//! the `sse41` kernel's way to its first 8-queens solution.

use queens_simd::trace::davidad::{Path, Words, first_solution};

use crate::Picture;
use crate::svg::{Anchor, Svg, colour};

pub const PICTURES: &[Picture] = &[Picture {
    file: "davidad-register.svg",
    draw: register,
}];

const N: usize = 8;
/// Bits per word, drawn bit 15 at the left to bit 0 at the right, as a
/// register is written.
const BITS: i32 = 16;
const CELL: i32 = 12;
const WORD_HEIGHT: i32 = 15;
const PANEL: i32 = BITS * CELL;
const GAP: i32 = 44;
const LEFT: i32 = 112;
const TOP: i32 = 136;
const BLOCK: i32 = 3 * WORD_HEIGHT + 34;

/// One word's fill colour where a bit is set, and its name.
const WORDS: [(&str, &str); 3] = [
    (colour::BLUE, "w0 columns"),
    (colour::ORANGE, "w1 diagonals ↘"),
    (colour::PURPLE, "w2 diagonals ↙"),
];

fn panel_x(panel: i32) -> i32 {
    LEFT + panel * (PANEL + GAP)
}

/// Draws one 16-bit word: set bits filled and marked 1, bits past the
/// board's columns on grey, and the bits of `outlined` framed.
fn word(svg: &mut Svg, x: i32, y: i32, bits: u16, fill: &str, outlined: u16, mark: Option<u32>) {
    for bit in (0..BITS).rev() {
        let cx = x + (BITS - 1 - bit) * CELL;
        let set = bits >> bit & 1 != 0;
        let background = if bit as usize >= N {
            colour::LIGHT
        } else {
            colour::WHITE
        };
        svg.rect(
            cx,
            y,
            CELL,
            WORD_HEIGHT - 2,
            if set { fill } else { background },
            Some(colour::GREY),
        );
        if mark == Some(bit as u32) {
            svg.text(cx + CELL / 2, y + 11, 12, Anchor::Middle, "♛");
        } else if set {
            svg.styled_text(
                cx + CELL / 2,
                y + 10,
                10,
                Anchor::Middle,
                colour::WHITE,
                true,
                "1",
            );
        }
        if outlined >> bit & 1 != 0 {
            svg.frame(cx, y, CELL, WORD_HEIGHT - 2, colour::BLACK, 3);
        }
    }
}

fn three_words(svg: &mut Svg, x: i32, y: i32, words: Words, outlined: u16) {
    let values = [words.columns, words.down_right, words.down_left];
    for (i, (&value, (fill, _))) in values.iter().zip(WORDS).enumerate() {
        word(
            svg,
            x,
            y + i as i32 * WORD_HEIGHT,
            value,
            fill,
            outlined,
            None,
        );
    }
}

fn register() -> Result<String, queens_simd::Error> {
    let path: Path = first_solution(N)?;
    let rows = path.rows.len() as i32;
    let width = panel_x(4) - GAP + 20;
    let height = TOP + (rows - 1) * BLOCK + 64;
    let mut svg = Svg::new(
        width,
        height,
        "davidad's register, row by row, to the first 8-queens solution",
    );
    let columns: Vec<usize> = path.rows.iter().map(|r| r.column).collect();
    let solution = format!(
        "The sse41 kernel's first 8-queens solution, columns {columns:?}, reached after {} placed queens, dead ends included.",
        path.steps_before
    );
    svg.heading(
        "davidad's machine: one xmm register, three 16-bit words, row by row",
        &[
            &solution,
            "Bit 0 (column 0) is at the right, as a register is written.",
        ],
    );
    let headers = [
        ["por: the queen's bit into", "all three words (framed)"],
        [
            "psllw 1, psrlw 1, 2 × pblendw:",
            "w1 right, w2 left, w0 stays",
        ],
        ["psrldq 2, psrldq 4, 2 × por:", "w0 |= w1 | w2 (attacked)"],
        [
            "pandn with the board (bits 0-7):",
            "the next row's free squares",
        ],
    ];
    for (panel, [first, second]) in headers.iter().enumerate() {
        let x = panel_x(panel as i32);
        svg.bold(x, 80, 12, Anchor::Start, first);
        svg.bold(x, 95, 12, Anchor::Start, second);
        for bit in (0..BITS).rev() {
            let cx = x + (BITS - 1 - bit) * CELL + CELL / 2;
            svg.text(cx, TOP - 14, 8, Anchor::Middle, &bit.to_string());
        }
        if panel > 0 {
            let y = TOP + 30;
            svg.arrow((x - GAP + 8, y), (x - 8, y), colour::BLACK);
        }
    }
    svg.text(panel_x(0), TOP - 26, 10, Anchor::Start, "bit (= column)");
    for (i, row) in path.rows.iter().enumerate() {
        let y = TOP + i as i32 * BLOCK;
        let Some(step) = row.step else {
            // The last row: its queen completes the board, with no step.
            svg.bold(
                10,
                y + 2,
                13,
                Anchor::Start,
                &format!(
                    "row {i}: queen in column {}: the bit scan finds the row's free square, and the board is a solution",
                    row.column
                ),
            );
            break;
        };
        svg.bold(
            10,
            y + 2,
            13,
            Anchor::Start,
            &format!("row {i}: queen in column {}", row.column),
        );
        let y = y + 10;
        for (w, (_, name)) in WORDS.iter().enumerate() {
            svg.text(
                LEFT - 8,
                y + w as i32 * WORD_HEIGHT + 10,
                10,
                Anchor::End,
                name,
            );
        }
        let queen = 1u16 << row.column;
        three_words(&mut svg, panel_x(0), y, step.placed, queen);
        three_words(&mut svg, panel_x(1), y, step.moved, 0);
        word(
            &mut svg,
            panel_x(2),
            y,
            step.attacked,
            colour::VERMILLION,
            0,
            None,
        );
        svg.text(
            panel_x(2),
            y + 2 * WORD_HEIGHT + 8,
            10,
            Anchor::Start,
            "w0: attacked in the next row",
        );
        let next = path.rows[i + 1].column as u32;
        word(
            &mut svg,
            panel_x(3),
            y,
            step.free,
            colour::GREEN,
            0,
            Some(next),
        );
        svg.text(
            panel_x(3),
            y + 2 * WORD_HEIGHT + 8,
            10,
            Anchor::Start,
            &format!("free; the path's next queen: ♛ (column {next})"),
        );
    }
    let y = height - 22;
    svg.legend(
        10,
        y,
        &[
            (colour::BLUE, "column taken"),
            (colour::ORANGE, "diagonal ↘"),
            (colour::PURPLE, "diagonal ↙"),
            (colour::VERMILLION, "attacked"),
            (colour::GREEN, "free"),
            (colour::LIGHT, "past the board (bits 8-15)"),
        ],
    );
    Ok(svg.finish())
}
