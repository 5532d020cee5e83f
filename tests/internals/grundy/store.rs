mod tests {
    use nimcount::internals::grundy::store::*;

    #[test]
    fn values_widen_only_when_needed() {
        let mut store = Store::new();
        for g in [0, 1, 255] {
            store.push(g);
        }
        assert_eq!(store.width(), 1);
        store.push(256);
        assert_eq!(store.width(), 2);
        store.push(65_535);
        assert_eq!(store.width(), 2);
        store.push(70_000);
        assert_eq!(store.width(), 4);
        assert_eq!(store.to_u32(store.len()), [0, 1, 255, 256, 65_535, 70_000]);
        assert_eq!((store.max(), store.len()), (70_000, 6));
        // Straight from bytes to 32 bits.
        let mut store = Store::new();
        store.push(7);
        store.push(1 << 20);
        assert_eq!((store.width(), store.to_u32(2)), (4, vec![7, 1 << 20]));
    }
}
