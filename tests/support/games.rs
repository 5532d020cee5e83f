//! Games of a user's own, defined here through `HeapGame` alone.

use nimcount::game::HeapGame;

/// Take one or two stones, or split a heap whose size is a multiple of three into three equal
/// heaps (a move that leaves three heaps). Not simply `n mod 3`: the splits matter.
pub struct TakeOrThirds;

impl HeapGame for TakeOrThirds {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        for take in 1..=n.min(2) {
            if take == n { option(&[]) } else { option(&[n - take]) }
        }
        if n >= 3 && n.is_multiple_of(3) {
            option(&[n / 3, n / 3, n / 3]);
        }
    }

    fn name(&self) -> String {
        "take-or-thirds".into()
    }
}
