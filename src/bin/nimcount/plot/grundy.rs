//! The picture of `nimcount grundy --plot`: `G(n)` against `n`.
//!
//! Up to [`MAX_POINTS`] values are drawn as points; beyond, as a density view: the heap sizes
//! are cut into columns of equal width, the values into rows, and each cell is shaded by the
//! share of its column's heap sizes whose value falls in its row, on a log scale (eight shades:
//! up to 1/128, 1/64, …, 1/2, 1), so rare values stay visible beside common ones. Cells of one
//! row with the same shade in consecutive columns are drawn as one rectangle, and the columns
//! are halved until at most [`MAX_CELLS`] rectangles remain, so a picture of 10^6 values stays
//! well under 2 MB. The proven period is drawn over the values: the preperiod shaded, the
//! period boundaries as vertical lines, and for a positive saltus the lines of slope
//! saltus / period on which each residue class lies; the caption states the theorem, or that
//! no period is proven.

use std::ops::Range;
use std::path::Path;

use crate::common::{Result, usage};
use nimcount::game::Game;
use nimcount::grundy::{self, Certificate, PeriodSearch};
use nimcount::progress::Progress;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Canvas, DrawError, FONT, PALETTE};

/// Pixels of the picture.
pub const SIZE: (u32, u32) = (1200, 800);
/// At most this many values are drawn as points.
pub const MAX_POINTS: usize = 4096;
/// The density view starts with this many columns (about two pixels each).
pub const COLUMNS: u64 = 512;
/// The density view has at most this many rows.
pub const ROWS: u64 = 200;
/// The density view draws at most this many rectangles (about 80 bytes each).
pub const MAX_CELLS: usize = 16_000;
/// Shades of the density view, lightest first (ColorBrewer "Blues").
pub const SHADES: [RGBColor; 8] = [
    RGBColor(0xde, 0xeb, 0xf7),
    RGBColor(0xc6, 0xdb, 0xef),
    RGBColor(0x9e, 0xca, 0xe1),
    RGBColor(0x6b, 0xae, 0xd6),
    RGBColor(0x42, 0x92, 0xc6),
    RGBColor(0x21, 0x71, 0xb5),
    RGBColor(0x08, 0x51, 0x9c),
    RGBColor(0x08, 0x30, 0x6b),
];
/// Pixels of one entry of the key of the shades.
const KEY_STEP: i32 = 62;
/// Without `--first` and with a proven period, at least this many values are drawn.
const MIN_SHOWN: u64 = 100;
/// At most this many period boundaries are drawn; beyond, only the first period is marked.
const MAX_BOUNDARIES: u64 = 40;
/// At most this many saltus lines are drawn; beyond, only the lowest and the highest.
const MAX_SALTUS_LINES: usize = 12;

const PREPERIOD: RGBColor = RGBColor(0xfe, 0xe6, 0xce);
const BOUNDARY: RGBColor = PALETTE[2];
const SALTUS: RGBColor = PALETTE[3];

/// The values to draw: `G(0) … G(first - 1)`, or without `first` the values the period search
/// computed (at least [`MIN_SHOWN`] when a period is proven). Values beyond those computed come
/// from the proven period, or else are computed.
pub fn sequence(
    game: &Game,
    first: Option<u64>,
    search: &PeriodSearch,
    progress: &dyn Progress,
) -> Result<Vec<u32>> {
    let proven = search.certificate.is_some();
    let count =
        first.unwrap_or(if proven { search.checked_upto.max(MIN_SHOWN) } else { search.checked_upto });
    if count == 0 {
        return Err(usage("nothing to draw: no Grundy values were computed"));
    }
    if let Some(prefix) = usize::try_from(count).ok().and_then(|c| search.values.get(..c)) {
        return Ok(prefix.to_vec());
    }
    if proven && count <= grundy::MAX_HEAP {
        nimcount::memory::ensure_fits(
            || format!("a picture of {count} Grundy values"),
            count.saturating_mul(4),
        )?;
        let through_period: Option<Vec<u32>> =
            (0..count).map(|n| search.value(u128::from(n)).and_then(|v| u32::try_from(v).ok())).collect();
        if let Some(values) = through_period {
            return Ok(values);
        }
    }
    Ok(grundy::values(game, count, progress)?)
}

