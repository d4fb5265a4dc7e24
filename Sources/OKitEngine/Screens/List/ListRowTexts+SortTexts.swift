extension ListRowTexts {
    /// The sort texts of a list's full pass, kept for its first search when the search text is the sort key
    /// (`searchIsSort`): each distinct text's UTF-8 once, as `TextKeys` numbered them while the rows were built
    /// (each key's bytes were in the cache then), and each row's number among them.
    ///
    /// The first search folds the distinct texts from here instead of reading every row's key again from the
    /// model: at 100,000 books that read was a cache miss a row (the names lie among hundreds of megabytes of
    /// entities), two thirds of the first keystroke's 16–24 ms (issue 38). Kept by the list's rows until the
    /// first search or the first change of a row, whichever comes first.
    struct SortTexts {
        /// The distinct texts' UTF-8 bytes, one after the other: text u's are `bytes[starts[u] ..< starts[u + 1]]`.
        let bytes: [UInt8]
        let starts: [Int]
        /// Each row's (slot's) text number; empty when every row's text is distinct (row i's is text i).
        let numbers: [Int32]
        /// How many rows (slots 0..<rows).
        let rows: Int

        /// How many distinct texts.
        var count: Int { starts.count - 1 }
    }

    /// Sets every slot's search text from `kept` (normalized as `SearchText.normalize` does): each distinct text is
    /// folded once, from memory read in order, and the slots of equal texts share its bytes (`InOrder` lays them
    /// out row by row on the first search). False (nothing changed) when the texts are too long for 32-bit spans.
    mutating func replaceSearch(from kept: SortTexts) -> Bool {
        guard kept.bytes.count < Int(Int32.max) / 2 else { return false }
        let (folded, textSpans) = Self.fold(kept)
        guard !kept.numbers.isEmpty else {
            replaceSearch(bytes: folded, spans: textSpans)
            return true
        }
        var spans = [Span](repeating: .none, count: kept.rows)
        for s in 0..<Swift.min(kept.rows, kept.numbers.count) { spans[s] = textSpans[Int(kept.numbers[s])] }
        replaceSearch(bytes: folded, spans: spans)
        return true
    }

    /// Each distinct text of `kept` normalized, one after the other, and where each one is. ASCII texts are folded
    /// in one pass over all of them into a buffer as long as the texts (folding never lengthens them; appending
    /// byte by byte checked the array's capacity and uniqueness every byte: 10 ns a byte); other texts go through
    /// `SearchText.normalize` and are appended after.
    private static func fold(_ kept: SortTexts) -> (bytes: [UInt8], spans: [Span]) {
        var spans = [Span](repeating: .none, count: kept.count)
        var other: [Int] = []
        let raw = kept.bytes, starts = kept.starts
        var out = [UInt8](repeating: 0, count: raw.count)
        var used = 0
        // Each byte's folded form (0: dropped), and every byte written where the next kept one goes: no branch a
        // byte that the text decides (spaces and capitals mispredicted: 5 ns a byte with branches).
        let table = SearchText.asciiFoldTable
        for u in 0..<kept.count {
            let from = used
            var last: UInt8 = 0, seen: UInt8 = 0
            for j in starts[u] ..< starts[u + 1] {
                let b = raw[j]
                seen |= b
                let c = table[Int(b)]
                out[used] = c
                let keep = c != 0 && c != last
                used &+= keep ? 1 : 0
                last = keep ? c : last
            }
            guard seen < 0x80 else { used = from; other.append(u); continue }
            spans[u] = Span(start: Int32(truncatingIfNeeded: from), length: Int32(truncatingIfNeeded: used - from))
        }
        out.removeSubrange(used...)
        for u in other {
            let text = String(decoding: raw[starts[u] ..< starts[u + 1]], as: UTF8.self)
            let from = out.count
            out.append(contentsOf: SearchText.normalize(text).utf8)
            spans[u] = Span(start: Int32(truncatingIfNeeded: from), length: Int32(truncatingIfNeeded: out.count - from))
        }
        return (out, spans)
    }
}
