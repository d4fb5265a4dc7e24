/// The order of a list's rows (screens.md "rowSort", "group"): sections by group key, rows by sort key, both
/// typed with text in the app language's order (`TextCollation`: letters, then accents, then case; only the
/// letters reversed by a descending sort), and rows with equal keys in the order of the data (`seq`).
struct ListRowOrder {
    let grouped: Bool
    let sorted: Bool
    let groupAscending: Bool
    let ascending: Bool
    /// The app's language's order of texts (used once a text is not ASCII).
    var collation = TextCollation(language: "en")

    /// Typed comparison of a main key (text by its letters).
    @inline(__always)
    func main(_ a: Value, _ b: Value) -> Int { SortKey.compare(a, b, collation) }

    /// The tie-break: accents, then case.
    @inline(__always)
    static func tie(_ a: Value, _ b: Value) -> Int {
        if case .string(let x) = a, case .string(let y) = b { return TextCollation.tie(x, y) }
        return 0
    }

    /// Whether `x` comes before `y`.
    func before(_ x: ListScreen.Row, _ y: ListScreen.Row) -> Bool {
        if grouped {
            let g = main(x.group, y.group)
            if g != 0 { return groupAscending || x.group.isNull || y.group.isNull ? g < 0 : g > 0 }
            let t = ListRowOrder.tie(x.group, y.group)
            if t != 0 { return t < 0 }
        }
        if sorted {
            let c = main(x.sort, y.sort)
            if c != 0 { return ascending || x.sort.isNull || y.sort.isNull ? c < 0 : c > 0 }
            let t = ListRowOrder.tie(x.sort, y.sort)
            if t != 0 { return t < 0 }
        }
        return x.seq < y.seq
    }

    /// The display order of the rows of a full pass (in data order, `seq` their positions): their indices.
    ///
    /// When every key is text (the common case) each distinct text is ranked once — numbered as the rows were
    /// built (`TextKeys`), folded, compared — and the rows are ordered by one integer each (group rank, sort
    /// rank) with a counting sort that keeps the data's order among equals, so a list of 100,000 books with a
    /// few thousand distinct names compares a few thousand strings, not millions, and no row is copied.
    func sortedOrder(_ rows: [ListScreen.Row], groups: TextKeys, sorts: TextKeys) -> [Int32] {
        let n = rows.count
        if n < 2 || (!grouped && !sorted) { return (0..<Int32(n)).map { $0 } }
        if let g = grouped ? groups.ranks(ascending: groupAscending, collation) : [],
           let s = sorted ? sorts.ranks(ascending: ascending, collation) : [],
           g.count == (grouped ? n : 0), s.count == (sorted ? n : 0) {
            let sortRanks = sorted ? sorts.distinctCount : 1
            let groupRanks = grouped ? groups.distinctCount : 1
            if sortRanks * groupRanks <= max(n * 4, 1 << 16) {
                return ListRowOrder.countingOrder(n, ranks: groupRanks * sortRanks) { i in
                    (grouped ? Int(g[i]) * sortRanks : 0) + (sorted ? Int(s[i]) : 0)
                }
            }
            var keys = [UInt64](repeating: 0, count: n)
            for i in 0..<n {
                let gr = grouped ? UInt64(g[i]) : 0, sr = sorted ? UInt64(s[i]) : 0
                keys[i] = gr << 43 | sr << 22 | UInt64(i)
            }
            if n < 1 << 21 {
                keys.sort()
                return keys.map { Int32(truncatingIfNeeded: $0 & 0x3F_FFFF) }
            }
        }
        var order = (0..<Int32(n)).map { $0 }
        order.sort { before(rows[Int($0)], rows[Int($1)]) }
        return order
    }

    /// The indices 0..<n ordered by `rank(i)` (each below `ranks`), equal ranks in index order: a counting sort
    /// (two passes over the rows and one over the ranks, where a comparison sort of 100,000 keys took 5 ms).
    static func countingOrder(_ n: Int, ranks: Int, _ rank: (Int) -> Int) -> [Int32] {
        var starts = [Int32](repeating: 0, count: ranks + 1)
        var of = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let r = rank(i)
            of[i] = Int32(truncatingIfNeeded: r)
            starts[r + 1] &+= 1
        }
        for r in 0..<ranks { starts[r + 1] &+= starts[r] }
        var order = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let r = Int(of[i])
            order[Int(starts[r])] = Int32(truncatingIfNeeded: i)
            starts[r] &+= 1
        }
        return order
    }

    /// Ranks of a column of text keys in this order (equal texts share a rank); nil when a key is not text.
    static func ranks(_ n: Int, _ column: (Int) -> Value, ascending: Bool,
                      _ collation: TextCollation = TextCollation(language: "en")) -> [Int32]? {
        var keys = TextKeys(capacity: n)
        for i in 0..<n { keys.add(column(i)) }
        return keys.ranks(ascending: ascending, collation)
    }
}

