/// What a keystroke reads of every row, kept by slot in flat arrays: the normalized search texts in one byte
/// buffer and each row's index letter as one byte. A search over 1,000,000 rows then reads memory in order
/// instead of one heap string per row (each a cache miss: `list_search` grew 20× from 100,000 to 1,000,000 books).
struct ListRowTexts {
    private(set) var bytes: [UInt8] = []
    /// Each slot's text in `bytes` (`start` −1: not computed).
    private(set) var start: [Int32] = []
    private(set) var length: [Int32] = []
    /// Each slot's index letter: `A`…`Z` or `#` (0 when unknown).
    private(set) var letter: [UInt8] = []
    /// Bytes no slot points at any more (texts replaced by a row's new keys).
    private var garbage = 0
    /// Whether the rows' search texts were computed (the first search computes them).
    private(set) var hasSearch = false

    private mutating func grow(to slot: Int) {
        if slot >= start.count {
            let n = slot + 1 - start.count
            start.append(contentsOf: repeatElement(-1, count: n))
            length.append(contentsOf: repeatElement(0, count: n))
            letter.append(contentsOf: repeatElement(0, count: n))
        }
    }

    /// Makes room for `n` slots.
    mutating func reserve(_ n: Int) {
        start.reserveCapacity(n)
        length.reserveCapacity(n)
        letter.reserveCapacity(n)
    }

    /// Sets a slot's section title (its index letter).
    mutating func setTitle(_ slot: Int32, _ title: String?) {
        grow(to: Int(slot))
        letter[Int(slot)] = ListIndexLetters.letter(title).utf8.first ?? 0x23
    }

    /// Sets a slot's search text (normalized here, as `SearchText.normalize` does).
    mutating func setSearch(_ slot: Int32, _ text: String) {
        let s = Int(slot)
        grow(to: s)
        if start[s] >= 0 { garbage += Int(length[s]) }
        if garbage > 1 << 16, garbage > bytes.count / 2 { compact() }
        let from = bytes.count
        SearchText.appendNormalized(text, to: &bytes)
        start[s] = Int32(truncatingIfNeeded: from)
        length[s] = Int32(truncatingIfNeeded: bytes.count - from)
        hasSearch = true
    }

    /// A slot freed: its text is garbage.
    mutating func clear(_ slot: Int32) {
        let s = Int(slot)
        guard s < start.count, start[s] >= 0 else { return }
        garbage += Int(length[s])
        start[s] = -1
        length[s] = 0
    }

    /// Writes the live texts again without the garbage.
    private mutating func compact() {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(bytes.count - garbage)
        for s in start.indices where start[s] >= 0 {
            let from = Int(start[s])
            start[s] = Int32(truncatingIfNeeded: fresh.count)
            fresh.append(contentsOf: bytes[from..<(from + Int(length[s]))])
        }
        bytes = fresh
        garbage = 0
    }
}
