//! `nimcount games`: every game known by name and every family of games, with its rule and what
//! is proven about its values.

use std::io::Write;

use nimcount::game::{NAMES, Named};
use serde_json::json;

use crate::common::{self, Result};

/// Arguments of `nimcount games`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `nimcount games`.
pub fn run(args: Args) -> Result<()> {
    let mut out = common::stdout();
    let mut write = || -> std::io::Result<()> {
        for named in NAMES {
            if args.json {
                writeln!(out, "{}", object(named))?;
            } else {
                writeln!(out, "{}", line(named))?;
                writeln!(out, "    proven: {}", named.proven)?;
            }
        }
        out.flush()
    };
    write().map_err(common::stdout_error)
}

/// `name  code  rule`: the code is the canonical specification of an alias (`octal:0.77`),
/// `-` for a game known only by its name or a family.
fn line(named: &Named) -> String {
    let code = if named.is_alias() { named.spec } else { "-" };
    format!("{:<16}{:<13}{}", named.name, code, named.rule)
}

fn object(named: &Named) -> serde_json::Value {
    json!({
        "name": named.name,
        "family": named.is_family(),
        "code": named.is_alias().then_some(named.spec),
        "rule": named.rule,
        "proven": named.proven,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_show_their_codes() {
        let kayles = NAMES.iter().find(|n| n.name == "kayles").unwrap();
        assert!(line(kayles).starts_with("kayles          octal:0.77   "));
        let lasker = NAMES.iter().find(|n| n.name == "lasker").unwrap();
        assert_eq!(object(lasker)["code"], serde_json::Value::Null);
    }
}
