//! `nimcount grundy`.

use nimcount::{Error, Result};

/// Arguments of `nimcount grundy`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `nimcount grundy`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::InvalidQuery("'grundy' is not implemented yet".into()))
}
