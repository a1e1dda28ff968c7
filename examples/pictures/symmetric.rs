//! The symmetric kernel: the subproblems of an 8 x 8 board, one walker's
//! stack through a whole walk, and the lane kernel's eight walkers side by
//! side.

use queens_simd::Kernel;
use queens_simd::trace::lanes::{Lane, first_steps};
use queens_simd::trace::symmetric::{Kind, TracedRoot, subproblems, walk};

use crate::Picture;
use crate::board::{self, Square};
use crate::svg::{Anchor, Svg, colour};

pub const PICTURES: &[Picture] = &[
    Picture {
        file: "symmetric-subproblems.svg",
        draw: subproblems_picture,
    },
    Picture {
        file: "symmetric-walker.svg",
        draw: walker_picture,
    },
    Picture {
        file: "symmetric-lanes.svg",
        draw: lanes_picture,
    },
];

const N: usize = 8;

fn kind_name(kind: Kind) -> String {
    match kind {
        Kind::Corner => "corner".to_string(),
        Kind::Edge { k } => format!("edge, k = {k}"),
        Kind::Tie { k } => format!("tie, k = {k}"),
    }
}

/// Whether a queen at `(row, column)` attacks square `(r, c)`.
fn attacks((row, column): (usize, usize), (r, c): (usize, usize)) -> bool {
    row == r || column == c || row.abs_diff(r) == column.abs_diff(c)
}

const PLACED: Square = board::QUEEN;
const FIXED: Square = Square {
    fill: colour::YELLOW,
    mark: "♛",
};
const ATTACKED: Square = Square {
    fill: colour::LIGHT,
    mark: "",
};
const RULED_OUT: Square = Square {
    fill: colour::PURPLE,
    mark: "×",
};
const LIVE: Square = Square {
    fill: colour::GREEN,
    mark: "○",
};

/// What square `(r, c)` of `sub` shows.
fn square(sub: &TracedRoot, r: usize, c: usize) -> Square {
    if sub.queens.contains(&(r, c)) {
        return PLACED;
    }
    if sub.fixed.contains(&(r, c)) {
        return FIXED;
    }
    if sub
        .queens
        .iter()
        .chain(&sub.fixed)
        .any(|&q| attacks(q, (r, c)))
    {
        return ATTACKED;
    }
    if sub.forbidden[r] >> c & 1 != 0 {
        return RULED_OUT;
    }
    if r == sub.start && sub.live >> c & 1 != 0 {
        return LIVE;
    }
    board::EMPTY
}

fn subproblems_picture() -> Result<String, queens_simd::Error> {
    let subs = subproblems(N)?;
    const SIZE: i32 = 17;
    const PER_ROW: usize = 6;
    const CELL_W: i32 = 8 * SIZE + 24;
    const CELL_H: i32 = 8 * SIZE + 52;
    const TOP: i32 = 78;
    let rows = subs.len().div_ceil(PER_ROW) as i32;
    let width = PER_ROW as i32 * CELL_W + 16;
    let height = TOP + rows * CELL_H + 40;
    let mut svg = Svg::new(
        width,
        height,
        "The symmetric kernel's subproblems of the 8 x 8 board",
    );
    let found: Vec<u64> = (0..subs.len())
        .map(|i| walk(N, i).map(|w| w.last().map_or(0, |s| s.found)))
        .collect::<Result<_, _>>()?;
    let classes = format!(
        "Each class of the square's 8 symmetries is found once, in one subproblem, as its canonical board: {} classes in all,",
        found.iter().sum::<u64>()
    );
    svg.heading(
        "The symmetric kernel's 18 subproblems of the 8 × 8 board",
        &[
            &classes,
            "and 92 solutions. Corner and edge boards count 8 each; a tie's boards are compared with their images one by one.",
        ],
    );
    for (i, sub) in subs.iter().enumerate() {
        let x = 10 + (i % PER_ROW) as i32 * CELL_W;
        let y = TOP + (i / PER_ROW) as i32 * CELL_H;
        svg.bold(
            x,
            y + 14,
            12,
            Anchor::Start,
            &format!("#{i} {}", kind_name(sub.kind)),
        );
        let classes = match found[i] {
            1 => "finds 1 class".to_string(),
            f => format!("finds {f} classes"),
        };
        svg.text(x, y + 29, 11, Anchor::Start, &classes);
        board::draw(&mut svg, x, y + 36, N, SIZE, |r, c| square(sub, r, c));
    }
    svg.legend(
        10,
        height - 16,
        &[
            (colour::WHITE, "♛ queen placed"),
            (colour::YELLOW, "♛ pre-placed"),
            (colour::LIGHT, "attacked"),
            (colour::PURPLE, "× ruled out by the kind"),
            (colour::GREEN, "○ first row's live squares"),
        ],
    );
    Ok(svg.finish())
}

