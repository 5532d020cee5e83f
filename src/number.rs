//! Big non-negative integers written the way problem statements write them.
//!
//! Accepted: decimal digits with single `_` separators between digits (`12_983_567_378_251`),
//! powers (`10^12`, `2^64`, right-associative: `2^2^3 = 2^8`), products (`3*10^8`) and sums or
//! differences (`10^9+7`, `2^61-1`). The value must be non-negative; whitespace is ignored.
//!
//! Sizes are bounded by what can be computed, never by a fixed number of digits alone:
//!
//! - a power of two (`2^10000000-1`) and sums are cheap: up to [`MAX_BITS`] bits (32 MiB), when
//!   they fit in the memory available;
//! - other powers and products need big multiplications: up to [`MAX_COMPUTED_BITS`] bits (about
//!   a second);
//! - written-out digits: up to [`MAX_DIGITS`];
//! - the whole expression: up to [`MAX_WORK`] bit operations, counted as it is evaluated (a
//!   linear step on a value of `b` bits costs `b`, a big multiplication [`BIG_STEP_COST`] times
//!   more; the conversion of every written-out number is charged before the first), so a long
//!   chain of large sums or powers is refused as well as one large number.
//!
//! Each limit is checked from the sizes of the operands before anything is computed, so
//! `10^10^10` and `2^4000000000*3` are refused at once, with the size they would have had: no
//! expression takes more than a few seconds or more memory than a few values of [`MAX_BITS`]
//! bits.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use crate::error::{Error, Result};
use crate::message::quote;
pub use crate::message::short;

/// The most bits a parsed value, or any value met on the way, may have (2^28 bits: 32 MiB,
/// about 80 million digits), when it also fits in memory.
pub const MAX_BITS: u64 = 1 << 28;

/// The most bits of a power whose base is not a power of two, or of a product of two numbers
/// longer than a word (2^24 bits, about 5 million digits: about a second of multiplications).
pub const MAX_COMPUTED_BITS: u64 = 1 << 24;

/// The most decimal digits one number may be written with (2^20, about 3.5 million bits).
pub const MAX_DIGITS: usize = 1 << 20;

/// The most work one expression may take, in bit operations (see the module documentation):
/// eight linear steps over values of [`MAX_BITS`] bits, or two powers of [`MAX_COMPUTED_BITS`]
/// bits.
pub const MAX_WORK: u64 = 1 << 31;

/// The cost of a big multiplication (a power or a product of two long factors) per bit of its
/// result, in bit operations.
pub const BIG_STEP_COST: u64 = 64;

/// Parses a non-negative integer expression such as `10^100`, `2^64` or `1_000_000_007`.
///
/// ```
/// use nimcount::number::parse;
/// assert_eq!(parse("10^9+7").unwrap(), 1_000_000_007u64.into());
/// assert_eq!(parse("2^64").unwrap().to_string(), "18446744073709551616");
/// assert_eq!(parse("2^10000000-1").unwrap().bits(), 10_000_000);
/// assert!(parse("-3").unwrap_err().to_string().contains("negative"));
/// assert!(parse("1__0").is_err());
/// assert!(parse("10^10^10").is_err());
/// ```
pub fn parse(input: &str) -> Result<BigUint> {
    let fail = |reason: &str| Error::InvalidNumber { input: quote(input), reason: reason.into() };
    let tokens = tokenize(input).map_err(|r| fail(&r))?;
    if tokens.is_empty() {
        return Err(fail("empty"));
    }
    if tokens.first() == Some(&Token::Minus) {
        return Err(fail("negative numbers are not accepted"));
    }
    let mut parser = Parser { tokens: &tokens, pos: 0, work: 0 };
    // Every written-out number is charged before the first is converted.
    let digits =
        tokens.iter().map(|t| if let Token::Digits(d) = t { digits_cost(d.len() as u64) } else { 0 });
    parser.charge(digits.fold(0, u64::saturating_add)).map_err(|r| fail(&r))?;
    let value = parser.sum().map_err(|r| fail(&r))?;
    if parser.pos != tokens.len() {
        return Err(fail("unexpected text after the number"));
    }
    value.to_biguint().ok_or_else(|| fail("the value is negative"))
}

/// Parses like [`parse`] and requires the value to fit in a `u64`.
///
/// ```
/// use nimcount::number::parse_u64;
/// assert_eq!(parse_u64("2^64-1")?, u64::MAX);
/// assert!(parse_u64("2^64").is_err());
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn parse_u64(input: &str) -> Result<u64> {
    parse(input)?
        .to_u64()
        .ok_or_else(|| Error::InvalidNumber { input: quote(input), reason: "larger than 2^64 - 1".into() })
}

