//! Hexadecimal codes `d0.d1d2…dt`: octal codes with a fourth bit, a move that leaves three heaps.

use std::fmt;

use super::octal::MAX_OCTAL_DIGITS;
use crate::error::{Error, Result, quote};

/// A hexadecimal code `d0.d1d2…dt` (digits `0`–`F`): digit `dj` says what may be done after
/// taking `j` stones from one heap. Bit 1: take `j` stones that are the whole heap. Bit 2: leave
/// one non-empty heap. Bit 4: leave two non-empty heaps. Bit 8: leave three non-empty heaps.
///
/// The leading digit `d0` concerns taking no stone, where only a split makes a move: it is `0`,
/// `4`, `8` or `C`. Trailing zeros are dropped; `t` ([`HexCode::last_digit`]) is the position of
/// the last non-zero digit. A code with no digit of bit 8 is an octal code, and
/// [`Game::parse`](super::Game::parse) reads `hex:` codes without bit 8 as
/// [`OctalCode`](super::OctalCode)s.
///
/// ```
/// use nimcount::game::HexCode;
/// let code: HexCode = "0.f8".parse().unwrap();
/// assert_eq!(code.to_string(), "0.F8");
/// assert_eq!((code.last_digit(), code.digit(1), code.digit(2)), (2, 15, 8));
/// assert!(code.leaves_three());
/// assert!("0.G".parse::<HexCode>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HexCode {
    /// `digits[j] = dj` for `j = 0..=t`; the last one is non-zero unless `t = 0`.
    digits: Vec<u8>,
}

impl HexCode {
    /// The code with digits `d0, d1, …` (`d0` in 0, 4, 8, 12; the others at most 15); otherwise
    /// [`Error::InvalidGame`].
    pub fn from_digits(digits: &[u8]) -> Result<HexCode> {
        let spec = || {
            let mut text: String = digits.iter().map(|&d| hex_digit(d)).collect();
            if !text.is_empty() {
                text.insert(1, '.');
            }
            text
        };
        let fail =
            |reason: String| Err(Error::InvalidGame { spec: quote(&format!("hex:{}", spec())), reason });
        let Some((&d0, rest)) = digits.split_first() else {
            return fail("a hexadecimal code needs a leading digit".into());
        };
        if d0 & 3 != 0 || d0 > 15 {
            return fail(format!(
                "the leading digit must be 0, 4, 8 or C, not {} (it concerns taking no stone, where only a \
                 split into two (4) or three (8) heaps is a move)",
                hex_digit(d0)
            ));
        }
        if let Some(&d) = rest.iter().find(|&&d| d > 15) {
            return fail(format!("{d} is not a hexadecimal digit"));
        }
        let mut digits = digits.to_vec();
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_OCTAL_DIGITS + 1 {
            return fail(format!("more than {MAX_OCTAL_DIGITS} digits after the point"));
        }
        Ok(HexCode { digits })
    }

    /// Digit `dj` (0 beyond the last non-zero digit).
    pub fn digit(&self, j: u64) -> u8 {
        usize::try_from(j).ok().and_then(|j| self.digits.get(j)).copied().unwrap_or(0)
    }

    /// `t`: the position of the last non-zero digit.
    pub fn last_digit(&self) -> u64 {
        (self.digits.len() - 1) as u64
    }

    /// Whether some move leaves three heaps (some digit has bit 8).
    pub fn leaves_three(&self) -> bool {
        self.digits.iter().any(|&d| d & 8 != 0)
    }

    /// The digits `d0, …, dt`.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }
}

/// `0`–`9`, `A`–`F`.
fn hex_digit(d: u8) -> char {
    char::from_digit(u32::from(d), 16).map_or('?', |c| c.to_ascii_uppercase())
}

impl std::str::FromStr for HexCode {
    type Err = Error;

    /// Parses `0.F`, `.48`, `C.1` (either case); the error is a single line.
    fn from_str(code: &str) -> Result<HexCode> {
        let code = code.trim();
        let fail = |reason: String| Error::InvalidGame { spec: quote(&format!("hex:{code}")), reason };
        let Some((lead, tail)) = code.split_once('.') else {
            return Err(fail(
                "expected a hexadecimal code such as 0.F or 0.48 (digits after a point)".into(),
            ));
        };
        if tail.is_empty() {
            return Err(fail("expected at least one digit after the point".into()));
        }
        let lead = if lead.is_empty() { "0" } else { lead };
        if lead.chars().count() != 1 {
            return Err(fail(format!(
                "the leading part '{}' must be the single digit 0, 4, 8 or C",
                quote(lead)
            )));
        }
        if tail.len() > MAX_OCTAL_DIGITS {
            return Err(fail(format!("more than {MAX_OCTAL_DIGITS} digits after the point")));
        }
        let mut digits = Vec::with_capacity(tail.len() + 1);
        for c in lead.chars().chain(tail.chars()) {
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => return Err(fail(format!("'{}' is not a hexadecimal digit", quote(&c.to_string())))),
            }
        }
        HexCode::from_digits(&digits).map_err(|e| match e {
            Error::InvalidGame { reason, .. } => fail(reason),
            other => other,
        })
    }
}

impl fmt::Display for HexCode {
    /// Upper-case digits: `0.F8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", hex_digit(self.digits[0]))?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        self.digits[1..].iter().try_for_each(|&d| write!(f, "{}", hex_digit(d)))
    }
}
