//! The band's rule of the join at even N (docs/join.md, Symmetry): one
//! solution of each row of its table beside its transpose, each with the
//! weight the join's own types give it (`queens_simd::trace::band_rule`).

use queens_simd::trace::band_rule::{Sides, Weighed, band_rule};

use crate::Picture;
use crate::board::{self, EMPTY, QUEEN, Square};
use crate::svg::{Anchor, Svg, colour};

pub const PICTURES: &[Picture] = &[Picture {
    file: "join-band-rule.svg",
    draw,
}];

/// The smallest board with a solution in every row of the table.
const N: usize = 8;

/// The rows drawn: a case of the table, the weight of its solution, and
/// what the row says.
const ROWS: [(Sides, u8, &str); 4] = [
    (
        Sides::Both,
        2,
        "band's queens on one side, middle rows' on one side: further out, 2",
    ),
    (
        Sides::Both,
        1,
        "both on one side, at the same distances from the centre: 1",
    ),
    (
        Sides::Band,
        0,
        "only the band's queens on one side: 0 (its transpose: only the middle rows', 2)",
    ),
    (Sides::Neither, 1, "neither on one side: 1"),
];

const SIZE: i32 = 20;

fn draw() -> Result<String, queens_simd::Error> {
    let weighed = band_rule(N)?;
    let side = N as i32 * SIZE;
    let row_height = side + 44;
    let (width, height) = (840, 130 + ROWS.len() as i32 * row_height);
    let mut svg = Svg::new(
        width,
        height,
        "The band's rule: four solutions of the 8x8 board and their transposes, each weighed as the join weighs it with the two middle columns' queens placed first",
    );
    let (first, second) = (N / 2 - 1, N / 2);
    svg.heading(
        &format!("The band's rule (N = {N}, a band of two): a solution and its transpose weigh 2 together"),
        &[
            &format!("The transpose swaps the band's queens (columns {first} and {second}) with the middle rows' (rows {first} and {second}), and which side of the"),
            "centre row one stands on with which side of the centre column the other does. Weights from queens_simd::trace::band_rule.",
        ],
    );
    svg.legend(
        10,
        92,
        &[
            (colour::ORANGE, "the band's queens"),
            (colour::SKY, "the middle rows' queens"),
            (colour::LIGHT, "the band and the middle rows"),
        ],
    );
    for (i, &(sides, weight, says)) in ROWS.iter().enumerate() {
        let y = 120 + i as i32 * row_height;
        let solution = weighed
            .iter()
            .find(|w| w.sides == sides && w.weight == weight)
            .expect("the board has a solution in every row of the table");
        let transpose = transposed(&weighed, &solution.columns);
        svg.bold(10, y + 12, 13, Anchor::Start, says);
        draw_solution(&mut svg, 30, y + 24, solution);
        svg.arrow(
            (30 + side + 14, y + 24 + side / 2),
            (30 + side + 66, y + 24 + side / 2),
            colour::BLACK,
        );
        svg.text(
            30 + side + 40,
            y + 16 + side / 2,
            11,
            Anchor::Middle,
            "transpose",
        );
        draw_solution(&mut svg, 30 + side + 80, y + 24, transpose);
    }
    Ok(svg.finish())
}

/// The weighed solution that transposes `columns`.
fn transposed<'a>(weighed: &'a [Weighed], columns: &[usize]) -> &'a Weighed {
    let mut turned = vec![0; columns.len()];
    for (row, &column) in columns.iter().enumerate() {
        turned[column] = row;
    }
    weighed
        .iter()
        .find(|w| w.columns == turned)
        .expect("the long diagonals weigh a transpose as the solution")
}

/// Draws `solution` from (`x`, `y`): the band's and the middle rows'
/// squares shaded, their queens filled, the centre lines, and its weight.
fn draw_solution(svg: &mut Svg, x: i32, y: i32, solution: &Weighed) {
    let middle = |at: usize| at == N / 2 - 1 || at == N / 2;
    board::draw(svg, x, y, N, SIZE, |row, column| {
        let queen = solution.columns[row] == column;
        let fill = match (queen, middle(column), middle(row)) {
            (true, true, _) => colour::ORANGE,
            (true, false, true) => colour::SKY,
            (false, true, _) | (false, _, true) => colour::LIGHT,
            _ => colour::WHITE,
        };
        match queen {
            true => Square { fill, ..QUEEN },
            false => Square { fill, ..EMPTY },
        }
    });
    let (side, centre) = (N as i32 * SIZE, N as i32 * SIZE / 2);
    svg.line(
        (x + centre, y - 4),
        (x + centre, y + side + 4),
        colour::BLACK,
        2,
    );
    svg.line(
        (x - 4, y + centre),
        (x + side + 4, y + centre),
        colour::BLACK,
        2,
    );
    svg.bold(
        x + side + 8,
        y + side,
        14,
        Anchor::Start,
        &format!("× {}", solution.weight),
    );
}