/// Parses a range `LO..=HI` of two numbers in the syntax of [`parse`] (`LO > HI` is left to the
/// caller, which knows what an empty range means for it).
///
/// ```
/// use nimcount::number::parse_range;
/// let (lo, hi) = parse_range("1..=10^12")?;
/// assert_eq!((lo, hi), (1u32.into(), 1_000_000_000_000u64.into()));
/// assert!(parse_range("1..10").is_err());
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn parse_range(input: &str) -> Result<(BigUint, BigUint)> {
    let (lo, hi) = input.split_once("..=").ok_or_else(|| Error::InvalidNumber {
        input: quote(input),
        reason: "expected a range LO..=HI, for example 1..=10^12".into(),
    })?;
    Ok((parse(lo)?, parse(hi)?))
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// Decimal digits, separators removed (converted when the parser reaches them, against the
    /// work budget).
    Digits(String),
    Plus,
    Minus,
    Times,
    Caret,
}

fn tokenize(input: &str) -> std::result::Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = input.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '0'..='9' => {
                let mut digits = String::new();
                let mut last_was_separator = false;
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_digit() {
                        digits.push(d);
                        last_was_separator = false;
                    } else if d == '_' {
                        if last_was_separator {
                            return Err("'_' separators stand one at a time between digits".into());
                        }
                        last_was_separator = true;
                    } else {
                        break;
                    }
                    chars.next();
                }
                if last_was_separator {
                    return Err("a '_' separator must stand between digits".into());
                }
                if digits.len() > MAX_DIGITS {
                    return Err(format!(
                        "{} digits, more than the {MAX_DIGITS} a number may be written with (write \
                         a power such as 10^{} instead)",
                        digits.len(),
                        digits.len() - 1
                    ));
                }
                tokens.push(Token::Digits(digits));
            }
            '_' => return Err("a '_' separator must stand between digits".into()),
            '+' => {
                chars.next();
                tokens.push(Token::Plus);
            }
            '-' => {
                chars.next();
                tokens.push(Token::Minus);
            }
            '*' => {
                chars.next();
                tokens.push(Token::Times);
            }
            '^' => {
                chars.next();
                tokens.push(Token::Caret);
            }
            other => return Err(format!("unexpected character {other:?}")),
        }
    }
    Ok(tokens)
}

/// Recursive descent over `sum := product (('+'|'-') product)*`,
/// `product := power ('*' power)*`, `power := NUMBER ('^' power)?`.
/// Intermediate values are signed so that `2^61-1` parses; the result must be non-negative.
/// `work` counts the bit operations spent so far (see [`MAX_WORK`]).
struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    work: u64,
}