/// The subproblem whose whole walk the walker picture shows: a corner of
/// the 8 x 8 board that finds a class in a few steps.
const WALKED: usize = 3;

fn walker_picture() -> Result<String, queens_simd::Error> {
    let subs = subproblems(N)?;
    let sub = &subs[WALKED];
    let states = walk(N, WALKED)?;
    const CELL: i32 = 11;
    const COLUMN: i32 = 8 * CELL + 20;
    const ENTRY: i32 = CELL + 20;
    const LEFT: i32 = 176;
    const TOP: i32 = 84;
    let depth = states.iter().map(|s| s.stack.len()).max().unwrap_or(0) as i32;
    let stack_bottom = TOP + 24 + depth * ENTRY;
    let width = LEFT + states.len() as i32 * COLUMN + 10;
    let height = stack_bottom + 120;
    let mut svg = Svg::new(width, height, "One symmetric walker's stack, step by step");
    svg.heading(
        &format!("One walker's whole walk: subproblem #{WALKED} of the 8 × 8 board"),
        &[
            "The stack holds only rows with squares left to try. Each step takes the lowest live square of the top entry (♛), drops the entry",
            "if that was its last, and pushes the row below if it has live squares; at row 6, the row before last, it counts them instead.",
        ],
    );
    board::draw(&mut svg, 10, TOP + 6, N, 18, |r, c| square(sub, r, c));
    svg.text(
        10,
        TOP + 6 + 8 * 18 + 18,
        12,
        Anchor::Start,
        &format!("#{WALKED}: {}", kind_name(sub.kind)),
    );
    for (i, state) in states.iter().enumerate() {
        let x = LEFT + i as i32 * COLUMN;
        let title = if i == 0 {
            "start".to_string()
        } else {
            format!("after step {i}")
        };
        svg.bold(x, TOP + 12, 12, Anchor::Start, &title);
        let next = state.stack.last().map(|top| top.live.trailing_zeros());
        for (d, entry) in state.stack.iter().enumerate() {
            let y = stack_bottom - (d as i32 + 1) * ENTRY;
            let top = d + 1 == state.stack.len();
            svg.text(x, y + 11, 11, Anchor::Start, &format!("row {}", entry.row));
            for c in 0..N as i32 {
                let live = entry.live >> c & 1 != 0;
                let cx = x + c * CELL;
                let fill = if live { colour::GREEN } else { colour::WHITE };
                svg.rect(cx, y + 14, CELL, CELL, fill, Some(colour::GREY));
                if top && next == Some(c as u32) {
                    svg.text(cx + CELL / 2, y + 24, 11, Anchor::Middle, "♛");
                } else if live {
                    svg.styled_text(
                        cx + CELL / 2,
                        y + 24,
                        10,
                        Anchor::Middle,
                        colour::WHITE,
                        true,
                        "○",
                    );
                }
            }
            if top {
                svg.frame(x - 2, y + 1, 8 * CELL + 4, ENTRY - 4, colour::BLACK, 2);
            }
        }
        if state.stack.is_empty() {
            svg.text(x, stack_bottom - 10, 11, Anchor::Start, "empty: done");
        }
        svg.line(
            (x - 4, stack_bottom + 2),
            (x + 8 * CELL + 4, stack_bottom + 2),
            colour::BLACK,
            2,
        );
        // What the step did, read from the states on either side.
        if let Some(after) = states.get(i + 1) {
            let top = state.stack.last().expect("a running walk has a top entry");
            let column = top.live.trailing_zeros();
            let mut lines = vec![format!("({}, {column})", top.row)];
            let child_row = top.row + 1;
            if after.found > state.found {
                lines.push(format!("row {child_row}: +{}", after.found - state.found));
            } else if after.stack.last().is_some_and(|e| e.row == child_row) {
                lines.push(format!("push row {child_row}"));
            } else if child_row == N - 2 {
                lines.push("no leaf".to_string());
            } else {
                lines.push("dead end".to_string());
            }
            if top.live & (top.live - 1) == 0 {
                lines.push(format!("row {} spent", top.row));
            }
            svg.text(
                x,
                stack_bottom + 20,
                11,
                Anchor::Start,
                &format!("step {}: takes", i + 1),
            );
            for (l, line) in lines.iter().enumerate() {
                svg.text(
                    x,
                    stack_bottom + 35 + 15 * l as i32,
                    11,
                    Anchor::Start,
                    line,
                );
            }
        }
        svg.text(
            x,
            stack_bottom + 88,
            11,
            Anchor::Start,
            &format!("found: {}", state.found),
        );
    }
    svg.legend(
        10,
        height - 10,
        &[
            (colour::GREEN, "○ live square, still to try"),
            (colour::WHITE, "♛ the next step's queen"),
            (colour::WHITE, "framed: the top entry"),
        ],
    );
    Ok(svg.finish())
}

