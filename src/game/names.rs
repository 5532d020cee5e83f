//! The games known by name, and the families of games written with parameters: what
//! `nimcount games` lists.

/// A game known by name, or a family of games written with parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    /// What the user types: `kayles`, or a family's pattern such as `subtract:S`.
    pub name: &'static str,
    /// The game's canonical specification (the name itself for games without a code; the
    /// pattern for a family).
    pub spec: &'static str,
    /// The rule, in one line.
    pub rule: &'static str,
    /// What is proven about the values: a closed form, a period with its theorem, or none.
    pub proven: &'static str,
}

impl Named {
    /// Whether this is a family written with parameters (`octal:CODE`), not one game.
    pub fn is_family(&self) -> bool {
        self.name.contains(':')
    }

    /// Whether the name is an alias of a code (`kayles` for `octal:0.77`).
    pub fn is_alias(&self) -> bool {
        !self.is_family() && self.name != self.spec
    }
}

/// Every game known by name, then every family: what [`Game::parse`](super::Game::parse)
/// accepts, and last Moore's Nim-K (`moore:K`), which `play` and `count` accept beside them
/// (its moves change several heaps at once, so it is no heap game of its own). An alias parses
/// to the game of its code and prints back as the code.
///
/// The periods stated here are those the period search proves (the tests check each one
/// against it); the literature agrees (Kayles: last exception 70, period 12; Dawson's chess,
/// OEIS A002187: last exception 51, period 34, and Dawson's Kayles is the same sequence one heap
/// later; Guiles: period 10).
pub const NAMES: &[Named] = &[
    Named {
        name: "nim",
        spec: "nim",
        rule: "remove any positive number of stones from one heap",
        proven: "closed form G(n) = n",
    },
    Named {
        name: "kayles",
        spec: "octal:0.77",
        rule: "knock down one pin or two adjacent pins from a row (a row may split in two)",
        proven: "period 12 from heap 71 on (octal-splitting theorem)",
    },
    Named {
        name: "dawsons-kayles",
        spec: "octal:0.07",
        rule: "knock down two adjacent pins from a row (a row may split in two)",
        proven: "period 34 from heap 53 on (octal-splitting theorem); G(n) = G_0.137(n − 1)",
    },
    Named {
        name: "dawsons-chess",
        spec: "octal:0.137",
        rule: "Dawson's chess: take 1 stone from a heap of 1, 2 from a heap, or 3 leaving 0, 1 or 2 heaps",
        proven: "period 34 from heap 52 on (octal-splitting theorem); G(n) = G_0.07(n + 1)",
    },
    Named {
        name: "officers",
        spec: "octal:0.6",
        rule: "take one stone from a heap of at least 2, leaving one or two non-empty heaps",
        proven: "none: no period is known (open problem)",
    },
    Named {
        name: "guiles",
        spec: "octal:0.15",
        rule: "take 1 stone from a heap of 1, or 2 stones leaving nothing or two non-empty heaps",
        proven: "period 10 from heap 1 on (octal-splitting theorem)",
    },
    Named {
        name: "grundy-game",
        spec: "grundy-game",
        rule: "split a heap into two unequal non-empty heaps",
        proven: "none: no period is known (values computed directly)",
    },
    Named {
        name: "lasker",
        spec: "lasker",
        rule: "Lasker's Nim: remove any positive number of stones, or split a heap into two non-empty heaps",
        proven: "closed form: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3",
    },
    Named {
        name: "squares",
        spec: "squares",
        rule: "remove a positive perfect square",
        proven: "none: never periodic (its losing heaps have density 0)",
    },
    Named {
        name: "subtract:S",
        spec: "subtract:S",
        rule: "remove k stones for k in the list S (1,3,4 or 1-10 or 1-3,7)",
        proven: "period by the subtraction-window theorem; one interval a-b: closed form \
                 G(n) = floor((n mod (a+b)) / a)",
    },
    Named {
        name: "allbut:S",
        spec: "allbut:S",
        rule: "remove any positive number of stones except those in the list S",
        proven: "arithmetic period by the all-but window theorem",
    },
    Named {
        name: "octal:CODE",
        spec: "octal:CODE",
        rule: "octal game d0.d1d2…: digit dj, bit 1: take j, the whole heap; 2: leave one heap; 4: leave two",
        proven: "period by the octal theorems (splitting: check n0 <= n < 2·n0 + p + t), when there is one",
    },
    Named {
        name: "hex:CODE",
        spec: "hex:CODE",
        rule: "hexadecimal game d0.d1d2… (digits 0-F): as octal, and bit 8: take j leaving three heaps",
        proven: "period by the hexadecimal theorem (check n0 <= n < 3·n0 + 2p + t), or saltus 1 by the \
                 hexadecimal saltus theorem (0.8: G(n) = floor((n-1)/3) from 1), when there is one",
    },
    Named {
        name: "fraction:P/Q",
        spec: "fraction:P/Q",
        rule: "remove k stones, 1 <= k <= floor(n·P/Q), from a heap of n (0 < P < Q)",
        proven: "1/2: closed form G(2n) = n, G(2n+1) = G(n), never periodic, counted without values \
                 up to about 10^14 sizes; other fractions: none (values computed directly)",
    },
    Named {
        name: "moore:K",
        spec: "moore:K",
        rule: "Moore's Nim-K: remove stones from each of up to K heaps at once (play and count only)",
        proven: "closed form: lost when every binary column holds a multiple of K + 1 ones \
                 (no Grundy values)",
    },
];
