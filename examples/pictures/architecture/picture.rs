//! The picture of what `House::read` found: a band per layer, top down,
//! listing its folders and files, and on the right a lane per layer that
//! imports from below, with an arrowhead and a count at each layer it
//! imports.

use std::collections::{BTreeMap, BTreeSet};

use super::LAYERS;
use super::house::{File, House, holds};
use crate::svg::{Anchor, Svg, colour};

/// Each layer's colour, and that of the arrows that leave it (the layer's
/// number is written beside it too).
const LAYER_COLOURS: [&str; 7] = [
    colour::GREY,
    colour::SKY,
    colour::GREEN,
    colour::ORANGE,
    colour::PURPLE,
    colour::VERMILLION,
    colour::BLUE,
];

const WIDTH: i32 = 1000;
/// The bands' left edge, and where their contents start.
const LEFT: i32 = 10;
const CONTENTS: i32 = 196;
/// The cells that list folders and files: how many to a row, how wide, how
/// high.
const COLUMNS: usize = 4;
const CELL: i32 = 136;
const ROW: i32 = 17;
/// The lanes of the arrows, right of the contents: one per layer that
/// imports from a layer below.
const LANE: i32 = 50;
/// A band's least height (its label's), and the gap between bands.
const LABEL_HEIGHT: i32 = 58;
const GAP: i32 = 12;

/// A cell of a band: a folder or file name, and for a folder how many
/// files it holds.
struct Cell {
    name: String,
    files: Option<usize>,
    bold: bool,
}

/// The cells of one layer, a group per path of the layer: the path in
/// bold, then, for a folder, what it holds one level down (files, then
/// folders).
fn cells(house: &House, layer: usize) -> Vec<Vec<Cell>> {
    let mut groups = Vec::new();
    for held in LAYERS[layer].paths {
        let inside: Vec<&File> = house
            .files
            .iter()
            .filter(|f| holds(held, &f.path))
            .collect();
        if inside.len() == 1 && inside[0].path == *held {
            groups.push(vec![Cell {
                name: (*held).to_owned(),
                files: None,
                bold: true,
            }]);
            continue;
        }
        let mut group = vec![Cell {
            name: format!("{held}/"),
            files: Some(inside.len()),
            bold: true,
        }];
        // What the folder holds, one level down.
        let mut files = BTreeSet::new();
        let mut folders: BTreeMap<String, usize> = BTreeMap::new();
        for file in inside {
            let rest = &file.path[held.len() + 1..];
            match rest.split_once('/') {
                Some((folder, _)) => *folders.entry(format!("{folder}/")).or_default() += 1,
                None => {
                    files.insert(rest.to_owned());
                }
            }
        }
        group.extend(files.into_iter().map(|name| Cell {
            name,
            files: None,
            bold: false,
        }));
        group.extend(folders.into_iter().map(|(name, count)| Cell {
            name,
            files: Some(count),
            bold: false,
        }));
        groups.push(group);
    }
    groups
}

/// `n` files.
fn files(n: usize) -> String {
    if n == 1 {
        "1 file".to_owned()
    } else {
        format!("{n} files")
    }
}

/// Rows a group of `cells` takes.
fn rows(cells: usize) -> i32 {
    cells.div_ceil(COLUMNS) as i32
}

/// The picture: the heading, the bands top down, the lanes over them, and
/// the notes under them.
pub(super) fn picture(house: &House) -> String {
    let groups: Vec<Vec<Vec<Cell>>> = (0..LAYERS.len()).map(|layer| cells(house, layer)).collect();
    let (bands, bottom) = bands(&groups);
    let notes_top = bottom + 6;
    let mut svg = Svg::new(
        WIDTH,
        notes_top + 40,
        "The crate's layers, bottom up, with the folders and files of src/ in each and arrows for the imports from each layer to those below",
    );
    heading(&mut svg, house);
    for layer in (0..LAYERS.len()).rev() {
        band(&mut svg, house, layer, bands[layer], &groups[layer]);
    }
    lanes(&mut svg, house, &bands);
    notes(&mut svg, notes_top);
    svg.finish()
}

/// Each layer's band, drawn top (the last layer) to bottom: its top and
/// height; and the bottom of the lowest.
fn bands(groups: &[Vec<Vec<Cell>>]) -> (Vec<(i32, i32)>, i32) {
    let mut bands = vec![(0, 0); groups.len()];
    // Under the heading.
    let mut y = 78;
    for layer in (0..groups.len()).rev() {
        let rows: i32 = groups[layer].iter().map(|g| rows(g.len())).sum();
        let height = (8 + rows * ROW + 6).max(LABEL_HEIGHT);
        bands[layer] = (y, height);
        y += height + GAP;
    }
    (bands, y)
}

