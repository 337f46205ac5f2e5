//! Pictures of grids: a level-k partial drawn as an SVG of hexagonal cells.
//!
//! Layout invariant (everything here, and the tests' pixel probes, rely on it):
//! cells are pointy-top regular hexagons of circumradius [`RADIUS`] pixels; the
//! cell with cube coordinates `(x, y, z)` has its centre at
//! `grid_centre + ((-z - x/2) * sqrt(3) * RADIUS, x * 1.5 * RADIUS)`, so the
//! centre cell sits at the middle of the drawing, skewed row `i` is drawn as a
//! horizontal row (as in the grid files), and two neighbouring cells share
//! exactly the side that is perpendicular to the segment joining their centres,
//! centred on its midpoint. One SVG user unit is one pixel.
//!
//! Drawing order is fixed (background, header, cells, digits, penalty edges)
//! and every number is printed with two decimals, so the same input always
//! gives the same bytes.

use std::fmt::Write;

use crate::geometry::Hexagon;
use crate::levels::{Partial, FULL_LEVEL};
use crate::validation::{evaluate, Evaluation, PenaltyKind};

/// Circumradius of a cell (centre to corner), in pixels.
pub const RADIUS: f64 = 22.0;
/// Blank space around the hexagon, in pixels.
const MARGIN: f64 = 16.0;
/// Height of the title and legend band above the hexagon, in pixels.
const HEADER: f64 = 64.0;
/// The legend needs this width whatever the side, so small hexagons get a wider canvas.
const MIN_WIDTH: f64 = 600.0;
/// Width of a penalty-edge stroke: wide enough to see, narrow enough to leave the digits clear.
const PENALTY_STROKE: f64 = 4.5;

/// Fill of a decided value 1..=4 (black, green, blue, purple).
pub const VALUE_FILLS: [&str; 4] = ["#1b1b1b", "#238b45", "#2563eb", "#7e3fb0"];
/// Fill of the values 5..=7: one light colour; the digit tells them apart.
pub const HIGH_FILL: &str = "#fdf3d8";
/// Fill of a `+` cell of a partial below the full level.
pub const PLUS_FILL: &str = "#bdbdbd";
/// Stroke of an edge between two equal values.
pub const EQUAL_STROKE: &str = "#e41a1c";
/// Stroke of an edge charged for duplicate support.
pub const DUPLICATE_STROKE: &str = "#ff8c00";
/// Outline of every cell.
const OUTLINE: &str = "#5a5a5a";
const BACKGROUND: &str = "#ffffff";
const DARK_TEXT: &str = "#1b1b1b";
const LIGHT_TEXT: &str = "#ffffff";
const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

/// Pixel positions of cells and edges for one hexagon (see the module invariant).
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    width: f64,
    height: f64,
    centre: (f64, f64),
}

impl Layout {
    /// The layout of the side-`n` hexagon of `hex`.
    pub fn new(hex: &Hexagon) -> Layout {
        let span = (2 * hex.side() - 1) as f64;
        // 2n-1 cells across the middle row; 2n-2 row steps plus one cell top to bottom.
        let grid_width = span * 3f64.sqrt() * RADIUS;
        let grid_height = (span - 1.0) * 1.5 * RADIUS + 2.0 * RADIUS;
        let width = (grid_width + 2.0 * MARGIN).max(MIN_WIDTH);
        let height = HEADER + grid_height + 2.0 * MARGIN;
        let centre = (width / 2.0, HEADER + MARGIN + grid_height / 2.0);
        Layout { width, height, centre }
    }

    /// Canvas size `(width, height)` in pixels.
    pub fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    /// Pixel position of the centre of a cell.
    pub fn cell_centre(&self, hex: &Hexagon, cell: usize) -> (f64, f64) {
        let (x, _y, z) = hex.cube(cell);
        let (x, z) = (f64::from(x), f64::from(z));
        (self.centre.0 + (-z - x / 2.0) * 3f64.sqrt() * RADIUS, self.centre.1 + x * 1.5 * RADIUS)
    }

    /// Pixel position of the midpoint of the side shared by two neighbouring cells.
    pub fn edge_midpoint(&self, hex: &Hexagon, u: usize, v: usize) -> (f64, f64) {
        let (a, b) = (self.cell_centre(hex, u), self.cell_centre(hex, v));
        ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
    }

