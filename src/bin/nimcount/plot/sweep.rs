//! The picture of `nimcount bench --sweep --plot`: ns per element per level against log2 of
//! the size, one solid line per ring (or storage type of the Hadamard transform), its baseline dashed and thinner in the same colour, the data
//! caches of this CPU as vertical marks where a buffer of that many elements fills them.

use std::path::Path;

use crate::common::Result;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Canvas, DrawError, FONT, PALETTE};
use crate::bench::Measurement;
use crate::machine::{self, Cache};

/// Pixels of the picture.
pub const SIZE: (u32, u32) = (1200, 700);
/// Pixels to the right of the chart, for the legend.
const LEGEND_WIDTH: u32 = 300;

/// What the picture shows besides the measurements.
pub struct Context {
    /// The sizes swept, as log2 `k` of the lengths `m·2^k`.
    pub sizes: std::ops::RangeInclusive<u32>,
    /// `m` of the lengths `m·2^k` (1 for the powers of two).
    pub order: u64,
    /// What was timed, for the title: `Forward transform`.
    pub what: &'static str,
    /// The series ([`Measurement::label`]), in the order of the legend.
    pub series: Vec<String>,
    /// Worker threads.
    pub threads: usize,
    /// The kernel backend.
    pub backend: &'static str,
}

/// One line of the picture.
struct Series {
    label: String,
    colour: RGBColor,
    textbook: bool,
    /// (log2, ns per element per level).
    points: Vec<(f64, f64)>,
}

/// Writes the picture of `measurements` to `path`.
pub fn draw(path: &Path, measurements: &[Measurement], context: &Context) -> Result<()> {
    let series = series(measurements, context);
    let title = title(machine::cpu_model(), context);
    let marks = cache_marks(&machine::caches(), measurements, context);
    super::write_svg(path, SIZE, |root| draw_chart(root, &title, &series, &marks, context))
}

/// The CPU model, threads and backend.
fn title(cpu: Option<String>, context: &Context) -> String {
    let threads = context.threads;
    format!(
        "{} on {}, {threads} thread{}, backend {}",
        context.what,
        cpu.as_deref().unwrap_or("an unknown CPU"),
        if threads == 1 { "" } else { "s" },
        context.backend
    )
}

/// The ends of the x axis: log2 of the shortest and longest lengths.
fn x_bounds(context: &Context) -> (f64, f64) {
    let shift = (context.order.max(1) as f64).log2();
    (f64::from(*context.sizes.start()) + shift, f64::from(*context.sizes.end()) + shift)
}

fn series(measurements: &[Measurement], context: &Context) -> Vec<Series> {
    let mut all = Vec::new();
    for (i, label) in context.series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let mine: Vec<&Measurement> = measurements.iter().filter(|m| &m.label() == label).collect();
        let point = |m: &Measurement, t| (m.levels(), m.ns_per_element_level(t));
        let baseline =
            if mine.iter().any(|m| m.storage.is_some()) { "separate passes" } else { "textbook loop" };
        all.push(Series {
            label: label.clone(),
            colour,
            textbook: false,
            points: mine.iter().map(|m| point(m, m.fast)).collect(),
        });
        let textbook: Vec<(f64, f64)> = mine.iter().filter_map(|m| m.textbook.map(|t| point(m, t))).collect();
        if !textbook.is_empty() {
            all.push(Series {
                label: format!("{label}, {baseline}"),
                colour,
                textbook: true,
                points: textbook,
            });
        }
    }
    all
}

/// A cache level at the size (log2 of elements) whose buffer fills it.
struct CacheMark {
    log2: f64,
    label: String,
}

/// One mark per cache and element size, within the sizes swept; the label names the rings of
/// that element size only when the rings have several sizes (`L1 32 KiB of u64, f64`).
fn cache_marks(caches: &[Cache], measurements: &[Measurement], context: &Context) -> Vec<CacheMark> {
    let mut element_sizes: Vec<u64> = Vec::new();
    for label in &context.series {
        let size = measurements.iter().find(|m| &m.label() == label).map(|m| m.bytes / m.elements());
        if let Some(size) = size.filter(|s| *s > 0 && !element_sizes.contains(s)) {
            element_sizes.push(size);
        }
    }
    // The rings whose elements take `size` bytes.
    let names = |size: u64| -> Vec<&str> {
        let sized = |m: &&Measurement| m.bytes / m.elements() == size;
        let mut names: Vec<&str> = measurements.iter().filter(sized).map(|m| m.name()).collect();
        names.dedup();
        names
    };
    let (lo, hi) = x_bounds(context);
    let mut marks = Vec::new();
    for &size in &element_sizes {
        for cache in caches {
            let log2 = (cache.bytes as f64 / size as f64).log2();
            if log2 < lo || log2 > hi {
                continue;
            }
            let label = if element_sizes.len() > 1 {
                format!("{} of {}", cache.label(), names(size).join(", "))
            } else {
                cache.label()
            };
            marks.push(CacheMark { log2, label });
        }
    }
    marks
}

/// The share of the chart's height kept free above the lines for the cache labels.
const LABEL_BAND: f64 = 0.25;

