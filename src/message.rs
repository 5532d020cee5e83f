//! How inputs appear in one-line messages: shortened and with control characters escaped.
//!
//! The ground floor of the crate: it imports nothing from it. Every message that echoes what a
//! user gave (a number, a game, a path, a line of a file) goes through [`quote`] or, for numbers
//! already parsed, [`short`], so that no message spells out an input of millions of characters
//! (or spends time converting a number of millions of digits) and no escape sequence from an
//! input reaches the terminal.
//!
//! Conventions: a text is shown as it is up to [`QUOTE_CHARS`] characters, else as its first
//! [`HEAD_CHARS`], "…" and its length in characters; a control character (`U+0000`–`U+001F`,
//! `U+007F`–`U+009F`) or a bidirectional override (`U+202A`–`U+202E`, `U+2066`–`U+2069`) is
//! written as its Rust escape (`\n`, `\t`, `\r`, `\u{1b}`) and counts as the characters of its
//! escape.

use num_bigint::BigUint;

/// The most characters a quoted input is shown with in full.
pub const QUOTE_CHARS: usize = 80;

/// The characters of a longer input that are shown before "…".
pub const HEAD_CHARS: usize = 56;

/// The most characters of a free-form part of a message (a reason built from inputs) before it
/// is shortened like an input.
pub const REASON_CHARS: usize = 240;

/// `text` as it may appear in a one-line message: control characters escaped, and shortened to
/// its first [`HEAD_CHARS`] characters, "…" and its length when it is longer than
/// [`QUOTE_CHARS`]. Quoting a quoted text changes nothing.
///
/// ```
/// use nimcount::message::quote;
/// assert_eq!(quote("10^9+7"), "10^9+7");
/// assert_eq!(quote(&"9".repeat(300)), format!("{}… (300 characters)", "9".repeat(56)));
/// assert_eq!(quote("nim\u{1b}[31mX"), "nim\\u{1b}[31mX");
/// assert_eq!(quote(&quote(&"9".repeat(300))), quote(&"9".repeat(300)));
/// ```
pub fn quote(text: &str) -> String {
    shorten(text, QUOTE_CHARS)
}

/// `text` with control characters escaped, shortened like [`quote`] when its escaped form has
/// more than `max_chars` characters (at least [`QUOTE_CHARS`]): its first [`HEAD_CHARS`]
/// characters, "…" and its length in characters.
///
/// ```
/// use nimcount::message::shorten;
/// assert_eq!(shorten("line\nbreak", 100), "line\\nbreak");
/// assert!(shorten(&"x".repeat(1000), 300).ends_with("… (1000 characters)"));
/// ```
pub fn shorten(text: &str, max_chars: usize) -> String {
    let max_chars = max_chars.max(QUOTE_CHARS);
    let mut shown = String::new();
    let mut shown_chars = 0;
    let mut head_end = None; // the byte length of `shown` when it first reached HEAD_CHARS
    for c in text.chars() {
        let before = shown.len();
        shown_chars += push_escaped(&mut shown, c);
        if head_end.is_none() && shown_chars > HEAD_CHARS {
            head_end = Some(before);
        }
        if shown_chars > max_chars {
            let count = text.chars().count();
            shown.truncate(head_end.unwrap_or(before));
            return format!("{shown}… ({count} characters)");
        }
    }
    shown
}

/// Whether `c` is escaped in messages: a control character or a bidirectional override.
pub fn is_escaped(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Appends `c`, escaped when [`is_escaped`]; returns the characters appended.
fn push_escaped(out: &mut String, c: char) -> usize {
    if !is_escaped(c) {
        out.push(c);
        return 1;
    }
    let escape = match c {
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        _ => format!("\\u{{{:x}}}", u32::from(c)),
    };
    out.push_str(&escape);
    escape.len()
}

/// A whole message made safe for a terminal line: every control character escaped (line breaks
/// included) and shortened beyond `max_chars` characters like [`shorten`]. The last line of
/// defence of a program that prints messages built elsewhere.
///
/// ```
/// use nimcount::message::one_line;
/// assert_eq!(one_line("error: bad '\u{1b}[2J'", 400), "error: bad '\\u{1b}[2J'");
/// assert!(one_line(&"x".repeat(10_000), 400).len() < 400);
/// ```
pub fn one_line(text: &str, max_chars: usize) -> String {
    shorten(text, max_chars)
}

/// A path as messages show it: [`quote`] of its lossy display form.
///
/// ```
/// use nimcount::message::path;
/// assert_eq!(path(std::path::Path::new("data/h.txt")), "data/h.txt");
/// ```
pub fn path(path: impl AsRef<std::path::Path>) -> String {
    quote(&path.as_ref().display().to_string())
}

/// A number already written out in decimal, as [`short`] shows a number: as it is up to 80
/// digits, else by its length (`a number of 200001 digits`); any other text as [`quote`] shows
/// it.
///
/// ```
/// use nimcount::message::digits;
/// assert_eq!(digits("12345"), "12345");
/// assert_eq!(digits(&"1".repeat(200)), "a number of 200 digits");
/// assert_eq!(digits("x\u{1b}"), "x\\u{1b}");
/// ```
pub fn digits(text: &str) -> String {
    if text.len() > QUOTE_CHARS && text.bytes().all(|b| b.is_ascii_digit()) {
        return format!("a number of {} digits", text.len());
    }
    quote(text)
}

/// `x` as a one-line message may show it: in decimal up to 80 digits; as `2^k`, `2^k+d` or
/// `2^k-d` when it lies within 2^32 of a power of two (as such numbers are usually written);
/// else by its size. A message never spells out, or spends time converting, a number of
/// millions of digits: the work is a shift and a subtraction.
///
/// ```
/// use nimcount::message::short;
/// use nimcount::number::parse;
/// assert_eq!(short(&parse("10^9+7")?), "1000000007");
/// assert_eq!(short(&parse("2^300000")?), "2^300000");
/// assert_eq!(short(&parse("2^300000+7")?), "2^300000+7");
/// assert_eq!(short(&parse("2^300000-1")?), "2^300000-1");
/// assert_eq!(short(&parse("10^300000")?), "a number of 996579 bits (about 300001 digits)");
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn short(x: &BigUint) -> String {
    if x.bits() <= 265 {
        let text = x.to_string();
        if text.len() <= 80 {
            return text;
        }
    }
    // Beyond 80 digits, x has at least 266 bits: 2^(bits−1) <= x < 2^bits.
    let below = BigUint::from(1u8) << (x.bits() - 1);
    let above = BigUint::from(1u8) << x.bits();
    let near = |d: &BigUint| d.bits() <= 32;
    let up = x - &below;
    if up.bits() == 0 {
        return format!("2^{}", x.bits() - 1);
    }
    if near(&up) {
        return format!("2^{}+{up}", x.bits() - 1);
    }
    let down = &above - x;
    if near(&down) {
        return format!("2^{}-{down}", x.bits());
    }
    let digits = (x.bits() as f64 * std::f64::consts::LOG10_2).ceil() as u64;
    format!("a number of {} bits (about {digits} digits)", x.bits())
}
