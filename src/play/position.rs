//! A position of a heap game: Grundy values, verdict, winning moves.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::rules::{NIM, Rules};
use super::{Move, Verdict};
use crate::error::Result;

/// A position of a heap game, judged by Sprague–Grundy theory: the player to move loses exactly
/// when the XOR of the heaps' Grundy values is 0. A winning move takes a heap `n` to an option
/// whose value is `G(n) ⊕ xor`; in Nim that is the heap `n ⊕ xor`, smaller than `n` exactly
/// when `n` has the highest bit of the XOR.
///
/// Misère Nim ([`Position::misere_nim`]), where whoever takes the last stone loses, is played
/// like normal Nim until a move would leave only heaps of at most one stone; then the winner
/// leaves an odd number of 1-heaps. A position is lost when some heap has two stones or more
/// and the XOR is 0, or when every heap has at most one stone and the number of 1-heaps is odd.
///
/// ```
/// use nimcount::play::{Position, Rules, Verdict};
///
/// let nim = Rules::nim();
/// let position = Position::new(&nim, [3u32, 4, 5])?;
/// assert_eq!(position.verdict(), Verdict::Won);
/// let moves: Vec<String> = position.winning_moves().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["heap 1: 3 → 1"]);
///
/// // Misère: with a heap of 3 and two single stones, take the 3 down to 1 (three 1-heaps).
/// let misere = Position::misere_nim([3u32, 1, 1]);
/// assert_eq!(misere.winning_moves().next().unwrap().to_string(), "heap 1: 3 → 1");
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Debug)]
pub struct Position<'r> {
    rules: &'r Rules<'r>,
    /// The rules of each heap (all `rules` unless the position mixes games).
    heap_rules: Vec<&'r Rules<'r>>,
    heaps: Vec<BigUint>,
    grundy: Vec<BigUint>,
    xor: BigUint,
    misere: bool,
}

impl<'r> Position<'r> {
    /// The position of these heaps under `rules` (normal play: whoever cannot move loses).
    ///
    /// Fails when a heap has no known Grundy value under the rules, or more than
    /// [`MAX_HEAP_BITS`](super::MAX_HEAP_BITS) bits.
    pub fn new<T: Into<BigUint>>(rules: &'r Rules<'r>, heaps: impl IntoIterator<Item = T>) -> Result<Self> {
        let heaps: Vec<BigUint> = heaps.into_iter().map(Into::into).collect();
        Position::mixed(rules, heaps.into_iter().map(|h| (rules, h)))
    }

    /// A position whose heaps belong to different games, each heap with its rules (normal
    /// play): a sum of games, lost exactly when the XOR of every heap's value in its own game
    /// is 0; a winning move takes one heap to an option of its own game. `rules` are those of
    /// the position as a whole ([`rules`](Position::rules)), for an empty one.
    ///
    /// ```
    /// use nimcount::game::Game;
    /// use nimcount::play::{Position, Rules, Verdict};
    /// use nimcount::progress::Silent;
    ///
    /// // A Kayles row of 4 (octal:0.77, value 1) and a Nim heap of 1: XOR 0, lost.
    /// let kayles = Rules::for_game(&Game::parse("octal:0.77")?, &4u32.into(), None, &Silent)?;
    /// let nim = Rules::nim();
    /// let position = Position::mixed(&nim, [(&kayles, 4u32), (&nim, 1)])?;
    /// assert_eq!(position.verdict(), Verdict::Lost);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn mixed<T: Into<BigUint>>(
        rules: &'r Rules<'r>,
        heaps: impl IntoIterator<Item = (&'r Rules<'r>, T)>,
    ) -> Result<Self> {
        let (heap_rules, heaps): (Vec<&'r Rules<'r>>, Vec<BigUint>) =
            heaps.into_iter().map(|(r, h)| (r, h.into())).unzip();
        heaps.iter().try_for_each(super::check_heap)?;
        let grundy =
            heaps.iter().zip(&heap_rules).map(|(h, r)| r.value_or_error(h)).collect::<Result<Vec<_>>>()?;
        let xor = grundy.iter().fold(BigUint::zero(), |x, g| x ^ g);
        Ok(Position { rules, heap_rules, heaps, grundy, xor, misere: false })
    }
}

impl Position<'static> {
    /// A position of misère Nim: whoever takes the last stone loses.
    pub fn misere_nim<T: Into<BigUint>>(heaps: impl IntoIterator<Item = T>) -> Self {
        let heaps: Vec<BigUint> = heaps.into_iter().map(Into::into).collect();
        let xor = heaps.iter().fold(BigUint::zero(), |x, g| x ^ g);
        let heap_rules = vec![&NIM; heaps.len()];
        Position { rules: &NIM, heap_rules, grundy: heaps.clone(), heaps, xor, misere: true }
    }
}

