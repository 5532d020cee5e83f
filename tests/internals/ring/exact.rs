mod tests {
    use nimcount::internals::ring::Ring;
    use nimcount::internals::ring::exact::*;

    #[test]
    fn exact_division_by_the_largest_powers_of_two() {
        let mut x = vec![i64::MIN, 0];
        Exact64.divide_by_power_of_two(&mut x, 63, false).unwrap();
        assert_eq!(x, [-1, 0]);
        assert!(Exact64.divide_by_power_of_two(&mut [1i64 << 62], 63, false).is_err());
        let mut x = vec![0i64, 0];
        Exact64.divide_by_power_of_two(&mut x, 200, true).unwrap();
        assert_eq!(x, [0, 0]);
        assert!(Exact64.divide_by_power_of_two(&mut [i64::MIN], 64, false).is_err());
        let mut y = vec![i128::MIN, 0];
        Exact128.divide_by_power_of_two(&mut y, 127, false).unwrap();
        assert_eq!(y, [-1, 0]);
    }
}