/// A rectangle of the density view: columns `columns` of row `row`, with shade `level`
/// (1 to 8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Row (values `row · row_height .. (row + 1) · row_height`).
    pub row: u64,
    /// Columns (heap sizes `start · column_width .. end · column_width`, the last one cut at
    /// the number of values).
    pub columns: Range<u64>,
    /// 1 to 8: the share (heap sizes of the column with a value in the row / heap sizes of the
    /// column) is at most `2^(level - 8)` and, below 8, above half that; 1 for any share up to
    /// 1/128.
    pub level: u8,
}

/// The density view of a sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Density {
    /// Heap sizes per column.
    pub column_width: u64,
    /// Values per row.
    pub row_height: u64,
    /// Rows: `⌈(max value + 1) / row_height⌉`.
    pub rows: u64,
    /// Non-empty cells, merged along rows.
    pub cells: Vec<Cell>,
}

/// The shade of `count` heap sizes among `total` (see [`Cell::level`]), 0 for none.
fn level(count: u64, total: u64) -> u8 {
    if count == 0 {
        return 0;
    }
    // Halvings of the share until it exceeds 1/2: share in (2^-(j+1), 2^-j].
    let halvings = (0..7u32).find(|&j| count << (j + 1) > total).unwrap_or(7);
    8 - halvings as u8
}

/// The largest share of each shade, as the key writes it.
const SHADE_LABELS: [&str; 8] = ["1/128", "1/64", "1/32", "1/16", "1/8", "1/4", "1/2", "1"];

/// The density view of `values` in at most `columns` columns and `rows` rows.
pub fn density(values: &[u32], columns: u64, rows: u64) -> Density {
    let n = values.len() as u64;
    let top = values.iter().copied().max().map_or(1, |m| u64::from(m) + 1);
    let column_width = n.div_ceil(columns.max(1)).max(1);
    let row_height = top.div_ceil(rows.max(1)).max(1);
    let rows = top.div_ceil(row_height);
    let mut counts = vec![0u64; rows as usize];
    // The open run of each row: (first column, shade).
    let mut open: Vec<Option<(u64, u8)>> = vec![None; rows as usize];
    let mut cells = Vec::new();
    let mut close = |row: usize, end: u64, run: Option<(u64, u8)>| {
        if let Some((start, level)) = run {
            cells.push(Cell { row: row as u64, columns: start..end, level });
        }
    };
    let mut column = 0;
    for chunk in values.chunks(column_width as usize) {
        counts.fill(0);
        for &v in chunk {
            counts[(u64::from(v) / row_height) as usize] += 1;
        }
        for (row, &count) in counts.iter().enumerate() {
            let shade = level(count, chunk.len() as u64);
            match open[row] {
                Some((_, l)) if l == shade => {}
                run => {
                    close(row, column, run);
                    open[row] = (shade > 0).then_some((column, shade));
                }
            }
        }
        column += 1;
    }
    for (row, run) in open.into_iter().enumerate() {
        close(row, column, run);
    }
    cells.sort_by_key(|c| (c.row, c.columns.start));
    Density { column_width, row_height, rows, cells }
}

/// [`density`] with [`COLUMNS`] columns, halved until at most [`MAX_CELLS`] cells remain.
pub fn density_within_budget(values: &[u32]) -> Density {
    let mut columns = COLUMNS;
    loop {
        let view = density(values, columns, ROWS);
        if view.cells.len() <= MAX_CELLS || columns <= 16 {
            return view;
        }
        columns /= 2;
    }
}

/// Writes the picture of `values` (`G(0) …`) of `search.game` to `path`.
pub fn draw(path: &Path, values: &[u32], search: &PeriodSearch, max_heap: u64) -> Result<()> {
    let view = (values.len() > MAX_POINTS).then(|| density_within_budget(values));
    let caption = caption(values.len() as u64, search, max_heap, view.as_ref());
    super::write_svg(path, SIZE, |root| draw_picture(root, values, search, view.as_ref(), &caption))
}

