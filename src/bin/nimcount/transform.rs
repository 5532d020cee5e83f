//! `nimcount transform`.

use nimcount::{Error, Result};

/// Arguments of `nimcount transform`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `nimcount transform`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::InvalidQuery("'transform' is not implemented yet".into()))
}
