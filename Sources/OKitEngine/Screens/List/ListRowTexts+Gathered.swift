extension ListRowTexts {
    /// The UTF-8 bytes of rows' text sort keys, copied as they are one after the other, before they are folded
    /// (`ListRowTable.setSearchTexts`). Each text's first byte is a cache miss (its storage is somewhere in a
    /// model of hundreds of megabytes): a short copy a row, read in place (neither the row's entity nor its key
    /// retained: a retain is an atomic write, and the processor waits for it), lets the processor wait for many
    /// rows at once, where folding each text as it came waited for one at a time (215 ns a row, at 100,000 as
    /// at 1,000,000 rows). Freed with `deallocate()`.
    struct Gathered {
        private var bytes: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private(set) var byteCount = 0
        /// Each slot's text in `bytes` (`start` −1: not a text; computed the other way).
        private let spans: UnsafeMutableBufferPointer<Span>

        init(rows: Int) {
            capacity = Swift.max(4096, rows * 24)
            bytes = .allocate(capacity: capacity)
            spans = .allocate(capacity: rows)
            spans.initialize(repeating: .none)
        }

        func deallocate() {
            bytes.deallocate()
            spans.deallocate()
        }

        /// Copies the text of `key` (the sort key of slot `slot`, below `rows`) when it is one.
        @inline(__always)
        mutating func add(_ slot: Int, _ key: UnsafePointer<Value>) {
            if capacity - byteCount < 4096 { grow() }
            let n = SearchText.copyUTF8(key, to: UnsafeMutableBufferPointer(start: bytes + byteCount, count: capacity - byteCount))
            guard n >= 0, byteCount + n <= Int(Int32.max) else { return }
            spans[slot] = Span(start: Int32(truncatingIfNeeded: byteCount), length: Int32(truncatingIfNeeded: n))
            byteCount += n
        }

        private mutating func grow() {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = bigger
            capacity *= 2
        }

        /// Slot `slot`'s text, if it was one.
        func text(_ slot: Int) -> UnsafeBufferPointer<UInt8>? {
            let s = spans[slot]
            return s.start < 0 ? nil : UnsafeBufferPointer(start: bytes + Int(s.start), count: Int(s.length))
        }
    }
}
