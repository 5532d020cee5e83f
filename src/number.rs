//! Big non-negative integers written the way problem statements write them.
//!
//! Accepted: decimal digits with `_` separators (`12_983_567_378_251`), powers (`10^12`,
//! `2^64`, right-associative: `2^2^3 = 2^8`), products (`3*10^8`) and sums or differences
//! (`10^9+7`, `2^61-1`). The value must be non-negative; whitespace is ignored. Exponents are
//! capped so that a typo cannot ask for a number with billions of digits.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use crate::error::{Error, Result};

/// The largest number of bits a parsed value may have (2^26 bits, 8 MiB: about 20 million
/// decimal digits), so that `2^10000000-1` parses.
pub const MAX_BITS: u64 = 1 << 26;

/// Parses a non-negative integer expression such as `10^100`, `2^64` or `1_000_000_007`.
///
/// ```
/// use nimcount::number::parse;
/// assert_eq!(parse("10^9+7").unwrap(), 1_000_000_007u64.into());
/// assert_eq!(parse("2^64").unwrap().to_string(), "18446744073709551616");
/// assert!(parse("-3").is_err());
/// ```
pub fn parse(input: &str) -> Result<BigUint> {
    let fail = |reason: &str| Error::InvalidNumber { input: input.to_string(), reason: reason.into() };
    let tokens = tokenize(input).map_err(|r| fail(&r))?;
    if tokens.is_empty() {
        return Err(fail("empty"));
    }
    let mut parser = Parser { tokens: &tokens, pos: 0 };
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
    parse(input)?.to_u64().ok_or_else(|| Error::InvalidNumber {
        input: input.to_string(),
        reason: "larger than 2^64 - 1".into(),
    })
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(BigUint),
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
                        last_was_separator = true;
                    } else {
                        break;
                    }
                    chars.next();
                }
                if last_was_separator {
                    return Err("a '_' separator must stand between digits".into());
                }
                if digits.len() as u64 > MAX_BITS / 3 {
                    return Err("too many digits".into());
                }
                let value = digits.parse::<BigUint>().map_err(|e| e.to_string())?;
                tokens.push(Token::Number(value));
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
            other => return Err(format!("unexpected character '{other}'")),
        }
    }
    Ok(tokens)
}

/// Recursive descent over `sum := product (('+'|'-') product)*`,
/// `product := power ('*' power)*`, `power := NUMBER ('^' power)?`.
/// Intermediate values are signed so that `2^61-1` parses; the result must be non-negative.
struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
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
            value = if op == Token::Plus { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn product(&mut self) -> std::result::Result<Signed, String> {
        let mut value = self.power()?;
        while self.peek() == Some(&Token::Times) {
            self.pos += 1;
            let rhs = self.power()?;
            value *= rhs;
            check_size(&value)?;
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
            value = power_of(base, value)?;
        }
        Ok(value.into())
    }

    fn number(&mut self) -> std::result::Result<BigUint, String> {
        let n = match self.peek() {
            Some(Token::Number(n)) => n.clone(),
            Some(Token::Minus) => return Err("negative numbers are not accepted".into()),
            Some(_) => return Err("expected a number".into()),
            None => return Err("expected a number at the end".into()),
        };
        self.pos += 1;
        Ok(n)
    }
}

/// `base^exponent`, refused when the result would have more than [`MAX_BITS`] bits.
fn power_of(base: BigUint, exponent: BigUint) -> std::result::Result<BigUint, String> {
    if exponent.is_zero() {
        return Ok(BigUint::from(1u8));
    }
    if base <= BigUint::from(1u8) {
        return Ok(base); // 0^e = 0 and 1^e = 1 for every e >= 1
    }
    let e = exponent
        .to_u64()
        .filter(|&e| (base.bits() - 1).saturating_mul(e) <= MAX_BITS)
        .ok_or_else(|| format!("the power has more than {MAX_BITS} bits"))?;
    Ok(num_traits::pow::Pow::pow(&base, e))
}

fn check_size(value: &Signed) -> std::result::Result<(), String> {
    if value.bits() > MAX_BITS {
        return Err(format!("the value has more than {MAX_BITS} bits"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        parse(s).unwrap().to_string()
    }

    #[test]
    fn plain_and_separated_decimals() {
        assert_eq!(p("0"), "0");
        assert_eq!(p("12983567378251"), "12983567378251");
        assert_eq!(p("12_983_567_378_251"), "12983567378251");
        assert_eq!(p("  98670634123 "), "98670634123");
        assert_eq!(p("007"), "7");
    }

    #[test]
    fn powers_products_and_sums() {
        assert_eq!(p("10^12"), "1000000000000");
        assert_eq!(p("2^64"), "18446744073709551616");
        assert_eq!(p("10^9+7"), "1000000007");
        assert_eq!(p("2^61-1"), "2305843009213693951");
        assert_eq!(p("3*10^8"), "300000000");
        assert_eq!(p("2^2^3"), "256");
        assert_eq!(p("0^0"), "1");
        assert_eq!(p("0^5"), "0");
        assert_eq!(p("1^100000000000000000000000"), "1");
        assert_eq!(p("0^100000000000000000000000"), "0");
        assert_eq!(p("5-5"), "0");
        assert_eq!(parse("10^100").unwrap().to_string().len(), 101);
        // Towers of any height are evaluated without recursion.
        assert_eq!(p(&format!("{}1", "1^".repeat(200_000))), "1");
        assert!(parse(&format!("{}2", "2^".repeat(200_000))).is_err());
    }

    #[test]
    fn malformed_inputs_are_refused_with_a_reason() {
        for bad in [
            "", " ", "-3", "1-2", "abc", "1e9", "10^", "^2", "1__", "_1", "1_", "2^-1", "1.5", "3+",
            "10^10^10",
        ] {
            let err = parse(bad).unwrap_err();
            let msg = err.to_string();
            assert!(msg.starts_with("invalid number"), "{bad:?}: {msg}");
            assert!(!msg.contains('\n'), "{bad:?}: {msg}");
        }
    }

    #[test]
    fn u64_range_is_checked() {
        assert_eq!(parse_u64("2^64-1").unwrap(), u64::MAX);
        assert!(parse_u64("2^64").is_err());
    }
}
