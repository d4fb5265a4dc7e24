/// A long collection's elements in chunks of about a thousand, so that taking one out of its middle (deleting a
/// row) or putting one in moves at most one chunk (48 KB at most) and one start position per chunk, whatever the
/// length: as one array, deleting from a 1,000,000-book list moved 4 MB each time (issue 16). A `ValueList`
/// becomes chunked the first time a change in its middle would move more than `ValueList.flatMoveLimit` elements.
///
/// Reading position `i` first tries the chunk the last read found (a scan reads position after position), then
/// searches the chunks' start positions. A chunk that falls under a quarter of `size` joins a neighbour, so there
/// are never more than about `4 × count / size` chunks. Shared between copies of a `ValueList` until one of them
/// changes (`ValueList` copies it first); like the list, it belongs to one isolation domain.
///
/// Its fields are not checked for exclusive access at run time (`@exclusivity(unchecked)`: each check cost as much
/// as the read it guarded): every access is one statement of a method here that calls no code outside this file
/// while it lasts, except `forEachRun`'s body, which reads a copy of the chunk array and must not change the list.
@usableFromInline final class ValueChunks {
    /// Elements per chunk when a list becomes chunked; a chunk splits in two at twice this.
    static let size = 1024

    /// The elements, in order; none is empty (unless the list is).
    @exclusivity(unchecked) private(set) var chunks: [ContiguousArray<Value>] = []
    /// The position of each chunk's first element.
    @exclusivity(unchecked) private var starts: [Int] = []
    @exclusivity(unchecked) @usableFromInline private(set) var count = 0
    /// The chunk the last lookup found.
    @exclusivity(unchecked) private var hint = 0

    private init() {}

    /// Takes `flat`'s elements, leaving its slots uninitialized (the caller fills them again).
    init(moving flat: UnsafeMutableBufferPointer<Value>) {
        guard let base = flat.baseAddress else { return }
        var at = 0
        while at < flat.count {
            let n = Swift.min(flat.count - at, ValueChunks.size)
            chunks.append(ContiguousArray(unsafeUninitializedCapacity: n) { to, initialized in
                to.baseAddress?.moveInitialize(from: base + at, count: n)
                initialized = n
            })
            starts.append(at)
            at += n
        }
        count = flat.count
    }

    /// A copy for a list about to change while another list shares this one (the chunks themselves are shared
    /// until written, as arrays are).
    func copy() -> ValueChunks {
        let c = ValueChunks()
        c.chunks = chunks
        c.starts = starts
        c.count = count
        return c
    }

    /// The chunk holding position `i` (0 ≤ i < count) and the offset in it.
    @inline(__always)
    private func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        let h = hint
        if h < starts.count, starts[h] <= i {
            let o = i &- starts[h]
            if o < chunks[h].count { return (h, o) }
            if h + 1 < starts.count, o &- chunks[h].count < chunks[h + 1].count { hint = h + 1; return (h + 1, o &- chunks[h].count) }
        }
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        hint = lo
        return (lo, i &- starts[lo])
    }

    @usableFromInline subscript(i: Int) -> Value {
        get {
            precondition(i >= 0 && i < count, "ValueList index out of range")
            let (c, o) = locate(i)
            return chunks[c][o]
        }
        set {
            precondition(i >= 0 && i < count, "ValueList index out of range")
            let (c, o) = locate(i)
            chunks[c][o] = newValue
        }
    }

    /// Whether position `i` holds `e` (read in place: nothing is retained).
    @inline(__always)
    func holds(_ e: Entity, at i: Int) -> Bool {
        let (c, o) = locate(i)
        return chunks[c].withUnsafeBufferPointer { $0[o].unretainedEntity?.toOpaque() == Unmanaged.passUnretained(e).toOpaque() }
    }

    func append(_ v: Value) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= 2 * ValueChunks.size {
            chunks.append([v])
            starts.append(count)
        } else {
            chunks[chunks.count - 1].append(v)
        }
        count += 1
    }

    func insert(_ v: Value, at i: Int) {
        precondition(i >= 0 && i <= count, "ValueList insert position out of range")
        if i == count { append(v); return }
        let (c, o) = locate(i)
        chunks[c].insert(v, at: o)
        count += 1
        shiftStarts(after: c, by: 1)
        if chunks[c].count >= 2 * ValueChunks.size { split(c) }
    }

    func remove(at i: Int) -> Value {
        precondition(i >= 0 && i < count, "ValueList index out of range")
        let (c, o) = locate(i)
        let v = chunks[c].remove(at: o)
        count -= 1
        shiftStarts(after: c, by: -1)
        if chunks[c].count < ValueChunks.size / 4, chunks.count > 1 { join(c) }
        return v
    }

    /// Calls `body` with each chunk's elements in place, in order (valid in `body`, which must not change the list).
    func forEachRun(_ body: (UnsafeBufferPointer<Value>) throws -> Void) rethrows {
        for c in chunks { try c.withUnsafeBufferPointer(body) }
    }

    /// The elements as one array.
    func flattened() -> ContiguousArray<Value> {
        var out = ContiguousArray<Value>()
        out.reserveCapacity(count)
        for c in chunks { out.append(contentsOf: c) }
        return out
    }

    private func shiftStarts(after c: Int, by d: Int) {
        starts.withUnsafeMutableBufferPointer { s in
            var k = c + 1
            while k < s.count { s[k] &+= d; k &+= 1 }
        }
    }

    /// Splits chunk `c` into two halves.
    private func split(_ c: Int) {
        let half = chunks[c].count / 2
        let tail = ContiguousArray(chunks[c][half...])
        chunks[c].removeSubrange(half...)
        chunks.insert(tail, at: c + 1)
        starts.insert(starts[c] + half, at: c + 1)
    }

    /// Joins a chunk that got small (or empty) to a neighbour, splitting the result again when it got too long.
    private func join(_ c: Int) {
        let into = c > 0 ? c - 1 : c + 1
        let (first, second) = into < c ? (into, c) : (c, into)
        chunks[first].append(contentsOf: chunks[second])
        chunks.remove(at: second)
        starts.remove(at: second)
        if hint >= chunks.count { hint = 0 }
        if chunks[first].count >= 2 * ValueChunks.size { split(first) }
    }

    /// Whether every chunk holds fewer than twice `size` elements and all but the last at least a quarter of it,
    /// and the start positions add up (for tests).
    var isWellFormed: Bool {
        var at = 0
        for (k, c) in chunks.enumerated() {
            if starts[k] != at { return false }
            if c.count >= 2 * ValueChunks.size { return false }
            if k + 1 < chunks.count, c.count < ValueChunks.size / 4 { return false }
            at += c.count
        }
        return at == count && starts.count == chunks.count
    }
}
