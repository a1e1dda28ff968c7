//! The join kernels on the 8-queens board: the cut into quarters and
//! halves, one row set's half-boards and their pairs, and the bit-sliced
//! match of one item against a run of patterns, all read from the `join`
//! kernel's count (`queens_simd::trace::join`).

use queens_simd::trace::join::{
    Cut, Diagonal, Half, HalfBoard, RowSet, Run, Side, TracedJoin, join,
};

use crate::Picture;
use crate::board::{self, EMPTY, QUEEN, Square};
use crate::svg::{Anchor, Svg, colour};

pub const PICTURES: &[Picture] = &[
    Picture {
        file: "join-quarters.svg",
        draw: quarters,
    },
    Picture {
        file: "join-halves.svg",
        draw: halves,
    },
    Picture {
        file: "join-matcher.svg",
        draw: matcher,
    },
];

const N: usize = 8;
/// The west half's rows of the pictures' row set: 1, 2, 5 and 6.
const ROWS: u32 = 0b0110_0110;

/// The fill and name of each quarter's queens: north-west, south-west,
/// north-east, south-east.
const QUARTERS: [(Side, Half, &str, &str); 4] = [
    (Side::West, Half::North, colour::SKY, "NW"),
    (Side::West, Half::South, colour::YELLOW, "SW"),
    (Side::East, Half::North, colour::ORANGE, "NE"),
    (Side::East, Half::South, colour::PURPLE, "SE"),
];

fn traced() -> Result<(TracedJoin, usize), queens_simd::Error> {
    let join = join(N)?;
    let at = join.cuts[0]
        .row_sets
        .iter()
        .position(|set| set.rows == ROWS)
        .expect("the row set is one the kernel joins");
    Ok((join, at))
}

/// A diagonal as the pictures name it: ↘ for row − column, ↙ for row +
/// column.
fn name(diagonal: Diagonal) -> String {
    match diagonal {
        Diagonal::Falling(d) => format!("↘{d}"),
        Diagonal::Rising(d) => format!("↙{d}"),
    }
}

/// The queens of a half-board of `side`, with the quarter each is from.
fn queens(cut: &Cut, side: Side, half: &HalfBoard) -> Vec<(usize, usize, usize)> {
    let first = if side == Side::West { 0 } else { 2 };
    let north = &cut.quarter(side, Half::North).boards[half.north];
    let south = &cut.quarter(side, Half::South).boards[half.south];
    let mut out: Vec<(usize, usize, usize)> =
        north.queens.iter().map(|&(r, c)| (r, c, first)).collect();
    out.extend(south.queens.iter().map(|&(r, c)| (r, c, first + 1)));
    out
}

/// Draws a strip of `bits` (a cell per listed bit, left to right), set
/// bits filled and marked 1; returns its width.
fn strip(svg: &mut Svg, x: i32, y: i32, cell: i32, listed: &[u32], bits: u64, fill: &str) -> i32 {
    for (i, &bit) in listed.iter().enumerate() {
        let cx = x + i as i32 * cell;
        let set = bits >> bit & 1 != 0;
        svg.rect(
            cx,
            y,
            cell,
            cell,
            if set { fill } else { colour::WHITE },
            Some(colour::GREY),
        );
        let mark = if set { "1" } else { "0" };
        let ink = if set { colour::BLACK } else { colour::GREY };
        svg.styled_text(
            cx + cell / 2,
            y + cell * 3 / 4,
            cell * 3 / 5,
            Anchor::Middle,
            ink,
            set,
            mark,
        );
    }
    listed.len() as i32 * cell
}

/// Bit numbers and diagonal names above a strip.
fn strip_header(svg: &mut Svg, x: i32, y: i32, cell: i32, bits: &[(u32, Diagonal)]) {
    for (i, &(bit, diagonal)) in bits.iter().enumerate() {
        let cx = x + i as i32 * cell + cell / 2;
        svg.text(cx, y - 16, 10, Anchor::Middle, &bit.to_string());
        svg.text(cx, y - 4, 10, Anchor::Middle, &name(diagonal));
    }
}

