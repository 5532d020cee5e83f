mod coefficients;
#[cfg(feature = "mpi")]
mod distributed;
mod engine;
mod geometric;
mod levels;
mod misere;
mod modulus;
mod moore;
mod query;
mod quotient;
mod source;
mod spectrum;
mod structured;
mod tally;