    /// The two ends of the side shared by two neighbouring cells.
    pub fn shared_side(&self, hex: &Hexagon, u: usize, v: usize) -> [(f64, f64); 2] {
        let (a, b) = (self.cell_centre(hex, u), self.cell_centre(hex, v));
        let mid = self.edge_midpoint(hex, u, v);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        // A side of a regular hexagon is as long as its circumradius.
        let (px, py) = (-dy / len * RADIUS / 2.0, dx / len * RADIUS / 2.0);
        [(mid.0 - px, mid.1 - py), (mid.0 + px, mid.1 + py)]
    }

    /// A point inside a cell that its digit, outline and penalty strokes leave
    /// uncovered: 60% of the way from the centre to the lower-left corner.
    /// Tests sample the fill colour here.
    pub fn fill_probe(&self, hex: &Hexagon, cell: usize) -> (f64, f64) {
        let (cx, cy) = self.cell_centre(hex, cell);
        let angle = 150f64.to_radians();
        (cx + 0.6 * RADIUS * angle.cos(), cy + 0.6 * RADIUS * angle.sin())
    }
}

/// Fill and digit colour of a cell, and the text it shows.
pub fn cell_style(partial: &Partial, cell: usize) -> (&'static str, &'static str, String) {
    let value = partial.values()[cell];
    if is_plus(partial, cell) {
        return (PLUS_FILL, DARK_TEXT, "+".into());
    }
    match value {
        1..=4 => (VALUE_FILLS[usize::from(value) - 1], LIGHT_TEXT, value.to_string()),
        _ => (HIGH_FILL, DARK_TEXT, value.to_string()),
    }
}

/// At level 6 the stored `+` is the value 7, a decided value like any other.
fn is_plus(partial: &Partial, cell: usize) -> bool {
    partial.level() < FULL_LEVEL && partial.is_plus(cell)
}

/// Stroke colour of a penalty edge of the given kind.
pub fn penalty_stroke(kind: PenaltyKind) -> &'static str {
    match kind {
        PenaltyKind::Equal => EQUAL_STROKE,
        PenaltyKind::DuplicateSupport => DUPLICATE_STROKE,
    }
}

/// The SVG picture of a partial: coloured cells with their digits, `+` cells
/// grey, every counted penalty edge drawn on the shared side (red for equal
/// values, orange for duplicate support), and a title and legend line.
pub fn render_svg(hex: &Hexagon, partial: &Partial) -> String {
    let layout = Layout::new(hex);
    let evaluation = evaluate(hex, partial);
    let (width, height) = layout.size();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">"#
    );
    let _ = writeln!(svg, "<title>{}</title>", title(partial, &evaluation));
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="{BACKGROUND}"/>"#);
    write_header(&mut svg, partial, &evaluation);
    write_cells(&mut svg, hex, &layout, partial);
    write_penalty_edges(&mut svg, hex, &layout, &evaluation);
    svg.push_str("</svg>\n");
    svg
}

/// One line naming what is drawn: side, level, penalty, score of a full grid, validity.
fn title(partial: &Partial, evaluation: &Evaluation) -> String {
    let mut line = format!("n = {} · level {} · penalty {}", partial.side(), partial.level(), evaluation.penalty);
    if let Some(score) = evaluation.score {
        let _ = write!(line, " · score {score}");
    }
    if !evaluation.is_valid() {
        let _ = write!(line, " · INVALID: {} cells lack support", evaluation.violations.len());
    }
    line
}

/// Title line, then a legend of swatches: values, `+` (below level 6), edge kinds.
fn write_header(svg: &mut String, partial: &Partial, evaluation: &Evaluation) {
    let _ = writeln!(
        svg,
        r#"<text x="{MARGIN:.2}" y="26.00" font-family="{FONT}" font-size="18" font-weight="bold" fill="{DARK_TEXT}">{}</text>"#,
        title(partial, evaluation)
    );
    write_legend(svg, partial.level());
}