/// The first west and east half-boards of the row set that make a
/// solution.
fn solution(set: &RowSet) -> (usize, usize) {
    for (w, west) in set.west.iter().enumerate() {
        for (e, east) in set.east.iter().enumerate() {
            if west.mask & east.mask == 0 {
                return (w, e);
            }
        }
    }
    unreachable!("the row set has solutions")
}

fn quarters() -> Result<String, queens_simd::Error> {
    let (join, at) = traced()?;
    let cut = &join.cuts[0];
    let set = &cut.row_sets[at];
    let (w, e) = solution(set);
    let mut all = queens(cut, Side::West, &set.west[w]);
    all.extend(queens(cut, Side::East, &set.east[e]));
    let (width, height) = (1000, 560);
    let mut svg = Svg::new(
        width,
        height,
        "The 8-queens board cut into quarters and halves, and one solution joined from four quarter-boards",
    );
    svg.heading(
        "The join's cut of the 8x8 board: two halves, four quarters",
        &[
            "One of the 92 solutions, as the join kernel finds it: four quarter-boards (from its lists), paired into a west and an east half-board.",
        ],
    );
    // The board, its quarters' queens filled by quarter.
    let (bx, by, size) = (40, 110, 40);
    board::draw(&mut svg, bx, by, N, size, |row, column| {
        match all.iter().find(|&&(r, c, _)| r == row && c == column) {
            Some(&(_, _, q)) => Square {
                fill: QUARTERS[q].2,
                ..QUEEN
            },
            None => EMPTY,
        }
    });
    let side = N as i32 * size;
    // The cut between the halves and the line across the rows.
    let cx = bx + cut.west as i32 * size;
    let ly = by + cut.line as i32 * size;
    svg.line((cx, by - 24), (cx, by + side + 8), colour::BLACK, 4);
    svg.line((bx - 8, ly), (bx + side + 24, ly), colour::BLACK, 4);
    svg.text(cx, by - 30, 12, Anchor::Middle, "cut: west | east");
    svg.text(bx + side + 26, ly + 4, 12, Anchor::Start, "line");
    for (i, &(_, _, _, label)) in QUARTERS.iter().enumerate() {
        let qx = bx + if i < 2 { 0 } else { side / 2 };
        let qy = by + if i % 2 == 0 { 0 } else { side / 2 };
        svg.styled_text(
            qx + 4,
            qy + 13,
            11,
            Anchor::Start,
            colour::BLACK,
            true,
            label,
        );
    }
    for row in 0..N {
        svg.text(
            bx - 8,
            by + row as i32 * size + 25,
            11,
            Anchor::End,
            &row.to_string(),
        );
        svg.text(
            bx + row as i32 * size + size / 2,
            by + side + 20,
            11,
            Anchor::Middle,
            &row.to_string(),
        );
    }
    svg.text(bx - 8, by - 8, 11, Anchor::End, "row");
    svg.text(bx + side / 2, by + side + 36, 11, Anchor::Middle, "column");
    let counts: Vec<String> = QUARTERS
        .iter()
        .map(|&(s, h, _, label)| format!("{label} {}", cut.quarter(s, h).boards.len()))
        .collect();
    svg.text(
        bx - 30,
        by + side + 60,
        12,
        Anchor::Start,
        "Quarter-boards the kernel keeps per quarter",
    );
    svg.text(
        bx - 30,
        by + side + 76,
        12,
        Anchor::Start,
        &format!("(any number of queens): {}.", counts.join(", ")),
    );
    // The bits: each half's two quarter-boards, their inner and crossing
    // bits, AND and OR.
    let cell = 20;
    let (ix, xx) = (500, 660);
    let crossing: Vec<u32> = cut.crossing_bits.iter().map(|&(bit, _)| bit).collect();
    svg.bold(ix, 80, 12, Anchor::Start, "inner bits");
    svg.bold(xx, 80, 12, Anchor::Start, "crossing bits (the mask's)");
    let mut y = 122;
    let mut masks = Vec::new();
    for (s, (side, half_board)) in [(Side::West, &set.west[w]), (Side::East, &set.east[e])]
        .into_iter()
        .enumerate()
    {
        let inner: Vec<u32> = cut.inner_bits[s].iter().map(|&(bit, _)| bit).collect();
        let name_side = if side == Side::West { "west" } else { "east" };
        svg.bold(
            ix - 80,
            y + 2,
            13,
            Anchor::Start,
            &format!("{name_side} half"),
        );
        strip_header(&mut svg, ix, y + 22, 24, &cut.inner_bits[s]);
        strip_header(&mut svg, xx, y + 22, cell, &cut.crossing_bits);
        y += 24;
        let mut inner_and = u32::MAX;
        for (q, index) in [(2 * s, half_board.north), (2 * s + 1, half_board.south)] {
            let (qs, qh, fill, label) = QUARTERS[q];
            let quarter = cut.quarter(qs, qh);
            let board = &quarter.boards[index];
            svg.text(ix - 8, y + 9, 11, Anchor::End, &format!("{label} #{index}"));
            strip(&mut svg, ix, y, 24, &inner, u64::from(board.inner), fill);
            strip(&mut svg, xx, y, cell, &crossing, board.crossing, fill);
            inner_and &= board.inner;
            y += cell + 2;
        }
        svg.text(
            ix,
            y + 15,
            12,
            Anchor::Start,
            &format!("AND = {inner_and}: a pair"),
        );
        svg.text(xx - 6, y + 15, 12, Anchor::End, "OR");
        strip(
            &mut svg,
            xx,
            y,
            cell,
            &crossing,
            half_board.mask,
            colour::BLUE,
        );
        svg.text(
            xx + crossing.len() as i32 * cell + 6,
            y + 15,
            12,
            Anchor::Start,
            name_side,
        );
        masks.push(half_board.mask);
        y += cell + 34;
    }
    svg.text(xx - 6, y - 4, 12, Anchor::End, "AND");
    strip(
        &mut svg,
        xx,
        y - 20,
        cell,
        &crossing,
        masks[0] & masks[1],
        colour::VERMILLION,
    );
    svg.text(
        ix - 80,
        y + 22,
        12,
        Anchor::Start,
        "West AND east = 0: no crossing bit in common, so no west queen shares a",
    );
    svg.text(
        ix - 80,
        y + 38,
        12,
        Anchor::Start,
        "diagonal with an east queen, and the two half-boards make a solution.",
    );
    let notes = [
        format!(
            "Inner bit: a diagonal that crosses the line inside the half ({} per half).",
            cut.inner_bits[0].len()
        ),
        format!(
            "Crossing bit: one that crosses the cut ({} here; 60-63 are the sieve's cut bits).",
            cut.crossing_bits.len()
        ),
        "↘d: the squares with row − column = d; ↙d: row + column = d.".to_string(),
    ];
    svg.lines(ix - 80, y + 66, 12, &notes.each_ref().map(String::as_str));
    svg.legend(
        10,
        height - 14,
        &[
            (colour::SKY, "NW queen / bit"),
            (colour::YELLOW, "SW"),
            (colour::ORANGE, "NE"),
            (colour::PURPLE, "SE"),
            (colour::BLUE, "half-board mask (OR)"),
            (colour::VERMILLION, "common bit"),
        ],
    );
    Ok(svg.finish())
}

