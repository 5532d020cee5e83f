mod tests {
    use nimcount::internals::ring::float::*;

    use nimcount::internals::ring::Ring;

    #[test]
    fn halving_is_exact_at_the_extremes_of_the_exponent_range() {
        let mut x = [f64::MAX, 1.0, 1.0, -3.0, f64::INFINITY, 0.0];
        Float64.divide_by_power_of_two(&mut x[..1], 1024, false).unwrap();
        assert_eq!(x[0], 1.0 - f64::EPSILON / 2.0);
        Float64.divide_by_power_of_two(&mut x[1..2], 1074, false).unwrap();
        assert_eq!(x[1], f64::from_bits(1), "the smallest subnormal");
        Float64.divide_by_power_of_two(&mut x[2..], u32::MAX, true).unwrap();
        assert_eq!(x[2..5], [0.0, -0.0, f64::INFINITY]);
        assert!(x[3].is_sign_negative());
        let mut y = vec![f32::MAX, 6.0];
        Float32.divide_by_power_of_two(&mut y, 128, false).unwrap();
        assert_eq!(y, [1.0 - f32::EPSILON / 2.0, 6.0 / 2f32.powi(64) / 2f32.powi(64)]);
        let mut z = vec![3.0f32; 3];
        Float32.divide_by_power_of_two(&mut z, 1, false).unwrap();
        assert_eq!(z, [1.5; 3]);
    }
}
