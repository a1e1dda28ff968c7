//! The plan: the symmetric plan of N = 12, its 646 subproblems drawn as
//! small boards, each framed in the colour of the shard `--shard i/3`
//! deals it to, and what each shard's share of the work comes to.
//!
//! Everything comes from the library's public plan API: `Plan::with_method(Method::Symmetric, 12)`
//! lists the subproblems (`Subproblem::queens`, `kind`, `estimate`),
//! `Plan::all` is the counting order, `Plan::shard` deals it out, and
//! `dispatch::count_subproblem` gives each one's share of the 14,200 solutions.

use queens_simd::Kernel;
use queens_simd::kernel::Method;
use queens_simd::plan::{Plan, Shard, Subproblem, SubproblemKind};

use crate::Picture;
use crate::board::{self, EMPTY, QUEEN, Square};
use crate::svg::{Anchor, Svg, colour};

pub const PICTURES: &[Picture] = &[
    Picture {
        file: "plan-shards.svg",
        draw: shards,
    },
    Picture {
        file: "plan-join.svg",
        draw: join_pieces,
    },
];

const N: usize = 12;
/// How many shards the picture deals the plan into (`--shard i/3`).
const SHARDS: usize = 3;
/// Each shard's colour; its number is written beside or in it too.
const SHARD_COLOURS: [&str; SHARDS] = [colour::BLUE, colour::VERMILLION, colour::GREEN];
const WIDTH: i32 = 980;
/// Where the small boards (and the bars) start, right of their labels.
const LEFT: i32 = 104;
/// The small boards of the grid: 2 pixels a square, in a 30-pixel pitch
/// that leaves room for a 2-pixel frame and a gap.
const SMALL: i32 = 2;
const PITCH: i32 = 30;
/// The larger boards of the strip that shows the deal: 3 pixels a square.
const LARGE: i32 = 3;

/// The shard that deals out the subproblem at `position` of `Plan::all`,
/// found by asking each shard of the real plan which subproblems it holds.
struct Deal {
    /// `shard_of[index]`: the shard of subproblem number `index`.
    shard_of: Vec<usize>,
}

impl Deal {
    fn new(plan: &Plan) -> Result<Deal, queens_simd::Error> {
        let mut shard_of = vec![usize::MAX; plan.len()];
        for i in 0..SHARDS {
            for index in plan.shard(Shard::new(i, SHARDS)?) {
                shard_of[index] = i;
            }
        }
        // The shards hold every subproblem, each once (`Plan::shard` says so).
        assert!(shard_of.iter().all(|&s| s < SHARDS));
        Ok(Deal { shard_of })
    }
}

/// The rows the split placed: the rows from 0 down that all hold a queen
/// (a tie's own queen, further down, is not one of them).
fn placed_rows(sub: &Subproblem) -> usize {
    let queens = sub.queens();
    (0..N)
        .take_while(|&row| queens.iter().any(|&(r, _)| r == row))
        .count()
}

/// Draws `sub` as an `N`x`N` board with squares `cell` pixels wide from
/// (`x`, `y`): its placed rows shaded, its queens as black squares, framed
/// in its shard's colour, with the shard's number written in the middle of
/// the board (where no subproblem of N = 12 has a queen).
fn small_board(svg: &mut Svg, x: i32, y: i32, cell: i32, sub: &Subproblem, shard: usize) {
    let side = N as i32 * cell;
    svg.rect(x, y, side, side, colour::WHITE, None);
    svg.rect(
        x,
        y,
        side,
        placed_rows(sub) as i32 * cell,
        colour::LIGHT,
        None,
    );
    for (row, column) in sub.queens() {
        svg.rect(
            x + column as i32 * cell,
            y + row as i32 * cell,
            cell,
            cell,
            colour::BLACK,
            None,
        );
    }
    // A frame 2 pixels wide just outside the board, so it hides no queen.
    svg.frame(x - 1, y - 1, side + 2, side + 2, SHARD_COLOURS[shard], 2);
    let size = 5 * cell + 1;
    let baseline = y + side * 3 / 4 + size / 3;
    svg.styled_text(
        x + side / 2,
        baseline,
        size,
        Anchor::Middle,
        SHARD_COLOURS[shard],
        true,
        &shard.to_string(),
    );
}