const STEPS: usize = 40;

/// What a lane did in its latest step, seen from its state before and
/// after, with its fill and what the legend calls it.
fn lane_move(before: Option<&Lane>, after: &Lane) -> (&'static str, &'static str) {
    match before {
        _ if after.done => (colour::BLACK, "walk done"),
        Some(b) if b.start == after.start && !b.done => {
            if after.row > b.row {
                (colour::BLUE, "down a row")
            } else if after.row == b.row {
                (colour::SKY, "next square, same row")
            } else {
                (colour::ORANGE, "back up (pop)")
            }
        }
        _ => (colour::GREEN, "new start"),
    }
}

fn lanes_picture() -> Result<String, queens_simd::Error> {
    let walk = first_steps(Kernel::LanesAvx2, N, STEPS)?;
    let lanes = walk.steps.first().map_or(0, Vec::len);
    const CELL: i32 = 22;
    const LEFT: i32 = 70;
    const TOP: i32 = 96;
    let width = LEFT + STEPS as i32 * CELL + 20;
    let height = TOP + lanes as i32 * CELL + 70;
    let mut svg = Svg::new(
        width,
        height,
        "The lanes-avx2 kernel's 8 walkers, step by step",
    );
    let steps = format!(
        "Every step moves all eight lanes at once, each on its own start (rows 0 and 1 placed). The first {STEPS} of {} steps; the count: {}.",
        walk.total_steps, walk.count
    );
    svg.heading(
        "lanes-avx2: eight walkers in the lanes of one ymm register, on the 8 × 8 board",
        &[
            &steps,
            "Each cell: the row the lane fills after the step; ★ where the step found solutions. A lane whose walk ends takes the next start.",
        ],
    );
    for step in (0..STEPS).step_by(5) {
        svg.text(
            LEFT + step as i32 * CELL + CELL / 2,
            TOP - 8,
            10,
            Anchor::Middle,
            &(step + 1).to_string(),
        );
    }
    svg.text(LEFT, TOP - 24, 11, Anchor::Start, "step");
    let mut seen = Vec::new();
    for lane in 0..lanes {
        let y = TOP + lane as i32 * CELL;
        svg.text(LEFT - 8, y + 15, 12, Anchor::End, &format!("lane {lane}"));
        for (step, lanes_now) in walk.steps.iter().enumerate() {
            let x = LEFT + step as i32 * CELL;
            let after = &lanes_now[lane];
            let before = step.checked_sub(1).map(|s| &walk.steps[s][lane]);
            let (fill, meaning) = lane_move(before, after);
            if !seen.contains(&(fill, meaning)) {
                seen.push((fill, meaning));
            }
            svg.rect(x, y, CELL, CELL, fill, Some(colour::WHITE));
            let text_colour = if fill == colour::SKY || fill == colour::ORANGE {
                colour::BLACK
            } else {
                colour::WHITE
            };
            let found =
                before.is_some_and(|b| b.start == after.start && after.solutions > b.solutions);
            let label = if after.done {
                "end".to_string()
            } else if found {
                format!("{}★", after.row)
            } else {
                after.row.to_string()
            };
            let size = if label.chars().count() > 2 { 9 } else { 12 };
            svg.styled_text(
                x + CELL / 2,
                y + 15,
                size,
                Anchor::Middle,
                text_colour,
                true,
                &label,
            );
        }
    }
    // The legend in a fixed order, each colour named.
    let order = [
        "new start",
        "down a row",
        "next square, same row",
        "back up (pop)",
        "walk done",
    ];
    let items: Vec<(&str, &str)> = order
        .iter()
        .filter_map(|name| seen.iter().find(|(_, m)| m == name).copied())
        .collect();
    svg.legend(10, height - 14, &items);
    Ok(svg.finish())
}