/// A column of keys (a list's sort or group keys, row by row) numbered by distinct text as the rows are built,
/// while each key's text is still in the cache: the ranks of all rows then come from ordering the few distinct
/// texts. Once a key is not text the column gives no ranks (the rows are compared one by one).
///
/// Distinct texts are found through a small open-addressing table of their FNV-1a hashes (`DistinctTexts`; a
/// `Dictionary` of texts hashed each row's key again with the standard hasher and copied it into the key: a
/// quarter of a list's first pass).
struct TextKeys {
    private var distinct = DistinctTexts()
    private var numbers: [Int32] = []
    private var allText = true

    init(capacity: Int) { numbers.reserveCapacity(capacity) }

    /// How many distinct texts the column has.
    var distinctCount: Int { distinct.texts.count }

    /// Whether every key added was text (true for an empty column).
    var isAllText: Bool { allText }

    @inline(__always)
    mutating func add(_ v: Value) {
        guard allText else { return }
        guard case .string(let s) = v else {
            allText = false
            numbers = []
            return
        }
        numbers.append(distinct.number(of: s))
    }

    /// The distinct texts' UTF-8 and each row's number among them, moved out (the column is empty after): what
    /// the list's first search folds when its search text is the sort key (`ListRowTexts.SortTexts`). Nil when a
    /// key was not text.
    mutating func takeTexts() -> ListRowTexts.SortTexts? {
        guard allText else { return nil }
        let (bytes, starts) = distinct.takeBytes()
        let rows = numbers.count
        // Every text distinct: row i's is text i (numbered in order of appearance), so no number is kept.
        let numbered = starts.count - 1 == rows ? [] : numbers
        numbers = []
        return ListRowTexts.SortTexts(bytes: bytes, starts: starts, numbers: numbered, rows: rows)
    }

    /// Each row's rank: equal texts share one, in the collation's order (letters, then accents and case;
    /// `ascending` reverses the letters only). Nil when a key was not text.
    func ranks(ascending: Bool, _ collation: TextCollation = TextCollation(language: "en")) -> [Int32]? {
        guard allText else { return nil }
        let uniques = distinct.texts
        // ASCII texts (the common case) are ordered by their bytes, lower-cased, then as they are: the same order
        // as their folded strings (for ASCII, `String`'s order is the bytes' order), without folding them into
        // new strings or the standard library's general comparison (a tenth of a list's first pass over 8,000
        // distinct names). Texts are in one buffer: each one's bytes, then its bytes lower-cased.
        var bytes: [UInt8] = []
        var start = [Int](repeating: -1, count: uniques.count)   // −1: not ASCII, compared by the collation
        for (u, text) in uniques.enumerated() {
            text.utf8.withContiguousStorageIfAvailable { b in
                guard !b.contains(where: { $0 >= 0x80 }) else { return }
                start[u] = bytes.count
                bytes.append(contentsOf: b)
                for c in b { bytes.append(c >= 65 && c <= 90 ? c + 32 : c) }
            }
        }
        // With texts that are not ASCII, an ASCII text may be compared with one: every text's letters, once.
        let letters = start.contains(-1) ? uniques.map(collation.primary) : []
        var byOrder = Array(0..<uniques.count)
        bytes.withUnsafeBufferPointer { buf in
            byOrder.sort { a, b in
                let (sa, sb) = (start[a], start[b])
                if sa >= 0 && sb >= 0 {
                    let (na, nb) = (uniques[a].utf8.count, uniques[b].utf8.count)
                    let c = TextKeys.compareBytes(buf[(sa + na)..<(sa + 2 * na)], buf[(sb + nb)..<(sb + 2 * nb)])
                    if c != 0 { return ascending ? c < 0 : c > 0 }
                    return TextKeys.compareBytes(buf[sa..<(sa + na)], buf[sb..<(sb + nb)]) < 0
                }
                let c = TextCollation.compare(letters[a], letters[b])
                if c != 0 { return ascending ? c < 0 : c > 0 }
                return TextCollation.tie(uniques[a], uniques[b]) < 0
            }
        }
        var rank = [Int32](repeating: 0, count: uniques.count)
        for (r, u) in byOrder.enumerated() { rank[u] = Int32(r) }
        return numbers.map { rank[Int($0)] }
    }
}

