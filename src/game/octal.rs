//! Octal codes `d0.d1d2…dt`.

use std::fmt;

use crate::error::{Error, Result, quote};

/// The most digits after the point an octal code may have.
pub const MAX_OCTAL_DIGITS: usize = 1024;

/// An octal code `d0.d1d2…dt`: digit `dj` says what may be done after taking `j` stones from
/// one heap. Bit 1: take `j` stones that are the whole heap (leave nothing). Bit 2: leave one
/// non-empty heap. Bit 4: leave two non-empty heaps.
///
/// The leading digit `d0` concerns taking no stone, where only a split makes a move: it is
/// `0` or `4` (4: a heap may be split into two non-empty heaps without taking anything).
/// Trailing zeros are dropped; `t` ([`OctalCode::last_digit`]) is the position of the last
/// non-zero digit. All-zero codes (`0.0`) are the game without moves.
///
/// ```
/// use nimcount::game::OctalCode;
/// let kayles: OctalCode = "0.77".parse().unwrap();
/// assert_eq!((kayles.last_digit(), kayles.digit(2)), (2, 7));
/// assert!(kayles.splits());
/// assert_eq!("4.0070".parse::<OctalCode>().unwrap().to_string(), "4.007");
/// assert!("0.8".parse::<OctalCode>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `digits[j] = dj` for `j = 0..=t`; the last one is non-zero unless `t = 0`.
    digits: Vec<u8>,
}

impl OctalCode {
    /// The code with digits `d0, d1, …` (`d0` must be 0 or 4, the others at most 7); otherwise
    /// [`Error::InvalidGame`].
    ///
    /// ```
    /// use nimcount::game::OctalCode;
    /// assert_eq!(OctalCode::from_digits(&[0, 7, 7])?.to_string(), "0.77");
    /// assert!(OctalCode::from_digits(&[1, 7]).is_err());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_digits(digits: &[u8]) -> Result<OctalCode> {
        let spec = || {
            let mut text: String = digits.iter().map(|d| d.to_string()).collect();
            if !text.is_empty() {
                text.insert(1, '.');
            }
            text
        };
        let fail =
            |reason: String| Err(Error::InvalidGame { spec: quote(&format!("octal:{}", spec())), reason });
        let Some((&d0, rest)) = digits.split_first() else {
            return fail("an octal code needs a leading digit".into());
        };
        if d0 != 0 && d0 != 4 {
            return fail(format!(
                "the leading digit must be 0 or 4, not {d0} (it concerns taking no stone, where only \
                 a split into two heaps (4) is a move)"
            ));
        }
        if let Some(&d) = rest.iter().find(|&&d| d > 7) {
            return fail(format!("{d} is not an octal digit"));
        }
        let mut digits = digits.to_vec();
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_OCTAL_DIGITS + 1 {
            return fail(format!("more than {MAX_OCTAL_DIGITS} digits after the point"));
        }
        Ok(OctalCode { digits })
    }

    /// Digit `dj` (0 beyond the last non-zero digit).
    pub fn digit(&self, j: u64) -> u8 {
        usize::try_from(j).ok().and_then(|j| self.digits.get(j)).copied().unwrap_or(0)
    }

    /// `t`: the position of the last non-zero digit (0 for `0.0` and `4.0`).
    pub fn last_digit(&self) -> u64 {
        (self.digits.len() - 1) as u64
    }

    /// Whether some move splits a heap into two (some digit has bit 4).
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|&d| d & 4 != 0)
    }

    /// The amounts `j` that may be taken while leaving two heaps (digits with bit 4).
    pub fn split_takes(&self) -> Vec<u64> {
        (0..self.digits.len() as u64).filter(|&j| self.digit(j) & 4 != 0).collect()
    }
}

impl std::str::FromStr for OctalCode {
    type Err = Error;

    /// Parses `0.07`, `.07`, `4.007`; the error is a single line.
    fn from_str(code: &str) -> Result<OctalCode> {
        let fail =
            |reason: String| Error::InvalidGame { spec: quote(&format!("octal:{}", code.trim())), reason };
        let code = code.trim();
        let Some((lead, tail)) = code.split_once('.') else {
            return Err(fail("expected an octal code such as 0.07 or 4.007 (digits after a point)".into()));
        };
        if tail.is_empty() {
            return Err(fail("expected at least one digit after the point".into()));
        }
        let lead = if lead.is_empty() { "0" } else { lead };
        if lead.len() != 1 {
            return Err(fail(format!("the leading part '{}' must be the single digit 0 or 4", quote(lead))));
        }
        if tail.len() > MAX_OCTAL_DIGITS {
            return Err(fail(format!("more than {MAX_OCTAL_DIGITS} digits after the point")));
        }
        let mut digits = Vec::with_capacity(tail.len() + 1);
        for c in lead.chars().chain(tail.chars()) {
            match c.to_digit(10) {
                Some(d) => digits.push(d as u8),
                None => return Err(fail(format!("'{c}' is not an octal digit"))),
            }
        }
        OctalCode::from_digits(&digits).map_err(|e| match e {
            Error::InvalidGame { reason, .. } => fail(reason),
            other => other,
        })
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}