/// Where the first `count` period boundaries fall, and whether all of them are drawn.
fn boundaries(c: &Certificate, count: u64) -> (Vec<u64>, bool) {
    let all: u64 = if c.preperiod >= count { 0 } else { (count - 1 - c.preperiod) / c.period + 1 };
    let drawn = all.min(if all > MAX_BOUNDARIES { 2 } else { all });
    ((0..drawn).map(|k| c.preperiod + k * c.period).collect(), drawn == all)
}

/// The lines `y = G(r) + (x − r) · s / p` through the residue classes `r` of the first period,
/// one per distinct line, as `(r, G(r))`; only the lowest and highest when there are many.
fn saltus_lines(values: &[u32], c: &Certificate) -> Vec<(u64, u32)> {
    if c.saltus == 0 {
        return Vec::new();
    }
    let (p, s) = (i128::from(c.period), i128::from(c.saltus));
    let mut lines: Vec<(i128, u64, u32)> = (c.preperiod..c.preperiod.saturating_add(c.period))
        .filter_map(|r| values.get(r as usize).map(|&g| (i128::from(g) * p - i128::from(r) * s, r, g)))
        .collect();
    lines.sort();
    lines.dedup_by_key(|l| l.0);
    if lines.len() > MAX_SALTUS_LINES {
        lines = vec![lines[0], lines[lines.len() - 1]];
    }
    lines.into_iter().map(|(_, r, g)| (r, g)).collect()
}

/// The lines under the chart: the period (or its absence), the theorem, the view.
fn caption(count: u64, search: &PeriodSearch, max_heap: u64, view: Option<&Density>) -> Vec<String> {
    let mut lines = Vec::new();
    match &search.certificate {
        Some(c) => {
            let pre = match c.preperiod {
                0 => "preperiod 0 (purely periodic)".to_string(),
                n0 => format!("preperiod {n0} (shaded; last exception at n = {})", n0 - 1),
            };
            let (_, all) = boundaries(c, count);
            let marks = if all {
                "period boundaries marked".to_string()
            } else {
                format!(
                    "first period marked; the {} periods shown are too many to mark",
                    (count - c.preperiod) / c.period
                )
            };
            let saltus = match c.saltus {
                0 => "saltus 0".to_string(),
                s => format!(
                    "saltus {s}: G(n+{p}) = G(n) + {s} for n >= {n0}, each residue class mod {p} on a line of \
                     slope {s}/{p} (red)",
                    p = c.period,
                    n0 = c.preperiod
                ),
            };
            lines.push(format!("{pre}, period {} ({marks}), {saltus}", c.period));
            lines.extend(super::wrap(&format!("proven by the theorem: {}", c.theorem), 190));
        }
        None if search.never_periodic && search.game == "squares" => lines.push(
            "never periodic: subtract-a-square has infinitely many losing positions, of density 0 \
             (no period to draw)"
                .into(),
        ),
        None if search.never_periodic => lines.push(
            "never periodic: take at most half has G(2n) = n, which grows without bound (no period to draw)"
                .into(),
        ),
        None => lines.push(format!(
            "no period found in G(0) … G({}): no periodicity is proven, so none is drawn",
            max_heap.saturating_sub(1)
        )),
    }
    match view {
        None => lines.push("one point per heap size n".into()),
        Some(d) => {
            let rows = if d.row_height == 1 {
                "one row per value".to_string()
            } else {
                format!("each row {} values", d.row_height)
            };
            lines.push(format!("density view: each column {} heap sizes, {rows}", d.column_width));
            // Drawn after the key of the shades.
            lines.push(
                "shade: share of the column's heap sizes with a value in the row, up to the number shown"
                    .into(),
            );
        }
    }
    lines
}

