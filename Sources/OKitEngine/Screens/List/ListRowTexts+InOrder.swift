extension ListRowTexts {
    /// The rows' search texts and index letters copied into display order: what a keystroke reads.
    ///
    /// `ListRowTexts` keeps texts by slot (rows keep their slot when they move), and slots are in the data's
    /// order, not the list's: read in display order, every row was a cache miss at 1,000,000 rows (a keystroke
    /// narrowing 875,000 matches took 170 ms, 95× the 100,000-row figure). This copy is made on the first search
    /// after the order or a text changed, and read in order by every keystroke after it.
    struct InOrder {
        /// Every row's normalized text, one after the other in display order.
        private var bytes: [UInt8] = []
        /// Where the text of the row at each display position ends in `bytes` (it starts where the previous ends).
        private var ends: [Int32] = []
        /// The index letter of the row at each display position (`#` when unknown).
        private var letter: [UInt8] = []

        init(_ texts: ListRowTexts, order: ChunkedOrder) {
            // Written through pointers, a few instructions a row: each row's span and its bytes are cache misses
            // at 1,000,000 rows (slots are in the data's order, not the list's), and the fewer instructions
            // between them, the more rows the processor has in flight at once (75 -> 29 ms at 1,000,000 rows).
            let n = order.count
            var ends = [Int32](repeating: 0, count: n)
            var letter = [UInt8](repeating: 0x23, count: n)
            bytes = texts.bytes.withUnsafeBufferPointer { src in
                [UInt8](unsafeUninitializedCapacity: src.count) { dst, written in
                    let from = src.baseAddress, to = dst.baseAddress   // nil when every text is empty
                    var w = 0, p = 0
                    texts.span.withUnsafeBufferPointer { span in
                        texts.letter.withUnsafeBufferPointer { letters in
                            ends.withUnsafeMutableBufferPointer { ends in
                                letter.withUnsafeMutableBufferPointer { letter in
                                    for chunk in order.chunks {
                                        for s in chunk {
                                            let i = Int(s)
                                            if i < span.count, span[i].start >= 0 {
                                                let k = Int(span[i].length)
                                                if k > 0, w + k <= dst.count, let from, let to {
                                                    (to + w).update(from: from + Int(span[i].start), count: k)
                                                    w += k
                                                }
                                            }
                                            ends[p] = Int32(truncatingIfNeeded: w)
                                            if i < letters.count, letters[i] != 0 { letter[p] = letters[i] }
                                            p += 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                    written = w
                }
            }
            self.ends = ends
            self.letter = letter
        }

        /// The display positions among `positions` (ascending) whose text contains `query` (normalized).
        func matching<S: Sequence>(_ positions: S, _ query: String) -> [Int] where S.Element == Int {
            var q = query
            var out: [Int] = []
            q.withUTF8 { qb in
                bytes.withUnsafeBufferPointer { buf in
                    ends.withUnsafeBufferPointer { ends in
                        for p in positions {
                            let from = p == 0 ? 0 : Int(ends[p - 1])
                            if SearchText.contains(UnsafeBufferPointer(rebasing: buf[from..<Int(ends[p])]), qb) { out.append(p) }
                        }
                    }
                }
            }
            return out
        }

        /// The index letters of the rows at these display positions, in the order they first appear.
        func letters<S: Sequence>(_ positions: S) -> [String] where S.Element == Int {
            var seen = [Bool](repeating: false, count: 128)
            var out: [String] = []
            letter.withUnsafeBufferPointer { letter in
                for p in positions {
                    let c = Int(letter[p] & 0x7F)
                    if !seen[c] { seen[c] = true; out.append(String(UnicodeScalar(UInt8(c)))) }
                }
            }
            return out
        }
    }
}
