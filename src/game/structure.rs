//! What a heap game declares about its moves, so that a theorem or a fast method applies.

/// The shape of a game's moves, as far as nimcount's theorems and fast methods need it.
///
/// A [`HeapGame`](super::HeapGame) of your own declares nothing by default ([`General`]): its
/// values then come from a plain mex over its options, and no period can be proven. Declaring
/// a structure is a promise about *every* heap; nimcount reads the moves from the options
/// ([`HeapGame::options`](super::HeapGame::options)) and checks the promise on the first heaps
/// (a game that breaks it there is refused), but cannot check it beyond the heaps it computes.
///
/// [`General`]: Structure::General
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Structure {
    /// Nothing declared.
    #[default]
    General,
    /// The same moves from every heap: a move takes `m` stones, for `m` in a fixed set, and
    /// leaves the one heap `n − m` (nothing when `m = n`). With `largest_move: Some(s)` the set
    /// lies in `1..=s`, and the subtraction-window theorem proves periods; with `None` it may
    /// be infinite (remove a prime, a square), and the values come from the fast block method
    /// but no period can be proven.
    Subtraction {
        /// The largest move, when the set is finite.
        largest_move: Option<u64>,
    },
    /// An octal game: the moves from heap `n` depend only on the number `j <= last_digit` of
    /// stones taken — take `j` leaving nothing (`j = n`), leaving one heap `n − j`, or leaving
    /// two non-empty heaps that add up to `n − j`, in every way (see
    /// [`OctalCode`](super::OctalCode)). The octal periodicity theorems prove periods.
    Octal {
        /// The largest number of stones a move takes.
        last_digit: u64,
    },
}