fn draw_picture(
    root: &Canvas,
    values: &[u32],
    search: &PeriodSearch,
    view: Option<&Density>,
    caption: &[String],
) -> std::result::Result<(), DrawError> {
    let n = values.len() as u64;
    let title = format!("Grundy values of {}: G(0) … G({})", search.game, n - 1);
    let area = root.titled(&title, (FONT, 24))?;
    let caption_height = 24 * caption.len() as u32 + 30;
    let (chart_area, caption_area) = area.split_vertically(area.dim_in_pixel().1 - caption_height);

    let top = match view {
        Some(d) => (d.rows * d.row_height) as f64,
        None => values.iter().copied().max().map_or(1.0, |m| f64::from(m) + 1.0),
    };
    let pad = (n as f64 / 100.0).max(0.5);
    let x_range = -pad..(n as f64 - 0.5 + pad);
    let y_range = -0.5 - top * 0.02..top * 1.06 + 0.5;
    let mut chart = ChartBuilder::on(&chart_area)
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range.clone(), y_range.clone())?;
    chart
        .configure_mesh()
        .x_desc("n (heap size)")
        .y_desc("G(n)")
        .axis_desc_style((FONT, 18))
        .label_style((FONT, 15))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;

    // Heap size n covers n − 0.5 .. n + 0.5.
    let edge = |n: u64| n as f64 - 0.5;
    if let Some(c) = &search.certificate
        && c.preperiod > 0
    {
        let end = edge(c.preperiod.min(n));
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x_range.start, y_range.start), (end, y_range.end)],
            PREPERIOD.filled(),
        )))?;
        if c.preperiod.min(n) * 10 >= n {
            let label = (FONT, 15).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Top));
            chart.draw_series(std::iter::once(Text::new(
                "preperiod",
                (x_range.start, y_range.end),
                label,
            )))?;
        }
    }

    match view {
        None => {
            let radius = if n <= 500 { 3 } else { 2 };
            chart.draw_series(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &g)| Circle::new((i as f64, f64::from(g)), radius, PALETTE[0].filled())),
            )?;
        }
        Some(d) => {
            chart.draw_series(d.cells.iter().map(|cell| {
                let x0 = edge(cell.columns.start * d.column_width);
                let x1 = edge((cell.columns.end * d.column_width).min(n));
                let (y0, y1) =
                    ((cell.row * d.row_height) as f64 - 0.5, ((cell.row + 1) * d.row_height) as f64 - 0.5);
                Rectangle::new([(x0, y0), (x1, y1)], SHADES[usize::from(cell.level) - 1].filled())
            }))?;
        }
    }

    if let Some(c) = &search.certificate {
        let (starts, _) = boundaries(c, n);
        let style = BOUNDARY.stroke_width(1);
        chart.draw_series(
            starts
                .iter()
                .map(|&b| PathElement::new(vec![(edge(b), y_range.start), (edge(b), y_range.end)], style)),
        )?;
        let slope = c.saltus as f64 / c.period as f64;
        let last = n as f64 - 1.0;
        chart.draw_series(saltus_lines(values, c).into_iter().map(|(r, g)| {
            let at = |x: f64| f64::from(g) + (x - r as f64) * slope;
            let from = c.preperiod as f64;
            PathElement::new(vec![(from, at(from)), (last, at(last))], SALTUS.mix(0.7).stroke_width(1))
        }))?;
    }

    let text = (FONT, 15).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Top));
    for (i, line) in caption.iter().enumerate() {
        let key = view.is_some() && i + 1 == caption.len();
        let x = if key { 30 + KEY_STEP * SHADES.len() as i32 } else { 20 };
        caption_area.draw(&Text::new(line.clone(), (x, 8 + 24 * i as i32), text.clone()))?;
    }
    if view.is_some() {
        // The key of the shades, at the start of the last caption line.
        let y = 8 + 24 * (caption.len() as i32 - 1);
        for (k, (shade, label)) in SHADES.iter().zip(SHADE_LABELS).enumerate() {
            let x = 20 + KEY_STEP * k as i32;
            caption_area.draw(&Rectangle::new([(x, y), (x + 16, y + 16)], shade.filled()))?;
            caption_area.draw(&Text::new(label, (x + 20, y), text.clone()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// The density view by definition: every heap size counted into its cell, one cell per
    /// column and row.
    fn reference(values: &[u32], column_width: u64, row_height: u64) -> BTreeMap<(u64, u64), u8> {
        let mut counts: BTreeMap<(u64, u64), u64> = BTreeMap::new();
        for (n, &g) in values.iter().enumerate() {
            *counts.entry((n as u64 / column_width, u64::from(g) / row_height)).or_default() += 1;
        }
        let n = values.len() as u64;
        counts
            .into_iter()
            .map(|((column, row), count)| {
                let width = column_width.min(n - column * column_width);
                let share = count as f64 / width as f64;
                let level = (1..=8u8).find(|&l| share <= 2f64.powi(i32::from(l) - 8)).unwrap();
                ((column, row), level)
            })
            .collect()
    }

    fn check(values: &[u32], columns: u64, rows: u64) {
        let view = density(values, columns, rows);
        let max = values.iter().copied().max().unwrap_or(0);
        assert!(view.rows * view.row_height > u64::from(max), "every value has a row");
        assert!(view.rows <= rows.max(1));
        assert!(values.len() as u64 <= view.column_width * columns.max(1), "every heap size has a column");
        let mut expanded = BTreeMap::new();
        for cell in &view.cells {
            assert!((1..=8).contains(&cell.level) && !cell.columns.is_empty());
            for column in cell.columns.clone() {
                assert_eq!(expanded.insert((column, cell.row), cell.level), None, "cells overlap");
            }
        }
        assert_eq!(expanded, reference(values, view.column_width, view.row_height));
        for pair in view.cells.windows(2) {
            let merged = pair[0].row == pair[1].row && pair[0].columns.end == pair[1].columns.start;
            assert!(!(merged && pair[0].level == pair[1].level), "runs are merged: {pair:?}");
        }
    }

    #[test]
    fn density_matches_the_definition() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        for _ in 0..200 {
            let n = 1 + random(3000) as usize;
            let spread = 1 + random(500);
            let values: Vec<u32> = (0..n).map(|_| random(spread) as u32).collect();
            check(&values, 1 + random(700), 1 + random(300));
        }
        // Edge cases: one value, constant sequences, one column, one row, G(n) = n, a value at u32::MAX.
        check(&[0], 512, 200);
        check(&[5; 1000], 512, 200);
        check(&(0..5000).collect::<Vec<u32>>(), 1, 1);
        check(&(0..5000).collect::<Vec<u32>>(), 512, 200);
        check(&[0, u32::MAX, 7, u32::MAX - 1], 3, 200);
        check(&(0..10_000).map(|n| n % 3).collect::<Vec<u32>>(), 0, 0);
    }

    #[test]
    fn shades_on_a_log_scale() {
        let shades: Vec<u8> =
            [0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 31, 32, 33, 63, 64].map(|c| level(c, 64)).to_vec();
        assert_eq!(shades, [0, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8]);
        assert_eq!(level(1, 1), 8);
        assert_eq!(level(1, 1000), 1);
        assert_eq!(level(1, 127), 2);
        assert_eq!(level(1, 128), 1, "up to 1/128");
        assert_eq!(level(1, 129), 1);
        assert_eq!(level(u64::from(u32::MAX), u64::from(u32::MAX)), 8);
    }

    #[test]
    fn periodic_columns_merge_into_one_cell_per_value() {
        // Period 3 in columns of 36: every column holds twelve of each value, share 1/3, shade 7.
        let values: Vec<u32> = (0..18_000).map(|n| n % 3).collect();
        let view = density_within_budget(&values);
        assert_eq!(view.column_width, 36);
        let cells: Vec<(u64, u8)> = view.cells.iter().map(|c| (c.row, c.level)).collect();
        assert_eq!(cells, [(0, 7), (1, 7), (2, 7)]);
    }

    #[test]
    fn the_budget_halves_the_columns() {
        // In columns of 2048, even rows in even columns and odd rows in odd ones: no run
        // merges, 512 · 100 cells, beyond the budget; halved, every column has every row.
        let values: Vec<u32> = (0..1 << 20)
            .map(|n: u32| 2 * ((n.wrapping_mul(2_654_435_761) >> 5) % 100) + (n >> 11) % 2)
            .collect();
        assert_eq!(density(&values, COLUMNS, ROWS).cells.len(), 512 * 100);
        let view = density_within_budget(&values);
        assert_eq!(view.column_width, 4096);
        assert_eq!(view.cells.len(), 200);
    }
}