/// Draws `sub` large, with `board::draw`, at `x` beside the deal: its
/// queens marked ♛, its placed rows shaded, framed in its shard's colour,
/// and named below; the key to the small boards.
fn key(svg: &mut Svg, x: i32, sub: &Subproblem, shard: usize) {
    const CELL: i32 = 12;
    let (y, side) = (100, N as i32 * CELL);
    let queens = sub.queens();
    let placed = placed_rows(sub);
    board::draw(svg, x, y, N, CELL, |row, column| {
        if queens.contains(&(row, column)) {
            Square {
                fill: if row < placed {
                    colour::LIGHT
                } else {
                    colour::WHITE
                },
                ..QUEEN
            }
        } else if row < placed {
            Square {
                fill: colour::LIGHT,
                ..EMPTY
            }
        } else {
            EMPTY
        }
    });
    svg.frame(x - 2, y - 2, side + 4, side + 4, SHARD_COLOURS[shard], 2);
    svg.bold(
        x,
        y - 8,
        11,
        Anchor::Start,
        &format!("#{} {}: shard {shard}", sub.index(), sub.kind()),
    );
    let note = if placed < queens.len() {
        "its own queen further down"
    } else {
        "three rows placed"
    };
    svg.text(x, y + side + 14, 10, Anchor::Start, note);
}

/// The groups of the grid, in the order the plan numbers them (each
/// kind's subproblems are numbered in one run): the corner, then for each
/// column k of the row-0 queen its tie and its edge subproblems.
fn groups(plan: &Plan) -> Vec<SubproblemKind> {
    let mut kinds: Vec<SubproblemKind> = Vec::new();
    for sub in plan.subproblems() {
        if !kinds.contains(&sub.kind()) {
            kinds.push(sub.kind());
        }
    }
    kinds
}