fn halves() -> Result<String, queens_simd::Error> {
    let (join, at) = traced()?;
    let cut = &join.cuts[0];
    let set = &cut.row_sets[at];
    let crossing: Vec<u32> = cut.crossing_bits.iter().map(|&(bit, _)| bit).collect();
    let (mini, bit) = (9, 12);
    let strip_len = crossing.len() as i32 * bit;
    let (left, top) = (260, 110 + 8 * mini + 8 + strip_len + 64);
    let (col_w, row_h) = (64, 8 * mini + 12);
    let width = left + set.east.len() as i32 * col_w + 20;
    let height = top + set.west.len() as i32 * row_h + 140;
    let width = width.max(820);
    let mut svg = Svg::new(
        width,
        height,
        "The west and east half-boards of one row set, their masks, and which pairs share no bit",
    );
    let rows: Vec<usize> = (0..N).filter(|&r| ROWS >> r & 1 != 0).collect();
    let sides = format!(
        "The join's {} west and {} east half-boards, each a pair of quarter-boards, each written as its mask of crossing bits.",
        set.west.len(),
        set.east.len()
    );
    svg.heading(
        &format!("One row set: the west half's queens in rows {rows:?}"),
        &[
            &sides,
            "A west and an east half-board make a solution exactly when their masks share no bit (✓).",
        ],
    );
    let quarter_fill = |q: usize| QUARTERS[q].2;
    let half_board = |svg: &mut Svg, x: i32, y: i32, side: Side, half: &HalfBoard| {
        let placed = queens(cut, side, half);
        let (first, _) = cut.columns(side, N);
        for row in 0..N {
            for c in 0..N / 2 {
                let (sx, sy) = (x + c as i32 * mini, y + row as i32 * mini);
                let queen = placed
                    .iter()
                    .find(|&&(r, col, _)| r == row && col == first + c);
                let fill = queen.map_or(colour::WHITE, |&(_, _, q)| quarter_fill(q));
                svg.rect(sx, sy, mini, mini, fill, Some(colour::GREY));
                if queen.is_some() {
                    svg.text(sx + mini / 2, sy + mini - 1, mini, Anchor::Middle, "♛");
                }
            }
        }
        svg.frame(x, y, 4 * mini, N as i32 * mini, colour::BLACK, 1);
        svg.line(
            (x - 2, y + cut.line as i32 * mini),
            (x + 4 * mini + 2, y + cut.line as i32 * mini),
            colour::BLACK,
            2,
        );
    };
    // East half-boards along the top, each with its mask running down.
    let strip_top = 110 + 8 * mini + 8;
    svg.bold(
        left,
        84,
        13,
        Anchor::Start,
        "east half-boards (columns 4-7), their masks below",
    );
    for (i, &(bit_no, diagonal)) in cut.crossing_bits.iter().enumerate() {
        let y = strip_top + i as i32 * bit + bit - 2;
        svg.text(
            left - 10,
            y,
            10,
            Anchor::End,
            &format!("bit {bit_no} {}", name(diagonal)),
        );
    }
    for (e, half) in set.east.iter().enumerate() {
        let x = left + e as i32 * col_w + (col_w - 4 * mini) / 2;
        svg.text(x + 2 * mini, 104, 11, Anchor::Middle, &format!("E{e}"));
        half_board(&mut svg, x, 110, Side::East, half);
        let sx = left + e as i32 * col_w + (col_w - bit) / 2;
        for (i, &b) in crossing.iter().enumerate() {
            strip(
                &mut svg,
                sx,
                strip_top + i as i32 * bit,
                bit,
                &[b],
                half.mask,
                colour::ORANGE,
            );
        }
    }
    // West half-boards down the left, each with its mask across.
    svg.bold(
        10,
        top - 44,
        13,
        Anchor::Start,
        "west half-boards (columns 0-3), masks across",
    );
    let wx = 10 + 4 * mini + 12;
    for (w, half) in set.west.iter().enumerate() {
        let y = top + w as i32 * row_h;
        svg.text(10, y + 4 * mini + 4, 11, Anchor::Start, &format!("W{w}"));
        half_board(&mut svg, 30, y + 4, Side::West, half);
        strip(
            &mut svg,
            wx + 30 - 10,
            y + 4 * mini - bit / 2,
            bit,
            &crossing,
            half.mask,
            colour::SKY,
        );
    }
    let pattern_x = wx + 20;
    for (i, &b) in crossing.iter().enumerate() {
        if i % 2 == 0 {
            svg.text(
                pattern_x + i as i32 * bit + bit / 2,
                top - 20,
                9,
                Anchor::Middle,
                &b.to_string(),
            );
        } else {
            svg.text(
                pattern_x + i as i32 * bit + bit / 2,
                top - 8,
                9,
                Anchor::Middle,
                &b.to_string(),
            );
        }
    }
    // The pairs.
    let mut counted = 0;
    let (top_w, top_e) = (
        cut.crossing_bits[cut.crossing_bits.len() - 1].0,
        cut.crossing_bits[cut.crossing_bits.len() - 2].0,
    );
    for (w, west) in set.west.iter().enumerate() {
        for (e, east) in set.east.iter().enumerate() {
            let (x, y) = (left + e as i32 * col_w + 4, top + w as i32 * row_h + 4);
            let shared = west.mask & east.mask;
            if shared == 0 {
                let weight = pair_weight(west.mask, east.mask, top_w, top_e);
                counted += weight;
                svg.rect(
                    x,
                    y,
                    col_w - 8,
                    row_h - 8,
                    colour::GREEN,
                    Some(colour::BLACK),
                );
                svg.styled_text(
                    x + col_w / 2 - 4,
                    y + 30,
                    20,
                    Anchor::Middle,
                    colour::WHITE,
                    true,
                    "✓",
                );
                svg.styled_text(
                    x + col_w / 2 - 4,
                    y + 54,
                    12,
                    Anchor::Middle,
                    colour::WHITE,
                    true,
                    &format!("× {weight}"),
                );
            } else {
                svg.rect(
                    x,
                    y,
                    col_w - 8,
                    row_h - 8,
                    colour::LIGHT,
                    Some(colour::GREY),
                );
                let first = cut
                    .crossing_bits
                    .iter()
                    .find(|&&(b, _)| shared >> b & 1 != 0)
                    .map(|&(_, d)| name(d));
                svg.text(x + col_w / 2 - 4, y + 30, 12, Anchor::Middle, "✗");
                svg.text(
                    x + col_w / 2 - 4,
                    y + 48,
                    10,
                    Anchor::Middle,
                    &first.unwrap_or_default(),
                );
            }
        }
    }
    assert_eq!(counted, set.pairs, "the picture's pairs are the matcher's");
    let y = top + set.west.len() as i32 * row_h + 14;
    let lines = [
        format!(
            "✓ × w: no common bit, a solution, weighed by the long diagonals (bits {top_w} ↘0, {top_e} ↙7):"
        ),
        "× 2 if one half holds the queens of both, × 0 if each half holds one (the transpose stands".to_string(),
        "for those), else × 1. ✗ d: the masks share a bit, the first shown: a common diagonal.".to_string(),
        format!(
            "The matcher counts {} pairs; the row set stands for {} (itself and its images), so it",
            set.pairs, set.images
        ),
        format!(
            "adds {} × {} = {} of the board's {} solutions.",
            set.pairs,
            set.images,
            set.pairs * u64::from(set.images),
            join.count()
        ),
    ];
    svg.lines(10, y, 12, &lines.each_ref().map(String::as_str));
    svg.legend(
        10,
        height - 34,
        &[
            (colour::SKY, "NW queen, west mask bit"),
            (colour::YELLOW, "SW queen"),
            (colour::ORANGE, "NE queen, east mask bit"),
            (colour::PURPLE, "SE queen"),
        ],
    );
    svg.legend(
        10,
        height - 12,
        &[
            (colour::GREEN, "✓ pair counted"),
            (colour::LIGHT, "✗ common diagonal"),
        ],
    );
    let _ = width;
    Ok(svg.finish())
}

