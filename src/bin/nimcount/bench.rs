//! `nimcount bench`.

use nimcount::{Error, Result};

/// Arguments of `nimcount bench`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `nimcount bench`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::InvalidQuery("'bench' is not implemented yet".into()))
}
