//! The picture of a survey (`survey --plot`): for each game in the table's order, where its
//! values become periodic (preperiod plus period, log scale), and for the open games how many
//! values were computed without finding one.

use std::path::Path;

use plotters::prelude::*;
use serde_json::Value;

use super::{Canvas, DrawError, FONT, PALETTE};
use crate::common::Result;

const SIZE: (u32, u32) = (1400, 800);

/// Writes the picture of the game objects `rows` (those of `survey --json`) to `path`.
pub fn draw(path: &Path, rows: &[Value], patterns: &[String]) -> Result<()> {
    let number = |row: &Value, key: &str| row["normal"][key].as_u64();
    let mut periodic = Vec::new();
    let mut open = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match (number(row, "preperiod"), number(row, "period")) {
            (Some(n0), Some(p)) => periodic.push((i as f64, (n0 + p) as f64)),
            _ => open.push((i as f64, number(row, "values").unwrap_or(1).max(1) as f64)),
        }
    }
    let title = format!(
        "{}: {} games, {} periodic, {} open",
        patterns.join(" "),
        rows.len(),
        periodic.len(),
        open.len()
    );
    super::write_svg(path, SIZE, |root| chart(root, &title, rows.len(), &periodic, &open))
}

fn chart(
    root: &Canvas,
    title: &str,
    games: usize,
    periodic: &[(f64, f64)],
    open: &[(f64, f64)],
) -> std::result::Result<(), DrawError> {
    let area = root.titled(title, (FONT, 24))?;
    let top = periodic.iter().chain(open).map(|p| p.1).fold(10.0f64, f64::max) * 2.0;
    let mut chart = ChartBuilder::on(&area)
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(-1.0..games as f64, (1.0..top).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("game, in the order of the table")
        .y_desc("preperiod + period; open: values computed (log scale)")
        .axis_desc_style((FONT, 18))
        .label_style((FONT, 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let (blue, red) = (PALETTE[0], PALETTE[3]);
    chart
        .draw_series(periodic.iter().map(|&p| Circle::new(p, 4, blue.filled())))?
        .label("periodic: preperiod + period")
        .legend(move |(x, y)| Circle::new((x + 10, y), 4, blue.filled()));
    chart
        .draw_series(open.iter().map(|&p| Cross::new(p, 6, red.stroke_width(2))))?
        .label("open: values computed, no period proven")
        .legend(move |(x, y)| Cross::new((x + 10, y), 6, red.stroke_width(2)));
    chart
        .configure_series_labels()
        .label_font((FONT, 16))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
}
