//! Pictures: SVG files drawn with plotters (`bench --sweep --plot`, `grundy --plot`,
//! `survey --plot`).
//!
//! SVG only: plotters' bitmap backend draws text through system fonts (or a font compiled into
//! the program), which nimcount does not depend on, so `.png` is refused with that reason. The
//! picture is drawn into memory and written whole or not at all ([`output::write_atomically`]).

pub mod grundy;
pub mod survey;
pub mod sweep;

use std::io;
use std::path::Path;

use nimcount::Error;

use crate::common::{Result, usage};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::output;

/// What plotters reports when drawing into memory fails.
pub type DrawError = DrawingAreaErrorKind<io::Error>;

/// The drawing area of a picture.
pub type Canvas<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Refuses, before any work is done, a picture path that is not an `.svg` file the user may
/// write, in an existing directory.
pub fn check_path(path: &Path) -> Result<()> {
    let given = nimcount::error::quote(&path.display().to_string());
    let refuse = |reason: String| Err(usage(format!("cannot write '{given}': {reason}")));
    match path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()) {
        Some(e) if e == "svg" => {}
        Some(e) if e == "png" => {
            return refuse(
                "PNG output needs system fonts, which nimcount does not use; write an .svg file".into(),
            );
        }
        Some(e) => return refuse(format!("unknown picture format '.{e}' (nimcount writes .svg files)")),
        None => return refuse("a picture needs the extension .svg".into()),
    }
    // A missing folder, a directory or a file the user may not write: refused before the work.
    output::Output::resolve(path).map(drop)
}

/// Draws a picture of `size` pixels in memory with `draw`, then writes it to `path` whole
/// (temporary file in the same directory, then rename).
pub fn write_svg(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&Canvas) -> std::result::Result<(), DrawError>,
) -> Result<()> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn = root.fill(&WHITE).and_then(|()| draw(&root)).and_then(|()| root.present());
        drawn.map_err(|e| Error::io(path, io::Error::other(format!("drawing the picture failed: {e}"))))?;
    }
    output::write_atomically(path, |out| out.write_all(svg.as_bytes()).map_err(|e| Error::io(path, e).into()))
}

/// Colours that stay apart on white and for common colour-vision deficiencies (Tableau 10).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// The font of every text in the pictures.
pub const FONT: &str = "sans-serif";

/// Splits `text` at spaces into lines of at most `width` characters (a longer word stays whole).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_word_in_order() {
        let text = "all-but game, largest excluded move m = 2: G(n+p) = G(n)+s for m consecutive n";
        for width in [1, 10, 20, 200] {
            let lines = wrap(text, width);
            assert_eq!(lines.join(" "), text);
            assert!(lines.iter().all(|l| l.chars().count() <= width || !l.contains(' ')), "{lines:?}");
        }
        assert_eq!(wrap("a b c", 3), ["a b", "c"]);
        assert!(wrap("   ", 10).is_empty());
    }
}
