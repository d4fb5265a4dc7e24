/// The order of a list's rows (screens.md "rowSort", "group"): sections by group key, rows by sort key, both
/// typed with text compared case- and diacritic-folded (then case-sensitively, never reversed), and rows with
/// equal keys in the order of the data (`seq`).
struct ListRowOrder {
    let grouped: Bool
    let sorted: Bool
    let groupAscending: Bool
    let ascending: Bool

    /// Typed comparison of a main key (text folded).
    @inline(__always)
    static func main(_ a: Value, _ b: Value) -> Int {
        if case .string(let x) = a, case .string(let y) = b {
            let fa = ListScreen.fold(x), fb = ListScreen.fold(y)
            return fa == fb ? 0 : (fa < fb ? -1 : 1)
        }
        return SortKey.compare(a, b)
    }

    /// The tie-break: case-sensitive text.
    @inline(__always)
    static func tie(_ a: Value, _ b: Value) -> Int {
        if case .string(let x) = a, case .string(let y) = b { return ValueOrder.compareScalars(x, y) }
        return 0
    }

    /// Whether `x` comes before `y`.
    func before(_ x: ListScreen.Row, _ y: ListScreen.Row) -> Bool {
        if grouped {
            let g = ListRowOrder.main(x.group, y.group)
            if g != 0 { return groupAscending || x.group.isNull || y.group.isNull ? g < 0 : g > 0 }
            let t = ListRowOrder.tie(x.group, y.group)
            if t != 0 { return t < 0 }
        }
        if sorted {
            let c = ListRowOrder.main(x.sort, y.sort)
            if c != 0 { return ascending || x.sort.isNull || y.sort.isNull ? c < 0 : c > 0 }
            let t = ListRowOrder.tie(x.sort, y.sort)
            if t != 0 { return t < 0 }
        }
        return x.seq < y.seq
    }

    /// The display order of the rows of a full pass (in data order, `seq` their positions): their indices.
    ///
    /// When every key is text (the common case) each distinct text is ranked once — folded, compared, then
    /// looked up per row — and the rows are sorted on one integer each (group rank, sort rank, position), so a
    /// list of 100,000 books with a few thousand distinct names compares a few thousand strings, not millions,
    /// and no row is copied.
    func sortedOrder(_ rows: [ListScreen.Row]) -> [Int32] {
        let n = rows.count
        if n < 2 || (!grouped && !sorted) { return (0..<Int32(n)).map { $0 } }
        if n < 1 << 21,
           let g = grouped ? ListRowOrder.ranks(n, { rows[$0].group }, ascending: groupAscending) : [],
           let s = sorted ? ListRowOrder.ranks(n, { rows[$0].sort }, ascending: ascending) : [] {
            var keys = [UInt64](repeating: 0, count: n)
            for i in 0..<n {
                let gr = grouped ? UInt64(g[i]) : 0, sr = sorted ? UInt64(s[i]) : 0
                keys[i] = gr << 43 | sr << 22 | UInt64(i)
            }
            keys.sort()
            return keys.map { Int32(truncatingIfNeeded: $0 & 0x3F_FFFF) }
        }
        var order = (0..<Int32(n)).map { $0 }
        order.sort { before(rows[Int($0)], rows[Int($1)]) }
        return order
    }

    /// Ranks of a column of text keys in this order (equal texts share a rank); nil when a key is not text.
    static func ranks(_ n: Int, _ column: (Int) -> Value, ascending: Bool) -> [Int32]? {
        var uniqueOf: [TextKey: Int32] = [:]
        var uniques: [String] = []
        var index = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            guard case .string(let s) = column(i) else { return nil }
            let key = TextKey(s)
            if let u = uniqueOf[key] { index[i] = u; continue }
            let u = Int32(uniques.count)
            uniqueOf[key] = u
            uniques.append(s)
            index[i] = u
        }
        let folded = uniques.map(ListScreen.fold)
        var byOrder = Array(0..<uniques.count)
        byOrder.sort { a, b in
            let (fa, fb) = (folded[a], folded[b])
            if fa != fb { return ascending ? fa < fb : fa > fb }
            return ValueOrder.compareScalars(uniques[a], uniques[b]) < 0
        }
        var rank = [Int32](repeating: 0, count: uniques.count)
        for (r, u) in byOrder.enumerated() { rank[u] = Int32(r) }
        return index.map { rank[Int($0)] }
    }
}

/// A text as a dictionary key hashed once with FNV-1a over its UTF-8 bytes (the standard hasher costs several
/// times more per short text, and ranking a list's keys hashes each row's text).
struct TextKey: Hashable {
    let text: String
    let hash: UInt64

    init(_ text: String) {
        var t = text
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        t.withUTF8 { for b in $0 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 } }
        self.text = t
        hash = h
    }

    /// Equal texts (String's equality: canonically equivalent texts with other bytes hash apart and are ranked
    /// apart, still in order).
    static func == (a: TextKey, b: TextKey) -> Bool { a.hash == b.hash && a.text == b.text }
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
