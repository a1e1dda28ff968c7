//! A small SVG writer: integer coordinates only, so that the bytes drawn
//! are the same on every machine, and one palette whose colours each
//! picture names in words too (a legend, or the text in the shape).

use std::fmt::Write as _;

/// The palette (Okabe and Ito's, told apart by colour-blind readers too).
pub mod colour {
    pub const BLUE: &str = "#0072B2";
    pub const SKY: &str = "#56B4E9";
    pub const ORANGE: &str = "#E69F00";
    pub const GREEN: &str = "#009E73";
    pub const YELLOW: &str = "#F0E442";
    pub const VERMILLION: &str = "#D55E00";
    pub const PURPLE: &str = "#CC79A7";
    pub const BLACK: &str = "#000000";
    pub const GREY: &str = "#999999";
    pub const LIGHT: &str = "#E8E8E8";
    pub const WHITE: &str = "#FFFFFF";
}

/// Text placement along the x axis.
#[derive(Clone, Copy)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// An SVG picture being drawn.
pub struct Svg {
    width: i32,
    height: i32,
    body: String,
}

impl Svg {
    /// A white picture `width` by `height` pixels, titled `title` (what a
    /// screen reader says of it).
    pub fn new(width: i32, height: i32, title: &str) -> Svg {
        let mut svg = Svg {
            width,
            height,
            body: String::new(),
        };
        let _ = writeln!(svg.body, "<title>{}</title>", escape(title));
        svg.rect(0, 0, width, height, colour::WHITE, None);
        svg
    }

    /// A rectangle, filled, with an outline if `stroke` is given.
    pub fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, fill: &str, stroke: Option<&str>) {
        let stroke = stroke.map_or(String::new(), |s| format!(r#" stroke="{s}""#));
        let _ = writeln!(
            self.body,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}"{stroke}/>"#
        );
    }

    /// A rectangle outlined `width` pixels thick, not filled.
    pub fn frame(&mut self, x: i32, y: i32, w: i32, h: i32, stroke: &str, width: i32) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="none" stroke="{stroke}" stroke-width="{width}"/>"#
        );
    }

    /// A straight line.
    pub fn line(&mut self, from: (i32, i32), to: (i32, i32), stroke: &str, width: i32) {
        let ((x1, y1), (x2, y2)) = (from, to);
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" stroke-width="{width}"/>"#
        );
    }

    /// An arrow from `from` to `to` (a line with a head).
    pub fn arrow(&mut self, from: (i32, i32), to: (i32, i32), stroke: &str) {
        self.line(from, to, stroke, 2);
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        // A head of two short strokes, along the axis the arrow mostly runs.
        let (bx, by) = if dx.abs() >= dy.abs() {
            (-dx.signum() * 6, 0)
        } else {
            (0, -dy.signum() * 6)
        };
        let (px, py) = (by.signum() * 4, bx.signum() * 4);
        self.line(to, (to.0 + bx + px, to.1 + by + py), stroke, 2);
        self.line(to, (to.0 + bx - px, to.1 + by - py), stroke, 2);
    }

    /// Text whose baseline starts, is centred or ends at (`x`, `y`).
    pub fn text(&mut self, x: i32, y: i32, size: i32, anchor: Anchor, text: &str) {
        self.styled_text(x, y, size, anchor, colour::BLACK, false, text);
    }

    /// Bold text.
    pub fn bold(&mut self, x: i32, y: i32, size: i32, anchor: Anchor, text: &str) {
        self.styled_text(x, y, size, anchor, colour::BLACK, true, text);
    }

    /// Text in a colour, bold or not.
    #[allow(clippy::too_many_arguments)]
    pub fn styled_text(
        &mut self,
        x: i32,
        y: i32,
        size: i32,
        anchor: Anchor,
        fill: &str,
        bold: bool,
        text: &str,
    ) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let weight = if bold { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(
            self.body,
            r#"<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{weight}>{}</text>"#,
            escape(text)
        );
    }

    /// Lines of text `size` pixels high, 16 apart, the first's baseline at
    /// (`x`, `y`).
    pub fn lines(&mut self, x: i32, y: i32, size: i32, lines: &[&str]) {
        for (i, line) in lines.iter().enumerate() {
            self.text(x, y + 16 * i as i32, size, Anchor::Start, line);
        }
    }

    /// A picture's heading: its title in bold at the top left, then the
    /// lines that say what it shows.
    pub fn heading(&mut self, title: &str, lines: &[&str]) {
        self.bold(10, 22, 16, Anchor::Start, title);
        self.lines(10, 40, 13, lines);
    }

    /// A legend: one swatch per colour, each followed by what it means,
    /// in a row from (`x`, `y`); returns the x where it ends.
    pub fn legend(&mut self, x: i32, y: i32, items: &[(&str, &str)]) -> i32 {
        let mut x = x;
        for &(fill, meaning) in items {
            self.rect(x, y - 11, 14, 14, fill, Some(colour::BLACK));
            self.text(x + 19, y, 13, Anchor::Start, meaning);
            x += 19 + 8 * meaning.chars().count() as i32 + 22;
        }
        x
    }

    /// The finished document.
    pub fn finish(self) -> String {
        format!(
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" "#,
                r#"font-family="DejaVu Sans, Verdana, sans-serif">"#,
                "\n{2}</svg>\n"
            ),
            self.width, self.height, self.body
        )
    }
}

/// `text` with the characters XML reserves escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