/// The range of the log axis: from a power of ten below every value, and a band of
/// [`LABEL_BAND`] above them.
fn y_range(series: &[Series]) -> (f64, f64) {
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).filter(|y| *y > 0.0);
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
    if !lo.is_finite() {
        return (0.01, 10.0);
    }
    // The axis starts just below a power of ten: plotters labels a log axis from the first
    // power of ten above its start (exactly at one, rounding may skip it).
    let (lo, hi) = (10f64.powf((lo / 1.1).log10().floor()) * 0.999, hi * 1.25);
    // ln(top / hi) = band / (1 − band) · ln(hi / lo), at least a factor of 2 above.
    let top = hi * ((hi / lo).ln() * LABEL_BAND / (1.0 - LABEL_BAND)).exp().max(2.0);
    (lo, top)
}

fn draw_chart(
    root: &Canvas,
    title: &str,
    series: &[Series],
    marks: &[CacheMark],
    context: &Context,
) -> std::result::Result<(), DrawError> {
    let area = root.titled(title, (FONT, 24))?;
    let (chart_area, legend_area) = area.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    let (lo, hi) = (*context.sizes.start(), *context.sizes.end());
    let (x_lo, x_hi) = x_bounds(context);
    let x_range = (x_lo - 0.4)..(x_hi + 0.4);
    let (y_lo, y_hi) = y_range(series);
    let mut chart = ChartBuilder::on(&chart_area)
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range, (y_lo..y_hi).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("log2 of the number of elements")
        .y_desc("ns per element per level (log scale)")
        .axis_desc_style((FONT, 18))
        .label_style((FONT, 15))
        .x_labels((hi - lo + 1).clamp(2, 24) as usize)
        .y_labels(30)
        .x_label_formatter(&|x| if x.fract() == 0.0 { format!("{x:.0}") } else { String::new() })
        .y_label_formatter(&|y| {
            if leading_digit(*y).is_some_and(|d| [1, 2, 5].contains(&d)) {
                format_ns(*y)
            } else {
                String::new()
            }
        })
        .light_line_style(WHITE.mix(0.0))
        .draw()?;

    let grey = RGBColor(0x60, 0x60, 0x60);
    for mark in marks {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(mark.log2, y_lo), (mark.log2, y_hi)],
            grey.mix(0.6).stroke_width(1),
        )))?;
        // Down from the top, in the band above the lines, just right of the mark.
        let style = (FONT, 16).into_font().transform(FontTransform::Rotate90).color(&grey);
        let at = chart.backend_coord(&(mark.log2, y_hi));
        chart_area.draw(&Text::new(mark.label.clone(), (at.0 + 18, at.1 + 6), style))?;
    }

    for s in series {
        if s.textbook {
            let style = s.colour.stroke_width(2);
            chart.draw_series(DashedLineSeries::new(s.points.iter().copied(), 9, 6, style))?;
            chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 4, style)))?;
        } else {
            chart.draw_series(LineSeries::new(s.points.iter().copied(), s.colour.stroke_width(3)))?;
            chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 4, s.colour.filled())))?;
        }
    }
    draw_legend(&legend_area, series)
}

/// The legend beside the chart: a line sample and the label of every series.
fn draw_legend(area: &Canvas, series: &[Series]) -> std::result::Result<(), DrawError> {
    let text = (FONT, 15).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, s) in series.iter().enumerate() {
        let y = 40 + 28 * i as i32;
        if s.textbook {
            for x in [4, 20, 36] {
                area.draw(&PathElement::new(vec![(x, y), (x + 10, y)], s.colour.stroke_width(2)))?;
            }
        } else {
            area.draw(&PathElement::new(vec![(4, y), (46, y)], s.colour.stroke_width(3)))?;
        }
        area.draw(&Text::new(s.label.clone(), (56, y), text.clone()))?;
    }
    Ok(())
}

/// The first significant digit of `y > 0`, if `y` is a digit times a power of ten.
fn leading_digit(y: f64) -> Option<u32> {
    let scaled = y / 10f64.powf(y.log10().floor());
    let digit = scaled.round();
    ((scaled - digit).abs() < 1e-6 && (1.0..10.0).contains(&digit)).then_some(digit as u32)
}

/// `0.05`, `0.5`, `5`, `50` — at most three significant digits, no trailing zeros.
fn format_ns(y: f64) -> String {
    let digits = (2 - y.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let text = format!("{y:.digits$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels() {
        assert_eq!(format_ns(0.05), "0.05");
        assert_eq!(format_ns(0.123456), "0.123");
        assert_eq!(format_ns(1.0), "1");
        assert_eq!(format_ns(20.0), "20");
        assert_eq!(format_ns(2.5), "2.5");
        assert_eq!(format_ns(0.0002), "0.0002");
        assert_eq!(
            [0.01, 0.02, 0.05, 0.3, 1.0, 7.0, 20.0, 0.1 * 0.7].map(leading_digit),
            [1, 2, 5, 3, 1, 7, 2, 7].map(Some)
        );
        assert_eq!(leading_digit(0.025), None);
        assert_eq!(leading_digit(1.5), None);
    }
}