/// `value` with a comma every three digits: 14,200.
fn thousands(value: u128) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `part` of `whole` as a percentage with one decimal, in integers.
fn percent(part: u64, whole: u64) -> String {
    let tenths = (part * 1000 + whole / 2) / whole;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

fn shards() -> Result<String, queens_simd::Error> {
    let plan = Plan::with_method(Method::Symmetric, N)?;
    let deal = Deal::new(&plan)?;
    let subs = plan.subproblems();
    let order = plan.all();
    let kinds = groups(&plan);

    // The height: header, the deal strip, one band per kind, the shards' bars.
    let per_row = ((WIDTH - LEFT) / PITCH) as usize;
    // A group's band: its rows of small boards, at least as tall as its
    // three lines of label, and a gap.
    let band = |members: usize| (members.div_ceil(per_row) as i32 * PITCH).max(42) + 8;
    let grid_height: i32 = kinds
        .iter()
        .map(|kind| band(subs.iter().filter(|s| s.kind() == *kind).count()))
        .sum();
    let grid_top = 298;
    let bars_top = grid_top + grid_height + 34;
    const BAR_ROW: i32 = 50;
    let height = bars_top + SHARDS as i32 * BAR_ROW + 86;
    let mut svg = Svg::new(
        WIDTH,
        height,
        "The symmetric plan of N = 12: its 646 subproblems as small boards, framed by the shard --shard i/3 deals them to",
    );

    svg.heading(
        &format!(
            "The plan of N = {N}: {} subproblems, dealt to {SHARDS} shards (--shard i/{SHARDS})",
            plan.len()
        ),
        &[
            "Plan::with_method(Method::Symmetric, 12): the symmetric kernel's corner, edge and tie cases, each split by placing queens in its first rows.",
            "Plan::all() orders them largest estimate first, ties last; shard i/3 takes every third of that order from position i.",
        ],
    );

    // The deal: the first positions of the counting order, larger.
    svg.bold(
        10,
        90,
        13,
        Anchor::Start,
        "The deal: Plan::all(), the counting order; position p goes to shard p mod 3",
    );
    let shown = 12;
    let large_side = N as i32 * LARGE;
    let mut x = 14;
    for (position, &index) in order.iter().take(shown).enumerate() {
        let shard = deal.shard_of[index];
        svg.text(
            x + large_side / 2,
            110,
            10,
            Anchor::Middle,
            &format!("p = {position}"),
        );
        small_board(&mut svg, x, 116, LARGE, &subs[index], shard);
        svg.text(
            x + large_side / 2,
            116 + large_side + 15,
            10,
            Anchor::Middle,
            &format!("#{index}"),
        );
        x += large_side + 9;
        if position % SHARDS == SHARDS - 1 {
            x += 9;
        }
    }
    svg.text(x, 116 + large_side / 2 + 4, 12, Anchor::Start, "…");
    svg.text(
        10,
        116 + large_side + 34,
        11,
        Anchor::Start,
        &format!("… and so on to p = {}. Above each board p, its position; below, #, its number in the plan.", plan.len() - 1),
    );

    // The key: two subproblems drawn large, beside the deal.
    let first_tie = order
        .iter()
        .map(|&index| &subs[index])
        .find(|sub| {
            matches!(sub.kind(), SubproblemKind::Tie { .. })
                && sub.queens().len() > placed_rows(sub)
        })
        .expect("a plan of N = 12 has ties with a queen of their own");
    key(&mut svg, 640, &subs[order[0]], deal.shard_of[order[0]]);
    key(&mut svg, 816, first_tie, deal.shard_of[first_tie.index()]);

    // The grid: every subproblem, by kind, in counting order within each.
    svg.bold(
        10,
        grid_top - 24,
        13,
        Anchor::Start,
        "Every subproblem, grouped by kind (in counting order within each): its frame and number are its shard",
    );
    let position_of = {
        let mut position_of = vec![0; plan.len()];
        for (position, &index) in order.iter().enumerate() {
            position_of[index] = position;
        }
        position_of
    };
    let mut y = grid_top;
    for kind in &kinds {
        let mut members: Vec<&Subproblem> = subs.iter().filter(|s| s.kind() == *kind).collect();
        members.sort_by_key(|s| position_of[s.index()]);
        svg.bold(10, y + 10, 12, Anchor::Start, &kind.to_string());
        svg.text(
            10,
            y + 24,
            10,
            Anchor::Start,
            &format!("{} subproblems", members.len()),
        );
        let numbers = members.iter().map(|s| s.index());
        let (first, last) = (
            numbers.clone().min().unwrap_or(0),
            numbers.max().unwrap_or(0),
        );
        svg.text(
            10,
            y + 37,
            10,
            Anchor::Start,
            &format!("#{first} to #{last}"),
        );
        for (i, sub) in members.iter().enumerate() {
            let (column, row) = ((i % per_row) as i32, (i / per_row) as i32);
            let (bx, by) = (LEFT + column * PITCH + 2, y + row * PITCH + 2);
            small_board(&mut svg, bx, by, SMALL, sub, deal.shard_of[sub.index()]);
        }
        y += band(members.len());
    }

    // The shards' work: each shard's estimates in its counting order, and
    // its totals.
    let total_estimate: u64 = subs.iter().map(Subproblem::estimate).sum();
    let largest = subs.iter().map(Subproblem::estimate).max().unwrap_or(1);
    svg.bold(
        10,
        bars_top - 12,
        13,
        Anchor::Start,
        "Each shard's work: its subproblems' estimates (bar heights), in its counting order, and its totals",
    );
    const BAR: i32 = 3;
    const BAR_HEIGHT: i32 = 38;
    let mut total_count = 0;
    for (i, shard_colour) in SHARD_COLOURS.into_iter().enumerate() {
        let shard = plan.shard(Shard::new(i, SHARDS)?);
        let y = bars_top + i as i32 * BAR_ROW;
        let base = y + BAR_HEIGHT;
        svg.styled_text(
            10,
            y + 24,
            12,
            Anchor::Start,
            shard_colour,
            true,
            &format!("--shard {i}/{SHARDS}"),
        );
        svg.line(
            (LEFT, base),
            (LEFT + shard.len() as i32 * BAR, base),
            colour::GREY,
            1,
        );
        let mut first_tie = None;
        for (j, &index) in shard.iter().enumerate() {
            let sub = &subs[index];
            let h = ((sub.estimate() * BAR_HEIGHT as u64).div_ceil(largest)) as i32;
            svg.rect(LEFT + j as i32 * BAR, base - h, BAR, h, shard_colour, None);
            if first_tie.is_none() && matches!(sub.kind(), SubproblemKind::Tie { .. }) {
                first_tie = Some(j as i32);
            }
        }
        if let Some(j) = first_tie {
            let tx = LEFT + j * BAR - 1;
            svg.line((tx, y), (tx, base), colour::BLACK, 1);
            svg.text(tx + 4, y + 8, 10, Anchor::Start, "ties from here");
        }
        let estimate: u64 = shard.iter().map(|&index| subs[index].estimate()).sum();
        let mut count = 0;
        for &index in &shard {
            count += queens_simd::dispatch::count_subproblem(Kernel::Auto, &subs[index])?;
        }
        total_count += count;
        let tx = LEFT + plan.len().div_ceil(SHARDS) as i32 * BAR + 14;
        svg.bold(
            tx,
            y + 12,
            11,
            Anchor::Start,
            &format!("{} subproblems", shard.len()),
        );
        svg.text(
            tx,
            y + 25,
            11,
            Anchor::Start,
            &format!(
                "estimate {} ({})",
                thousands(estimate.into()),
                percent(estimate, total_estimate)
            ),
        );
        svg.text(
            tx,
            y + 38,
            11,
            Anchor::Start,
            &format!("{} solutions", thousands(count)),
        );
    }

    // The whole estimate, split by shard: three nearly equal parts.
    let y = bars_top + SHARDS as i32 * BAR_ROW + 4;
    svg.bold(10, y + 14, 11, Anchor::Start, "all, by shard");
    let full = WIDTH - LEFT - 10;
    let mut x = LEFT;
    let mut so_far = 0;
    for (i, shard_colour) in SHARD_COLOURS.into_iter().enumerate() {
        let estimate: u64 = plan
            .shard(Shard::new(i, SHARDS)?)
            .iter()
            .map(|&index| subs[index].estimate())
            .sum();
        so_far += estimate;
        let end = LEFT + (so_far * full as u64 / total_estimate) as i32;
        svg.rect(x, y, end - x, 20, shard_colour, Some(colour::WHITE));
        svg.styled_text(
            (x + end) / 2,
            y + 15,
            12,
            Anchor::Middle,
            colour::WHITE,
            true,
            &format!("shard {i}: {}", percent(estimate, total_estimate)),
        );
        x = end;
    }
    svg.text(
        LEFT,
        y + 36,
        11,
        Anchor::Start,
        &format!(
            "of the plan's estimate, {}; the shards' solutions add up to {} = Q({N})",
            thousands(total_estimate.into()),
            thousands(total_count)
        ),
    );

    let y = height - 16;
    svg.legend(
        10,
        y,
        &[
            (SHARD_COLOURS[0], "shard 0/3"),
            (SHARD_COLOURS[1], "shard 1/3"),
            (SHARD_COLOURS[2], "shard 2/3"),
            (colour::LIGHT, "rows placed by the split"),
            (colour::BLACK, "queen"),
        ],
    );
    Ok(svg.finish())
}

/// The join plan of N = 12: each piece a column of the board's rows, each
/// row marked W where the piece's choices put its queen in the west half,
/// E in the east half, blank where the piece leaves it open; in counting
/// order, each column headed by the shard `--shard i/3` deals it to.
fn join_pieces() -> Result<String, queens_simd::Error> {
    let plan = Plan::with_method(Method::Join, N)?;
    let deal = Deal::new(&plan)?;
    let order = plan.all();
    const COLUMN: i32 = 16;
    const ROW: i32 = 14;
    const LEFT: i32 = 50;
    let per_line = ((WIDTH - LEFT - 10) / COLUMN) as usize;
    let lines = order.len().div_ceil(per_line) as i32;
    let block = 22 + N as i32 * ROW + 26;
    let top = 86;
    let height = top + lines * block + 30;
    let mut svg = Svg::new(
        WIDTH,
        height,
        "The join plan of N = 12: its pieces as columns of rows put west or east, in counting order, headed by their shard",
    );
    svg.heading(
        &format!(
            "The join plan of N = {N}: {} pieces, dealt to {SHARDS} shards (--shard i/{SHARDS})",
            plan.len()
        ),
        &[
            "Plan::with_method(Method::Join, 12): a piece is the solutions whose west half's rows begin with its choices.",
            "Each column is one piece (Subproblem::join_rows), in counting order (Plan::all()); above it, its shard: p mod 3.",
        ],
    );
    for (position, &index) in order.iter().enumerate() {
        let (west, east) = plan.subproblems()[index]
            .join_rows()
            .expect("a join plan's pieces");
        let shard = deal.shard_of[index];
        let line = (position / per_line) as i32;
        let x = LEFT + (position % per_line) as i32 * COLUMN;
        let y = top + line * block;
        svg.styled_text(
            x + COLUMN / 2,
            y + 12,
            11,
            Anchor::Middle,
            SHARD_COLOURS[shard],
            true,
            &shard.to_string(),
        );
        for row in 0..N {
            let ry = y + 18 + row as i32 * ROW;
            let (fill, mark) = if west >> row & 1 != 0 {
                (colour::SKY, "W")
            } else if east >> row & 1 != 0 {
                (colour::YELLOW, "E")
            } else {
                (colour::WHITE, "")
            };
            svg.rect(x, ry, COLUMN, ROW, fill, Some(colour::GREY));
            if !mark.is_empty() {
                svg.text(x + COLUMN / 2, ry + ROW - 3, 10, Anchor::Middle, mark);
            }
        }
        svg.frame(x, y + 18, COLUMN, N as i32 * ROW, SHARD_COLOURS[shard], 2);
        if position % per_line == 0 {
            svg.text(LEFT - 6, y + 12, 10, Anchor::End, "shard");
            for row in 0..N {
                svg.text(
                    LEFT - 6,
                    y + 18 + row as i32 * ROW + ROW - 3,
                    10,
                    Anchor::End,
                    &format!("row {row}"),
                );
            }
        }
    }
    svg.legend(
        10,
        height - 14,
        &[
            (SHARD_COLOURS[0], "shard 0/3"),
            (SHARD_COLOURS[1], "shard 1/3"),
            (SHARD_COLOURS[2], "shard 2/3"),
            (colour::SKY, "W: the row's queen in the west half"),
            (colour::YELLOW, "E: in the east half"),
        ],
    );
    Ok(svg.finish())
}
