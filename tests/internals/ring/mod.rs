mod exact;
mod float;
mod modular;
mod residue;

mod tests {
    use nimcount::internals::ring::*;

    use nimcount::internals::ring::exact::{Exact64, Exact128};
    use nimcount::internals::ring::float::{Float32, Float64};
    use nimcount::internals::ring::modular::{Mod32, Mod64};

    use nimcount::internals::ring::wrapping::{Wrap32, Wrap64};

    /// Whether `ring` promises to name its words and does (a ring that promised and answered
    /// `Other` would reach no path of the subset convolution).
    fn names_its_words<R: Ring>(ring: R) -> bool {
        R::NAMES_ITS_WORDS && !matches!(ring.words(nimcount::internals::internal()), Words::Other)
    }

    #[test]
    fn the_built_in_rings_name_their_words() {
        assert!(names_its_words(Mod32::new(7).unwrap()));
        assert!(names_its_words(Mod64::new(7).unwrap()));
        assert!(names_its_words(Wrap32) && names_its_words(Wrap64));
        assert!(names_its_words(Exact64) && names_its_words(Exact128));
        assert!(names_its_words(Float32) && names_its_words(Float64));
    }
}
