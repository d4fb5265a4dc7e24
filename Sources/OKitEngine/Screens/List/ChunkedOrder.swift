/// A list's display order (slot numbers) in chunks of a few thousand, so that putting a row in or taking it out
/// moves at most one chunk (16 KB) and one prefix count per chunk, whatever the number of rows: adding a book to
/// an open list of 1,000,000 stays as cheap as with 100,000 (`add_one`, issue 16). Reading position `i` finds its
/// chunk by a binary search over the chunks' first positions; a scan reads chunk by chunk.
struct ChunkedOrder: Sequence {
    static let chunk = 4096

    private(set) var chunks: [[Int32]] = []
    /// The display position of each chunk's first element.
    private var starts: [Int] = []
    private(set) var count = 0

    init() {}

    init(_ flat: [Int32]) {
        var at = 0
        while at < flat.count {
            let end = Swift.min(flat.count, at + ChunkedOrder.chunk)
            var c = Array(flat[at..<end])
            c.reserveCapacity(2 * ChunkedOrder.chunk)
            chunks.append(c)
            starts.append(at)
            at = end
        }
        count = flat.count
    }

    /// The chunk the last lookup found: a scan by position finds its chunk at once (the hint is checked, so a
    /// copy of the order sharing it stays correct).
    private final class Hint { var chunk = 0 }
    private let hint = Hint()

    /// The chunk holding position `i` (0 ≤ i < count) and the offset in it.
    @inline(__always)
    func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        let h = hint.chunk
        if h < starts.count, starts[h] <= i {
            if i - starts[h] < chunks[h].count { return (h, i - starts[h]) }
            if h + 1 < starts.count, i - starts[h + 1] < chunks[h + 1].count, starts[h + 1] <= i {
                hint.chunk = h + 1
                return (h + 1, i - starts[h + 1])
            }
        }
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        hint.chunk = lo
        return (lo, i - starts[lo])
    }

    subscript(i: Int) -> Int32 {
        let (c, o) = locate(i)
        return chunks[c][o]
    }

    mutating func insert(_ v: Int32, at i: Int) {
        precondition(i >= 0 && i <= count, "ChunkedOrder position out of range")
        if chunks.isEmpty {
            chunks = [[v]]
            starts = [0]
            count = 1
            return
        }
        let (c, o) = i == count ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(i)
        chunks[c].insert(v, at: o)
        count += 1
        for k in (c + 1)..<starts.count { starts[k] += 1 }
        if chunks[c].count >= 2 * ChunkedOrder.chunk {
            // Split in two halves.
            let half = chunks[c].count / 2
            var tail = Array(chunks[c][half...])
            tail.reserveCapacity(2 * ChunkedOrder.chunk)
            chunks[c].removeSubrange(half...)
            chunks.insert(tail, at: c + 1)
            starts.insert(starts[c] + half, at: c + 1)
        }
    }

    @discardableResult
    mutating func remove(at i: Int) -> Int32 {
        precondition(i >= 0 && i < count, "ChunkedOrder position out of range")
        let (c, o) = locate(i)
        let v = chunks[c].remove(at: o)
        count -= 1
        for k in (c + 1)..<starts.count { starts[k] -= 1 }
        if chunks[c].isEmpty {
            chunks.remove(at: c)
            starts.remove(at: c)
        }
        return v
    }

    func makeIterator() -> FlattenSequence<[[Int32]]>.Iterator { chunks.joined().makeIterator() }

    /// The display positions whose slots satisfy `test`, in order (a scan chunk by chunk).
    func positions(where test: (Int32) -> Bool) -> [Int] {
        var out: [Int] = []
        var at = 0
        for c in chunks {
            for (k, s) in c.enumerated() where test(s) { out.append(at + k) }
            at += c.count
        }
        return out
    }
}