/// The weight the matcher gives a pair that shares no bit (the long
/// diagonals' bits `main` and `anti`).
fn pair_weight(a: u64, b: u64, main: u32, anti: u32) -> u64 {
    let has = |m: u64, bit: u32| m >> bit & 1 != 0;
    if (has(a, main) && has(b, anti)) || (has(a, anti) && has(b, main)) {
        0
    } else if (has(a, main) && has(a, anti)) || (has(b, main) && has(b, anti)) {
        2
    } else {
        1
    }
}

fn matcher() -> Result<String, queens_simd::Error> {
    let (join, at) = traced()?;
    let cut = &join.cuts[0];
    let set = &cut.row_sets[at];
    // The run with the most patterns, and its first item with a pattern it
    // matches.
    let run: &Run = set
        .runs
        .iter()
        .max_by_key(|run| {
            (
                run.classes.iter().map(|(_, p)| p.len()).sum::<usize>(),
                usize::MAX - run.class,
            )
        })
        .expect("the row set has runs");
    let step = &run.steps[0];
    let items_side = set.side(set.items);
    let patterns_side = set.side(if set.items == Side::West {
        Side::East
    } else {
        Side::West
    });
    let (item_letter, pattern_letter) = if set.items == Side::West {
        ("W", "E")
    } else {
        ("E", "W")
    };
    let item_index = items_side
        .iter()
        .position(|h| h.mask == step.item)
        .expect("the item is a half-board");
    // The run's lanes: (word, lane, pattern index), each class from a word
    // of its own.
    let mut lanes = Vec::new();
    for (word, (_, masks)) in run.classes.iter().enumerate() {
        for (lane, &mask) in masks.iter().enumerate() {
            let index = patterns_side
                .iter()
                .position(|h| h.mask == mask)
                .expect("a pattern is a half-board");
            lanes.push((word, lane, index, mask));
        }
    }
    let cell = 34;
    let (left, top) = (250, 150);
    let gap = 90;
    let lane_x =
        |word: usize, lane: usize| left + word as i32 * (2 * cell + gap) + lane as i32 * cell;
    let rows = run.slices.len() as i32;
    let height = top + (rows + 3) * cell + 120;
    let width = 1000;
    let mut svg = Svg::new(
        width,
        height,
        "The bit-sliced match of one item against a run of patterns",
    );
    let roles = format!(
        "Row set {:?}: the {} {} half-boards are the items, the {} others the patterns, filed by the sieve's {} cut bits (class = bits 63, 62).",
        (0..N).filter(|&r| ROWS >> r & 1 != 0).collect::<Vec<_>>(),
        items_side.len(),
        if set.items == Side::West {
            "west"
        } else {
            "east"
        },
        patterns_side.len(),
        set.cuts
    );
    let this_run = format!(
        "Items of class {} meet the classes with none of its cut bits; those of weight {} are gathered into this run, each class from a word of its own.",
        run.class, run.weight
    );
    svg.heading(
        "The matcher: one item against a run of bit-sliced patterns",
        &[
            &roles,
            &this_run,
            "A slice is a row: bit j of word w holds the row's bit of the pattern in lane j. The item ORs the slices of its set bits.",
        ],
    );
    // Word headers.
    for (word, (class, masks)) in run.classes.iter().enumerate() {
        let x = lane_x(word, 0);
        svg.bold(
            x,
            top - 52,
            12,
            Anchor::Start,
            &format!("word {word}: class {class}"),
        );
        svg.text(
            x,
            top - 38,
            11,
            Anchor::Start,
            &format!("lanes 0-{} of 64", masks.len() - 1),
        );
    }
    for &(word, lane, index, _) in &lanes {
        let x = lane_x(word, lane);
        svg.text(
            x + cell / 2,
            top - 20,
            11,
            Anchor::Middle,
            &format!("{pattern_letter}{index}"),
        );
        svg.text(
            x + cell / 2,
            top - 6,
            10,
            Anchor::Middle,
            &format!("lane {lane}"),
        );
    }
    svg.bold(
        left - 70,
        top - 20,
        11,
        Anchor::Middle,
        &format!("item {item_letter}{item_index}"),
    );
    svg.text(10, top - 6, 11, Anchor::Start, "slice (bit, diagonal)");
    let diagonal_of = |bit: u32| {
        cut.crossing_bits
            .iter()
            .find(|&&(b, _)| b == bit)
            .map(|&(_, d)| name(d))
            .unwrap_or_default()
    };
    // The slices, highest bit first.
    for (i, (bit, words)) in run.slices.iter().rev().enumerate() {
        let y = top + i as i32 * cell;
        let in_item = step.item >> bit & 1 != 0;
        svg.text(
            10,
            y + 22,
            12,
            Anchor::Start,
            &format!("bit {bit} {}", diagonal_of(*bit)),
        );
        // The item's bit.
        let ix = left - 70 - cell / 2;
        svg.rect(
            ix,
            y,
            cell,
            cell,
            if in_item { colour::SKY } else { colour::WHITE },
            Some(colour::GREY),
        );
        svg.styled_text(
            ix + cell / 2,
            y + 22,
            13,
            Anchor::Middle,
            colour::BLACK,
            in_item,
            if in_item { "1" } else { "0" },
        );
        if in_item {
            svg.arrow(
                (ix + cell + 4, y + cell / 2),
                (left - 6, y + cell / 2),
                colour::BLACK,
            );
            svg.text(left - 34, y + cell / 2 - 3, 10, Anchor::Middle, "OR");
        }
        for &(word, lane, _, _) in &lanes {
            let x = lane_x(word, lane);
            let set_bit = words[word] >> lane & 1 != 0;
            let fill = if set_bit {
                colour::ORANGE
            } else {
                colour::WHITE
            };
            svg.rect(x, y, cell, cell, fill, Some(colour::GREY));
            svg.styled_text(
                x + cell / 2,
                y + 22,
                13,
                Anchor::Middle,
                if set_bit { colour::BLACK } else { colour::GREY },
                set_bit,
                if set_bit { "1" } else { "0" },
            );
        }
        if in_item {
            for word in 0..run.classes.len() {
                let x = lane_x(word, 0);
                svg.frame(
                    x,
                    y,
                    run.classes[word].1.len() as i32 * cell,
                    cell,
                    colour::BLACK,
                    3,
                );
            }
        }
    }
    // The OR of the item's slices, as the matcher counted it.
    let y = top + rows * cell + 16;
    svg.bold(10, y + 18, 12, Anchor::Start, "OR of the item's slices");
    svg.text(10, y + 34, 11, Anchor::Start, "(the matcher's, per word)");
    let mut compatible = Vec::new();
    for &(word, lane, index, _) in &lanes {
        let x = lane_x(word, lane);
        let hit = step.hits[word] >> lane & 1 != 0;
        let (fill, mark) = if hit {
            (colour::VERMILLION, "1")
        } else {
            (colour::GREEN, "0")
        };
        svg.rect(x, y, cell, cell, fill, Some(colour::BLACK));
        svg.styled_text(
            x + cell / 2,
            y + 22,
            13,
            Anchor::Middle,
            colour::WHITE,
            true,
            mark,
        );
        svg.text(
            x + cell / 2,
            y + cell + 14,
            12,
            Anchor::Middle,
            if hit { "✗" } else { "✓" },
        );
        if !hit {
            compatible.push(format!("{pattern_letter}{index}"));
        }
    }
    for word in 0..run.classes.len() {
        let x = lane_x(word, 0);
        let count = step.hits[word].count_ones();
        svg.text(
            x,
            y + cell + 32,
            11,
            Anchor::Start,
            &format!("popcount {count}"),
        );
    }
    let conflicts: u32 = step.hits.iter().map(|h| h.count_ones()).sum();
    let ors = (step.item & run.reach).count_ones();
    let patterns = lanes.len();
    let y = y + cell + 60;
    let lines = [
        format!(
            "{ors} ORs (one per set bit of the item) match it against every pattern of the run at once: {conflicts} conflicts, so {} of {patterns} patterns share",
            patterns as u32 - conflicts
        ),
        format!(
            "no bit with it ({}): pairs = items × patterns − conflicts. Lanes past a class's patterns are 0 in every slice and never conflict.",
            compatible.join(", ")
        ),
        format!(
            "The run's {} items give {} conflicts in all. The join kernel ORs one word (64 lanes) at a time, join-avx2 256 lanes, join-avx512 512.",
            run.steps.len(),
            run.conflicts
        ),
    ];
    svg.lines(10, y, 12, &lines.each_ref().map(String::as_str));
    svg.legend(
        10,
        height - 14,
        &[
            (colour::SKY, "1: the item's bit"),
            (colour::ORANGE, "1: the pattern's bit"),
            (colour::VERMILLION, "1: conflict ✗"),
            (colour::GREEN, "0: no common bit ✓"),
        ],
    );
    Ok(svg.finish())
}
