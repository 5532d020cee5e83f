mod file;
mod periodic;
mod residues;
mod structured;

mod tests {
    use nimcount::internals::histogram::*;

    use nimcount::internals::error::Error;
    use num_traits::Zero;

    #[test]
    fn values_must_cover_the_range() {
        let err = Histogram::from_values(&[0, 1, 2], 1, 5).unwrap_err();
        assert!(matches!(err, Error::ValuesTooShort { have: 3, need: 6 }), "{err}");
        let h = Histogram::from_values(&[0, 1, 2], 2, 1).unwrap();
        assert_eq!((h.transform_len(), h.total().is_zero()), (1, true));
    }
}