/// One row of swatches; label widths are estimated (fonts differ), generously.
fn write_legend(svg: &mut String, level: u8) {
    let y = 40.0;
    let _ = writeln!(svg, r#"<g font-family="{FONT}" font-size="13" fill="{DARK_TEXT}">"#);
    let mut x = MARGIN;
    for (fill, label) in legend_swatches(level) {
        let _ = writeln!(
            svg,
            r#"<rect x="{x:.2}" y="{y:.2}" width="14" height="14" fill="{fill}" stroke="{OUTLINE}"/><text x="{:.2}" y="{:.2}">{label}</text>"#,
            x + 18.0,
            y + 12.0
        );
        x += if label.len() > 1 { 58.0 } else { 40.0 };
    }
    for (stroke, label) in [(EQUAL_STROKE, "equal values"), (DUPLICATE_STROKE, "duplicate support")] {
        let _ = writeln!(
            svg,
            r#"<line x1="{x:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{stroke}" stroke-width="{PENALTY_STROKE}"/><text x="{:.2}" y="{:.2}">{label}</text>"#,
            y + 7.0,
            x + 20.0,
            y + 7.0,
            x + 25.0,
            y + 12.0
        );
        x += 40.0 + 7.5 * label.len() as f64;
    }
    svg.push_str("</g>\n");
}

/// The fills a level-k partial can show, with their labels: only values that
/// can occur at that level, so the legend of a partial does not promise 3s at level 2.
fn legend_swatches(level: u8) -> Vec<(&'static str, &'static str)> {
    let mut items: Vec<(&str, &str)> =
        ["1", "2", "3", "4"].into_iter().enumerate().map(|(k, label)| (VALUE_FILLS[k], label)).collect();
    items.truncate(usize::from(level.min(4)));
    match level {
        5 => items.push((HIGH_FILL, "5")),
        FULL_LEVEL => items.push((HIGH_FILL, "5–7")),
        _ => {}
    }
    if level < FULL_LEVEL {
        items.push((PLUS_FILL, "+"));
    }
    items
}

/// Every cell as one `<use>` of its kind's tile (a filled hexagon with its
/// digit, defined once in `<defs>`, only the kinds the partial shows), so a
/// cell costs one short line and the side-27 picture stays small. Tiles are
/// centred on the origin; a digit lies well inside its hexagon, so no
/// neighbour's outline reaches it.
fn write_cells(svg: &mut String, hex: &Hexagon, layout: &Layout, partial: &Partial) {
    let styles: Vec<_> = (0..hex.cell_count()).map(|cell| cell_style(partial, cell)).collect();
    let mut kinds: Vec<&(&str, &str, String)> = Vec::new();
    for style in &styles {
        if !kinds.iter().any(|k| k.2 == style.2) {
            kinds.push(style);
        }
    }
    kinds.sort_by_key(|k| tile_id(&k.2));
    let corners: Vec<String> = (0..6)
        .map(|k| {
            let angle = (-90.0 + 60.0 * f64::from(k)).to_radians();
            format!("{:.2},{:.2}", RADIUS * angle.cos(), RADIUS * angle.sin())
        })
        .collect();
    let font_size = 0.85 * RADIUS;
    // Digits are about 0.72 em tall; shift the baseline so they sit centred.
    let baseline = 0.36 * font_size;
    svg.push_str("<defs>\n");
    for (fill, ink, text) in kinds {
        let _ = writeln!(
            svg,
            r#"<g id="{}"><polygon points="{}" fill="{fill}" stroke="{OUTLINE}" stroke-width="1.2"/><text y="{baseline:.2}" fill="{ink}">{text}</text></g>"#,
            tile_id(text),
            corners.join(" ")
        );
    }
    svg.push_str("</defs>\n");
    // A used tile inherits from its `<use>`, not from `<defs>`: the text's properties go on the group of uses.
    let _ = writeln!(
        svg,
        r#"<g stroke-linejoin="round" font-family="{FONT}" font-size="{font_size:.2}" font-weight="bold" text-anchor="middle">"#
    );
    for (cell, (_, _, text)) in styles.iter().enumerate() {
        let (cx, cy) = layout.cell_centre(hex, cell);
        let _ = writeln!(svg, r##"<use href="#{}" x="{cx:.2}" y="{cy:.2}"/>"##, tile_id(text));
    }
    svg.push_str("</g>\n");
}

/// The id of the tile of a cell showing `text` (a digit, or `+`).
fn tile_id(text: &str) -> String {
    if text == "+" {
        "p".into()
    } else {
        format!("v{text}")
    }
}

/// Each counted penalty edge as a thick stroke on the side the two cells share,
/// in a stable order (sorted by edge) so output does not depend on evaluation order.
fn write_penalty_edges(svg: &mut String, hex: &Hexagon, layout: &Layout, evaluation: &Evaluation) {
    let mut edges: Vec<_> = evaluation.penalty_edges.iter().map(|e| (e.u, e.v, e.kind)).collect();
    edges.sort_by_key(|&(u, v, kind)| (u, v, kind == PenaltyKind::DuplicateSupport));
    let _ = writeln!(svg, r#"<g stroke-width="{PENALTY_STROKE}" stroke-linecap="butt">"#);
    for (u, v, kind) in edges {
        let [(x1, y1), (x2, y2)] = layout.shared_side(hex, u, v);
        let _ = writeln!(
            svg,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{}"/>"#,
            penalty_stroke(kind)
        );
    }
    svg.push_str("</g>\n");
}