impl Position<'_> {
    /// The heaps.
    pub fn heaps(&self) -> &[BigUint] {
        &self.heaps
    }

    /// The Grundy value of each heap (for misère Nim, its normal-play value: the heap itself).
    pub fn grundy(&self) -> &[BigUint] {
        &self.grundy
    }

    /// The XOR of the heaps' Grundy values.
    pub fn xor(&self) -> &BigUint {
        &self.xor
    }

    /// Whether this is misère play.
    pub fn is_misere(&self) -> bool {
        self.misere
    }

    /// The rules the position is played by (of the whole position: see
    /// [`heap_rules`](Position::heap_rules) for a position that mixes games).
    pub fn rules(&self) -> &Rules<'_> {
        self.rules
    }

    /// The rules of heap `i`.
    pub fn heap_rules(&self, i: usize) -> &Rules<'_> {
        self.heap_rules[i]
    }

    /// Heaps of two stones or more.
    fn large_heaps(&self) -> usize {
        self.heaps.iter().filter(|h| h.bits() >= 2).count()
    }

    /// Won or lost for the player to move.
    pub fn verdict(&self) -> Verdict {
        if self.misere && self.large_heaps() == 0 {
            // Only 0- and 1-heaps: the XOR is the parity of the 1-heaps; odd loses.
            return Verdict::lost_if(self.xor.is_one());
        }
        Verdict::lost_if(self.xor.is_zero())
    }

    /// Every winning move, heap by heap (each heap's options are found when the iterator gets
    /// to it, and its splits as they are listed: a heap of 10^18 stones has some 10^17 winning
    /// splits, and the first comes at once): none when the position is lost.
    pub fn winning_moves(&self) -> WinningMoves<'_> {
        let heaps = if self.verdict() == Verdict::Lost { 0 } else { self.heaps.len() };
        WinningMoves { position: self, heap: 0, heaps, pending: Box::new(std::iter::empty()) }
    }

    /// How many winning moves there are, exactly, counted without listing them (splits by the
    /// values their parts must reach); `None` when not every option of some heap is known (the
    /// splits of heaps of Lasker's Nim beyond 65536 stones).
    ///
    /// ```
    /// use nimcount::game::Game;
    /// use nimcount::play::{Position, Rules};
    /// use nimcount::progress::Silent;
    ///
    /// let kayles = Rules::for_game(&Game::parse("kayles")?, &1000000u32.into(), None, &Silent)?;
    /// let position = Position::new(&kayles, [10u32, 17, 1000000])?;
    /// assert_eq!(position.winning_move_count(), Some(333329u32.into()));
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn winning_move_count(&self) -> Option<BigUint> {
        if self.verdict() == Verdict::Lost {
            return Some(BigUint::zero());
        }
        (0..self.heaps.len()).try_fold(BigUint::zero(), |total, i| {
            let n = &self.heaps[i];
            if self.misere {
                return Some(total + u8::from(self.misere_target(i) < *n));
            }
            let target = &self.grundy[i] ^ &self.xor;
            self.heap_rules[i].options_to(n, &target).count().map(|c| total + c)
        })
    }

    /// Misère Nim: the heap that heap `i` must be left as. Against the other heaps' XOR y: with
    /// a large heap among them, normal play (leave y); otherwise leave an odd number of
    /// 1-heaps: y ⊕ 1.
    fn misere_target(&self, i: usize) -> BigUint {
        let n = &self.heaps[i];
        let y = &self.xor ^ n;
        let others_large = self.large_heaps() - usize::from(n.bits() >= 2);
        if others_large > 0 { y } else { y ^ BigUint::one() }
    }

    /// The winning moves that change heap `i`.
    fn moves_from(&self, i: usize) -> Box<dyn Iterator<Item = Move> + '_> {
        let n = &self.heaps[i];
        if self.misere {
            let target = self.misere_target(i);
            let to = (target < *n).then(|| Move::single(i, n.clone(), super::non_empty([target])));
            return Box::new(to.into_iter());
        }
        let target = &self.grundy[i] ^ &self.xor;
        let options = self.heap_rules[i].options_to(n, &target);
        Box::new(options.into_iter().map(move |to| Move::single(i, n.clone(), to)))
    }
}

/// The winning moves of a [`Position`], heap by heap.
pub struct WinningMoves<'p> {
    position: &'p Position<'p>,
    heap: usize,
    heaps: usize,
    pending: Box<dyn Iterator<Item = Move> + 'p>,
}

impl std::fmt::Debug for WinningMoves<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WinningMoves").field("heap", &self.heap).field("heaps", &self.heaps).finish()
    }
}

impl Iterator for WinningMoves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        loop {
            if let Some(m) = self.pending.next() {
                return Some(m);
            }
            if self.heap == self.heaps {
                return None;
            }
            self.pending = self.position.moves_from(self.heap);
            self.heap += 1;
        }
    }
}
