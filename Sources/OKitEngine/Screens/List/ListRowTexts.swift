/// What a keystroke reads of every row, kept by slot in flat arrays: the normalized search texts in one byte
/// buffer and each row's index letter as one byte. A search over 1,000,000 rows then reads memory in order
/// instead of one heap string per row (each a cache miss: `list_search` grew 20× from 100,000 to 1,000,000 books).
struct ListRowTexts {
    /// Where a slot's text is in `bytes`: one 8-byte record, so that reading it in display order (slots are in
    /// the data's order) is one cache miss a row, not two.
    struct Span {
        /// −1: not computed.
        var start: Int32
        var length: Int32
        static let none = Span(start: -1, length: 0)
    }

    private(set) var bytes: [UInt8] = []
    private(set) var span: [Span] = []
    /// Each slot's index letter: `A`…`Z` or `#` (0 when unknown).
    private(set) var letter: [UInt8] = []
    /// Bytes no slot points at any more (texts replaced by a row's new keys).
    private var garbage = 0
    /// Whether the rows' search texts were computed (the first search computes them).
    private(set) var hasSearch = false

    /// Makes slot `slot`'s letter (its span comes with its first search text: a list that is never searched keeps
    /// none, 8 bytes a row).
    private mutating func grow(to slot: Int) {
        if slot >= letter.count { letter.append(contentsOf: repeatElement(0, count: slot + 1 - letter.count)) }
    }

    private mutating func growSpan(to slot: Int) {
        grow(to: slot)
        if slot >= span.count { span.append(contentsOf: repeatElement(.none, count: slot + 1 - span.count)) }
    }

    /// Makes room for `n` slots.
    mutating func reserve(_ n: Int) {
        letter.reserveCapacity(n)
    }

    /// Makes slots 0..<n (without a letter yet) at once, not one append per row.
    mutating func makeSlots(_ n: Int) {
        if n > 0 { grow(to: n - 1) }
    }

    /// Sets a slot's section title (its index letter).
    mutating func setTitle(_ slot: Int32, _ title: String?) {
        grow(to: Int(slot))
        letter[Int(slot)] = ListIndexLetters.letterByte(title)
    }

    /// Sets a slot's search text (normalized here, as `SearchText.normalize` does).
    mutating func setSearch(_ slot: Int32, _ text: String) {
        let s = Int(slot)
        growSpan(to: s)
        if span[s].start >= 0 { garbage += Int(span[s].length) }
        if garbage > 1 << 16, garbage > bytes.count / 2 { compact() }
        let from = bytes.count
        SearchText.appendNormalized(text, to: &bytes)
        span[s] = Span(start: Int32(truncatingIfNeeded: from), length: Int32(truncatingIfNeeded: bytes.count - from))
        hasSearch = true
    }

    /// Each row's index letter in display order (`#` when unknown).
    func letters(in order: ChunkedOrder) -> [UInt8] {
        letter.withUnsafeBufferPointer { letter in
            var out: [UInt8] = []
            out.reserveCapacity(order.count)
            for chunk in order.chunks {
                for s in chunk { out.append(Int(s) < letter.count && letter[Int(s)] != 0 ? letter[Int(s)] : 0x23) }
            }
            return out
        }
    }

    /// A slot freed: its text is garbage.
    mutating func clear(_ slot: Int32) {
        let s = Int(slot)
        guard s < span.count, span[s].start >= 0 else { return }
        garbage += Int(span[s].length)
        span[s] = .none
    }

    /// Lays the texts out again in the order of `ends`' positions, as `InOrder` copied them: `laidOut` holds every
    /// placed slot's text, the text at display position p ending at `ends[p]`; `position` is each slot's display
    /// position (−1: not placed, its text dropped). The table then keeps one copy of its texts, not two.
    mutating func adopt(_ laidOut: [UInt8], ends: [Int32], position: [Int32]) {
        for s in span.indices {
            let p = s < position.count ? Int(position[s]) : -1
            guard p >= 0, span[s].start >= 0 else { span[s] = .none; continue }
            span[s].start = p == 0 ? 0 : ends[p - 1]
        }
        bytes = laidOut
        garbage = 0
    }

    /// Writes the live texts again without the garbage.
    private mutating func compact() {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(bytes.count - garbage)
        for s in span.indices where span[s].start >= 0 {
            let from = Int(span[s].start)
            span[s].start = Int32(truncatingIfNeeded: fresh.count)
            fresh.append(contentsOf: bytes[from..<(from + Int(span[s].length))])
        }
        bytes = fresh
        garbage = 0
    }

    /// Replaces every search text at once: `body` gets a writer and sets slots' normalized texts through it (a
    /// slot it does not set has none). The texts go into one buffer of `capacity` bytes through pointers (the
    /// first search over 1,000,000 rows spent 55 ns a row appending to arrays); what does not fit is appended
    /// after.
    mutating func replaceSearch(slots n: Int, capacity: Int, _ body: (inout Writer) -> Void) {
        var spans = [Span](repeating: .none, count: Swift.max(n, span.count))
        var overflow: [(slot: Int, text: [UInt8])] = []
        var fresh = [UInt8](unsafeUninitializedCapacity: Swift.max(capacity, 16)) { buf, initialized in
            spans.withUnsafeMutableBufferPointer { spans in
                var w = Writer(out: buf, spans: spans)
                body(&w)
                initialized = w.used
                overflow = w.overflow
            }
        }
        for (s, text) in overflow {
            spans[s] = Span(start: Int32(truncatingIfNeeded: fresh.count), length: Int32(truncatingIfNeeded: text.count))
            fresh.append(contentsOf: text)
        }
        if letter.count < spans.count { letter.append(contentsOf: repeatElement(0, count: spans.count - letter.count)) }
        bytes = fresh
        span = spans
        garbage = 0
        hasSearch = true
    }

    /// Replaces every search text at once with these normalized bytes, `spans` saying where each slot's are (slots
    /// of equal texts may share them; slots beyond `spans` have none).
    mutating func replaceSearch(bytes fresh: [UInt8], spans: [Span]) {
        var spans = spans
        if spans.count < span.count { spans.append(contentsOf: repeatElement(.none, count: span.count - spans.count)) }
        if letter.count < spans.count { letter.append(contentsOf: repeatElement(0, count: spans.count - letter.count)) }
        bytes = fresh
        span = spans
        garbage = 0
        hasSearch = true
    }

    /// Sets slots' texts during `replaceSearch`.
    struct Writer {
        fileprivate let out: UnsafeMutableBufferPointer<UInt8>
        fileprivate let spans: UnsafeMutableBufferPointer<Span>
        fileprivate var used = 0
        fileprivate var overflow: [(slot: Int, text: [UInt8])] = []

        /// Sets slot `s` (below the `slots` given to `replaceSearch`) to these normalized bytes.
        @inline(__always)
        mutating func set(_ s: Int, _ text: UnsafeBufferPointer<UInt8>) {
            let k = text.count
            guard used + k <= out.count, used + k <= Int(Int32.max), let to = out.baseAddress else {
                overflow.append((s, Array(text)))
                return
            }
            if let from = text.baseAddress { (to + used).update(from: from, count: k) }
            spans[s] = Span(start: Int32(truncatingIfNeeded: used), length: Int32(truncatingIfNeeded: k))
            used += k
        }

        /// Sets slot `s` to the normalized form of `text`.
        mutating func set(_ s: Int, text: String) {
            var normalized: [UInt8] = []
            SearchText.appendNormalized(text, to: &normalized)
            normalized.withUnsafeBufferPointer { set(s, $0) }
        }
    }
}