/// The title, with how many files there are, and how to read the bands
/// and the lanes.
fn heading(svg: &mut Svg, house: &House) {
    let imports: usize = house.imports.values().sum();
    svg.heading(
        &format!(
            "The layers of queens-simd: the {} of src/ in {} layers",
            files(house.files.len()),
            LAYERS.len()
        ),
        &[
            "Each band a layer: its folders (with how many files each holds) and files. A layer imports only from its own layer and those below.",
            &format!(
                "Right: a layer's imports leave its square down a line in its colour, with a head and a number at each layer it imports: pairs of files ({imports} in all)."
            ),
        ],
    );
}

/// The band of `layer`, at `(top, height)`: its label on the left (the
/// layer's colour, number and name, what it holds, its size), its cells.
fn band(
    svg: &mut Svg,
    house: &House,
    layer: usize,
    (top, height): (i32, i32),
    groups: &[Vec<Cell>],
) {
    svg.rect(LEFT, top, WIDTH - 2 * LEFT, height, colour::LIGHT, None);
    let held = house.files.iter().filter(|f| f.layer == layer).count();
    svg.rect(
        LEFT + 8,
        top + 8,
        14,
        14,
        LAYER_COLOURS[layer],
        Some(colour::BLACK),
    );
    svg.bold(
        LEFT + 28,
        top + 20,
        13,
        Anchor::Start,
        &format!("{}  {}", layer + 1, LAYERS[layer].name),
    );
    svg.text(LEFT + 8, top + 36, 11, Anchor::Start, LAYERS[layer].what);
    svg.text(LEFT + 8, top + 50, 11, Anchor::Start, &files(held));
    let mut row_top = top + 8;
    for group in groups {
        for (i, cell) in group.iter().enumerate() {
            let x = CONTENTS + (i % COLUMNS) as i32 * CELL;
            let y = row_top + (i / COLUMNS) as i32 * ROW + 12;
            let size = cell.files.map_or(String::new(), files);
            svg.styled_text(
                x,
                y,
                11,
                Anchor::Start,
                colour::BLACK,
                cell.bold,
                &cell.name,
            );
            svg.styled_text(
                x + CELL - 16,
                y,
                11,
                Anchor::End,
                colour::BLACK,
                cell.bold,
                &size,
            );
        }
        row_top += rows(group.len()) * ROW;
    }
}

/// The lanes, over the bands: from each importing layer's square, down
/// through each layer it imports, an arrowhead and a count at each. The
/// lowest importing layer's lane is the leftmost.
fn lanes(svg: &mut Svg, house: &House, bands: &[(i32, i32)]) {
    // The layers each one imports, lowest first.
    let mut lanes: BTreeMap<usize, Vec<(usize, usize)>> = BTreeMap::new();
    for (&(from, to), &count) in &house.imports {
        lanes.entry(from).or_default().push((to, count));
    }
    let lanes_left = WIDTH - LEFT - lanes.len() as i32 * LANE;
    for (lane, (&from, targets)) in lanes.iter().enumerate() {
        let x = lanes_left + lane as i32 * LANE + LANE / 2;
        let ink = LAYER_COLOURS[from];
        let start = bands[from].0 + 8;
        let mut y = start + 14;
        for &(to, _) in targets.iter().rev() {
            let tip = bands[to].0 + 1;
            svg.arrow((x, y), (x, tip), ink);
            y = tip;
        }
        svg.rect(x - 7, start, 14, 14, ink, Some(colour::BLACK));
        for &(to, count) in targets {
            let tip = bands[to].0 + 1;
            svg.rect(x - 16, tip - 24, 32, 15, colour::WHITE, Some(ink));
            svg.text(x, tip - 12, 11, Anchor::Middle, &count.to_string());
        }
    }
}

/// The notes under the bands: what an import is, and what the drawing
/// checks.
fn notes(svg: &mut Svg, top: i32) {
    svg.text(
        LEFT,
        top + 8,
        11,
        Anchor::Start,
        "An import: a path outside comments (crate::, super::, a child module's or a use's name), followed through pub uses to the file that defines it.",
    );
    svg.text(
        LEFT,
        top + 24,
        11,
        Anchor::Start,
        "The layers are LAYERS of examples/pictures/architecture.rs; drawing this fails if a file of src/ is in none, or imports from a layer above.",
    );
}
