//! `nimcount count`.

use nimcount::{Error, Result};

/// Arguments of `nimcount count`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `nimcount count`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::InvalidQuery("'count' is not implemented yet".into()))
}