extension TextKeys {
    /// Lexicographic order of two byte strings: −1, 0 or 1.
    @inline(__always)
    static func compareBytes(_ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var (i, j) = (a.startIndex, b.startIndex)
        while i < a.endIndex && j < b.endIndex {
            if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
            i += 1
            j += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

/// The distinct texts of a column, numbered in order of appearance, found through an open-addressing table of
/// their hashes (`ByteHash.fnv`; at most half full).
///
/// A row's text is compared with a copy of the distinct texts' bytes kept side by side (`bytes`), not with the
/// first row's string that had it: those lay scattered among 100,000 entities' values, and the comparison
/// waited for one of them each row (a quarter of a list's first pass once the rows were read ahead; issue 16).
struct DistinctTexts {
    private(set) var texts: [String] = []
    private var hashes: [UInt64] = []
    /// Every distinct text's UTF-8 bytes, one after the other; text `u`'s are `bytes[starts[u] ..< starts[u + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var table = [Int32](repeating: -1, count: 1024)
    private var mask = 1023

    /// The distinct texts' UTF-8 bytes and where each starts (text u's end where u + 1's start), moved out: the
    /// texts can no longer be numbered after.
    mutating func takeBytes() -> (bytes: [UInt8], starts: [Int]) {
        defer { bytes = []; starts = [0]; texts = []; hashes = []; table = [-1]; mask = 0 }
        return (bytes, starts)
    }

    @inline(__always)
    private static func home(_ h: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (h &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
    }

    /// The number of `s` (a new one the first time it is seen). Texts are the same when their UTF-8 bytes are
    /// (as `ValueOrder.compareScalars` says; `==` on strings compares canonical equivalence, through the
    /// standard library's general comparison: 15 % of a list's first pass).
    mutating func number(of s: String) -> Int32 {
        if let u = s.utf8.withContiguousStorageIfAvailable({ number(of: s, bytes: $0) }) { return u }
        var contiguous = s   // a string not stored as UTF-8 (not one the engine makes): its bytes made so
        return contiguous.withUTF8 { number(of: s, bytes: $0) }
    }

    private mutating func number(of s: String, bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let h = ByteHash.fnv(bytes)
        var j = DistinctTexts.home(h, mask)
        while true {
            let u = table[j]
            if u < 0 { return add(s, h, bytes, at: j) }
            if hashes[Int(u)] == h, same(Int(u), bytes) { return u }
            j = (j &+ 1) & mask
        }
    }

    /// Whether distinct text `u` has these bytes.
    @inline(__always)
    private func same(_ u: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[u], end = starts[u + 1]
        guard end - start == other.count else { return false }
        return bytes.withUnsafeBufferPointer {
            DistinctTexts.equalBytes(UnsafeBufferPointer(rebasing: $0[start ..< end]), other)
        }
    }

    /// Whether two buffers of the same length hold the same bytes, eight at a time.
    @inline(__always)
    static func equalBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == b.count }
        let n = a.count
        var i = 0
        while i + 8 <= n {
            if UnsafeRawPointer(pa + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(pb + i).loadUnaligned(as: UInt64.self) { return false }
            i += 8
        }
        while i < n {
            if pa[i] != pb[i] { return false }
            i += 1
        }
        return true
    }

    private mutating func add(_ s: String, _ h: UInt64, _ utf8: UnsafeBufferPointer<UInt8>, at j: Int) -> Int32 {
        let u = Int32(texts.count)
        texts.append(s)
        hashes.append(h)
        bytes.append(contentsOf: utf8)
        starts.append(bytes.count)
        table[j] = u
        if texts.count * 2 > mask + 1 { grow() }
        return u
    }

    private mutating func grow() {
        mask = (mask + 1) * 2 - 1
        table = [Int32](repeating: -1, count: mask + 1)
        for (u, h) in hashes.enumerated() {
            var k = DistinctTexts.home(h, mask)
            while table[k] >= 0 { k = (k &+ 1) & mask }
            table[k] = Int32(u)
        }
    }
}