type Signed = num_bigint::BigInt;

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn sum(&mut self) -> std::result::Result<Signed, String> {
        let mut value = self.product()?;
        while let Some(op @ (Token::Plus | Token::Minus)) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.product()?;
            let bits = value.bits().max(rhs.bits()) + 1;
            check_bits(bits, MAX_BITS, "the sum")?;
            self.charge(bits)?;
            value = if op == Token::Plus { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn product(&mut self) -> std::result::Result<Signed, String> {
        let mut value = self.power()?;
        while self.peek() == Some(&Token::Times) {
            self.pos += 1;
            let rhs = self.power()?;
            let bits = value.bits() + rhs.bits();
            // A factor of a word or less costs one linear pass; two long factors a big
            // multiplication.
            let small = value.bits().min(rhs.bits()) <= 64;
            let limit = if small { MAX_BITS } else { MAX_COMPUTED_BITS };
            check_bits(bits, limit, "the product")?;
            self.charge(if small { bits } else { bits.saturating_mul(BIG_STEP_COST) })?;
            value *= rhs;
        }
        Ok(value)
    }

    /// A chain `b1 ^ b2 ^ … ^ bn`, evaluated right to left without recursion, so that no input
    /// can exhaust the stack.
    fn power(&mut self) -> std::result::Result<Signed, String> {
        let mut bases = vec![self.number()?];
        while self.peek() == Some(&Token::Caret) {
            self.pos += 1;
            bases.push(self.number()?);
        }
        let mut value = bases.pop().expect("at least one number");
        while let Some(base) = bases.pop() {
            let (power, cost) = power_of(base, value)?;
            self.charge(cost)?;
            value = power.compute();
        }
        Ok(value.into())
    }

    /// Adds `cost` bit operations to the work, refused beyond [`MAX_WORK`] before they are
    /// spent.
    fn charge(&mut self, cost: u64) -> std::result::Result<(), String> {
        self.work = self.work.saturating_add(cost);
        if self.work > MAX_WORK {
            return Err(format!(
                "the expression needs more than {} bit operations to evaluate, beyond the 2^{} it \
                 may take (write fewer or smaller terms)",
                self.work,
                MAX_WORK.ilog2()
            ));
        }
        Ok(())
    }

    fn number(&mut self) -> std::result::Result<BigUint, String> {
        let n = match self.peek() {
            Some(Token::Digits(digits)) => {
                // Charged by `parse` before the evaluation.
                digits.parse::<BigUint>().map_err(|e| e.to_string())?
            }
            Some(Token::Minus) => return Err("negative numbers are not accepted".into()),
            Some(_) => return Err("expected a number".into()),
            None => return Err("expected a number at the end".into()),
        };
        self.pos += 1;
        Ok(n)
    }
}

/// `base^exponent`, refused before computing when the result would have more bits than it may
/// ([`MAX_BITS`] for a power of two, a shift; [`MAX_COMPUTED_BITS`] for other bases). Also returns
/// the cost of computing it in bit operations, to be charged before [`Power::compute`].
fn power_of(base: BigUint, exponent: BigUint) -> std::result::Result<(Power, u64), String> {
    if exponent.is_zero() {
        return Ok((Power::Known(BigUint::from(1u8)), 1));
    }
    if base <= BigUint::from(1u8) {
        return Ok((Power::Known(base), 1)); // 0^e = 0 and 1^e = 1 for every e >= 1
    }
    let two_power = base.count_ones() == 1;
    let limit = if two_power { MAX_BITS } else { MAX_COMPUTED_BITS };
    // base^e has e·log2(base) bits, rounded up: exactly e·(bits − 1) + 1 for a power of two.
    let log2_base = log2(&base);
    let bits = match exponent.to_u64() {
        Some(e) if two_power => u64::try_from(u128::from(e) * u128::from(base.bits() - 1) + 1).ok(),
        Some(e) if (e as f64) * log2_base < 1e18 => Some(((e as f64) * log2_base).ceil() as u64 + 1),
        _ => None,
    };
    let Some(bits) = bits.filter(|&b| b <= limit) else {
        // The size printed is e·log2(base).
        let size = match exponent.to_u64() {
            Some(e) if (e as f64) * log2_base < 1e18 => {
                format!("about {:.0} bits", (e as f64 * log2_base).floor())
            }
            _ => format!("about 2^{:.0} bits", log2(&exponent) + log2_base.log2()),
        };
        return Err(format!("the power has {size}, more than the 2^{} bits it may have", limit.ilog2()));
    };
    let e = exponent.to_u64().expect("bounded by the limit");
    check_bits(bits, limit, "the power")?;
    if two_power {
        return Ok((Power::Shift(e * (base.bits() - 1)), bits));
    }
    Ok((Power::Big(base, e), bits.saturating_mul(BIG_STEP_COST)))
}

/// A power whose size has been checked, not yet computed.
enum Power {
    Known(BigUint),
    /// `2^shift`.
    Shift(u64),
    /// `base^e` by repeated squaring.
    Big(BigUint, u64),
}

impl Power {
    fn compute(self) -> BigUint {
        match self {
            Power::Known(x) => x,
            Power::Shift(shift) => BigUint::from(1u8) << shift,
            Power::Big(base, e) => num_traits::pow::Pow::pow(&base, e),
        }
    }
}

/// The cost of converting `digits` decimal digits to binary, in bit operations: num-bigint
/// multiplies the value by `10^19` once per 19 digits, a pass over the value each time, so the
/// cost grows with the square of the length (`2^20` digits, about a second, cost about as much as
/// a power of [`MAX_COMPUTED_BITS`] bits).
pub(crate) fn digits_cost(digits: u64) -> u64 {
    let words = digits / 19 + 1;
    words.saturating_mul(words) / 3
}

/// `log2(x)` for `x >= 1`, from the top 64 bits.
fn log2(x: &BigUint) -> f64 {
    let shift = x.bits().saturating_sub(64);
    let top = (x >> shift).to_u64().unwrap_or(u64::MAX);
    (top as f64).log2() + shift as f64
}

/// Refuses a value of `bits` bits above `limit`, or beyond the memory available (a value of
/// more than 2^26 bits, 8 MiB, is checked against it with room for two intermediates).
fn check_bits(bits: u64, limit: u64, what: &str) -> std::result::Result<(), String> {
    if bits > limit {
        return Err(format!(
            "{what} has about {bits} bits, more than the 2^{} bits it may have",
            limit.ilog2()
        ));
    }
    if bits > 1 << 26 {
        crate::memory::ensure_fits(|| format!("{what} of {bits} bits"), 3 * (bits / 8))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
