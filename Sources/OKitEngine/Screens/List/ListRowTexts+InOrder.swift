extension ListRowTexts {
    /// The rows' search texts and index letters copied into display order: what a keystroke reads.
    ///
    /// `ListRowTexts` keeps texts by slot (rows keep their slot when they move), and slots are in the data's
    /// order, not the list's: read in display order, every row was a cache miss at 1,000,000 rows (a keystroke
    /// narrowing 875,000 matches took 170 ms, 95× the 100,000-row figure). This copy is made on the first search
    /// after the order or a text changed, and read in order by every keystroke after it. The table's texts are then
    /// laid out in this order too (`ListRowTexts.adopt`): both share one buffer, so the texts are kept once.
    struct InOrder {
        /// Every row's normalized text, one after the other in display order (the table's `bytes` too).
        private var bytes: [UInt8] = []
        /// Where the text of the row at each display position ends in `bytes` (it starts where the previous ends).
        private var ends: [Int32] = []
        /// The index letter of the row at each display position (`#` when unknown).
        private var letter: [UInt8] = []

        init(_ texts: inout ListRowTexts, order: ChunkedOrder) {
            // Slots are in the data's order, display positions in the list's: one side is read at random.
            // Reading each row's span then its bytes in display order waited for two cache misses a row, one
            // after the other, once 1,000,000 rows' texts (28 MB) outgrew the caches. Here each row's span is
            // read once in display order (a miss, but not followed by another), and the bytes are copied in
            // slot order, read in order and written at random: writes do not make the processor wait.
            var ends = [Int32](repeating: 0, count: order.count)
            var position = [Int32](repeating: -1, count: texts.span.count)
            texts.span.withUnsafeBufferPointer { span in
                ends.withUnsafeMutableBufferPointer { ends in
                    position.withUnsafeMutableBufferPointer { position in
                        var w: Int32 = 0, p = 0
                        for chunk in order.chunks {
                            for s in chunk {
                                let i = Int(s)
                                if i < span.count {
                                    position[i] = Int32(truncatingIfNeeded: p)
                                    if span[i].start >= 0 { w &+= span[i].length }
                                }
                                ends[p] = w
                                p += 1
                            }
                        }
                    }
                }
            }
            let total = Int(ends.last ?? 0)
            bytes = [UInt8](unsafeUninitializedCapacity: total) { dst, written in
                guard let to = dst.baseAddress else { return }
                texts.bytes.withUnsafeBufferPointer { src in
                    texts.span.withUnsafeBufferPointer { span in
                        position.withUnsafeBufferPointer { position in
                            ends.withUnsafeBufferPointer { ends in
                                for i in span.indices where position[i] >= 0 && span[i].start >= 0 {
                                    let p = Int(position[i]), k = Int(span[i].length)
                                    let at = p == 0 ? 0 : Int(ends[p - 1]), from = Int(span[i].start)
                                    guard k > 0 else { continue }
                                    if from + k <= src.count, let base = src.baseAddress {
                                        (to + at).initialize(from: base + from, count: k)
                                    } else {
                                        (to + at).initialize(repeating: 0, count: k)   // not reached: spans lie in `bytes`
                                    }
                                }
                            }
                        }
                    }
                }
                written = total
            }
            texts.adopt(bytes, ends: ends, position: position)
            self.ends = ends
            letter = texts.letters(in: order)
        }

        /// The display positions among `positions` (ascending) whose text contains `query` (normalized).
        /// (32-bit positions: a search that matches 100,000 rows keeps 400 KB, not 800.)
        func matching<S: Sequence>(_ positions: S, _ query: String) -> [Int32] where S.Element == Int32 {
            var q = query
            var out: [Int32] = []
            q.withUTF8 { qb in
                bytes.withUnsafeBufferPointer { buf in
                    ends.withUnsafeBufferPointer { ends in
                        for p32 in positions {
                            let p = Int(p32)
                            let from = p == 0 ? 0 : Int(ends[p - 1])
                            if SearchText.contains(UnsafeBufferPointer(rebasing: buf[from..<Int(ends[p])]), qb) { out.append(p32) }
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
