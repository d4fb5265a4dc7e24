/// Sort keys (screens.md "Sort order", bindings.md `sorted`): text by its letters in the app's language
/// (`TextCollation`), then its accents and case (`TextCollation.tie`); numbers numerically, dates by time;
/// bool < number < date < string; nil last. A list's `rowSort` and `group` keys and the `sorted` extension
/// share it, so `sorted` puts texts where a list of them puts its rows.
enum SortKey {
    /// The order of two keys, text by its letters only (a list's main comparison; 0 for `e` and `é`).
    static func compare(_ a: Value, _ b: Value, _ collation: TextCollation) -> Int {
        if case .string(let x) = a, case .string(let y) = b {
            guard TextCollation.isASCII(x), TextCollation.isASCII(y) else { return collation.compareLetters(x, y) }
            return TextCollation.compareASCIILetters(x, y)
        }
        if a.isNull || b.isNull { return a.isNull == b.isNull ? 0 : (a.isNull ? 1 : -1) }
        if let c = ValueOrder.compare(a, b) { return c }
        let ra = ValueOrder.rank(a), rb = ValueOrder.rank(b)
        return ra == rb ? 0 : (ra < rb ? -1 : 1)
    }

    /// The positions of `keys` in their order (`sorted`): letters, then accents and case, equal keys in the order
    /// they came. A text's letters are weighed once, not at each comparison, and only when a text is not ASCII
    /// (ASCII texts are compared by their bytes, as a list compares them).
    static func order(_ keys: [Value], _ collation: TextCollation) -> [Int] {
        let ascii = keys.map { key -> Bool in
            if case .string(let s) = key { return TextCollation.isASCII(s) }
            return true
        }
        let letters: [[UInt32]] = ascii.contains(false)
            ? keys.map { key in
                if case .string(let s) = key { return collation.primary(s) }
                return []
            }
            : []
        return keys.indices.sorted { i, j in
            let c = compare(keys, i, j, ascii: ascii, letters: letters, collation)
            return c != 0 ? c < 0 : i < j
        }
    }

    @inline(__always)
    private static func compare(_ keys: [Value], _ i: Int, _ j: Int, ascii: [Bool], letters: [[UInt32]],
                                _ collation: TextCollation) -> Int {
        guard case .string(let x) = keys[i], case .string(let y) = keys[j] else { return compare(keys[i], keys[j], collation) }
        let c = ascii[i] && ascii[j] ? TextCollation.compareASCIILetters(x, y) : TextCollation.compare(letters[i], letters[j])
        return c != 0 ? c : TextCollation.tie(x, y)
    }
}
