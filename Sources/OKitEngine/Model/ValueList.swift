/// The elements of a collection field: an array that keeps room at its front once something was put there, so
/// that putting a row first (OKit's default for a new row) costs O(1) amortized instead of moving every element
/// (a list of 1,000,000 books moved 24 MB per add, issue 16). Removing from the front half moves the front half.
/// The first change in the middle that would move more than `flatMoveLimit` elements turns the list into chunks
/// (`ValueChunks`), after which a change moves at most one chunk.
///
/// Indices are 0-based positions, as an array's; out-of-range positions trap as an array's do (callers check
/// user input first, e.g. `EntityCollection.element(at:)`).
public struct ValueList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    /// The most elements a change in a flat list moves; a change that would move more makes the list chunked.
    static let flatMoveLimit = 4096

    /// `head` unused slots (each `.null`), then the elements; empty once the list is chunked.
    @usableFromInline var storage: ContiguousArray<Value>
    @usableFromInline var head = 0
    /// The elements once the list is chunked (shared with copies until one of them changes).
    @usableFromInline var chunks: ValueChunks?

    public init() { storage = [] }

    public init<S: Sequence>(_ elements: S) where S.Element == Value { storage = ContiguousArray(elements) }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public var count: Int {
        if let c = chunks { return c.count }
        return storage.count &- head
    }
    @inlinable public var isEmpty: Bool { count == 0 }

    @inlinable public subscript(i: Int) -> Value {
        get {
            if let c = chunks { return c[i] }
            precondition(i >= 0, "ValueList index out of range")
            return storage[head &+ i]
        }
        set {
            if let c = uniqueChunks() { c[i] = newValue; return }
            precondition(i >= 0, "ValueList index out of range")
            storage[head &+ i] = newValue
        }
    }

    /// Reads run by run (a chunked list's chunk by chunk), not position by position.
    public struct Iterator: IteratorProtocol {
        var run: ContiguousArray<Value>
        var at: Int
        let chunks: ValueChunks?
        var nextChunk = 0

        public mutating func next() -> Value? {
            while at == run.count {
                guard let c = chunks, nextChunk < c.chunks.count else { return nil }
                run = c.chunks[nextChunk]
                nextChunk += 1
                at = 0
            }
            defer { at &+= 1 }
            return run[at]
        }
    }

    public func makeIterator() -> Iterator {
        chunks == nil ? Iterator(run: storage, at: head, chunks: nil) : Iterator(run: [], at: 0, chunks: chunks)
    }

    /// The chunks, copied first when another list shares them; nil while the list is flat.
    @usableFromInline mutating func uniqueChunks() -> ValueChunks? {
        guard chunks != nil else { return nil }
        if !isKnownUniquelyReferenced(&chunks) { chunks = chunks?.copy() }
        return chunks
    }

    /// Whether position `i` (0 ≤ i < count) holds `e` (read in place: nothing is retained).
    @inline(__always)
    func holds(_ e: Entity, at i: Int) -> Bool {
        if let c = chunks { return c.holds(e, at: i) }
        let k = head &+ i
        return storage.withUnsafeBufferPointer { $0[k].unretainedEntity?.toOpaque() == Unmanaged.passUnretained(e).toOpaque() }
    }

    /// Whether the list is in chunks (for tests and the bench's notes).
    var isChunked: Bool { chunks != nil }

    /// Calls `body` with the elements in place, in order, one run at a time: once for a flat list, once per chunk
    /// for a chunked one (valid in `body`, which must not change the list).
    @inline(__always)
    func forEachRun(_ body: (UnsafeBufferPointer<Value>) throws -> Void) rethrows {
        if let c = chunks { return try c.forEachRun(body) }
        let head = self.head
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[head...])) }
    }

    public mutating func replaceSubrange<C: Collection>(_ r: Range<Int>, with elements: C) where C.Element == Value {
        precondition(r.lowerBound >= 0 && r.upperBound <= count, "ValueList range out of range")
        // Rare (clearing, replacing a collection): a chunked list becomes flat again first.
        if let c = chunks { storage = c.flattened(); head = 0; chunks = nil }
        storage.replaceSubrange((head + r.lowerBound)..<(head + r.upperBound), with: elements)
    }

    public mutating func reserveCapacity(_ n: Int) {
        if chunks == nil { storage.reserveCapacity(head + n) }
    }

    public mutating func append(_ v: Value) {
        if let c = uniqueChunks() { c.append(v); return }
        storage.append(v)
    }

    /// Moves the elements into chunks (`storage` keeps only `.null`s, then is let go).
    mutating func makeChunks() {
        let n = count, head = self.head
        let made = storage.withUnsafeMutableBufferPointer { buf -> ValueChunks in
            let c = ValueChunks(moving: UnsafeMutableBufferPointer(rebasing: buf[head...]))
            if let b = buf.baseAddress { (b + head).initialize(repeating: .null, count: n) }
            return c
        }
        storage = []
        self.head = 0
        chunks = made
    }

    public mutating func insert(_ v: Value, at i: Int) {
        if let c = uniqueChunks() { c.insert(v, at: i); return }
        let n = count
        precondition(i >= 0 && i <= n, "ValueList insert position out of range")
        let atFront = i == 0 || (i < n / 2 && head > 0)
        if (atFront ? i : n - i) > ValueList.flatMoveLimit {
            makeChunks()
            chunks?.insert(v, at: i)
            return
        }
        if atFront {
            if head == 0 { growFront() }
            // The first `i` elements move one slot towards the front (into a `.null` slot, which needs no release).
            storage.withUnsafeMutableBufferPointer { buf in
                guard let base = buf.baseAddress else { return }
                let start = base + head
                if i > 0 { (start - 1).moveInitialize(from: start, count: i) }
                (start - 1 + i).initialize(to: v)
            }
            head -= 1
            return
        }
        storage.insert(v, at: head + i)
    }

    @discardableResult
    public mutating func remove(at i: Int) -> Value {
        if let c = uniqueChunks() { return c.remove(at: i) }
        let n = count
        precondition(i >= 0 && i < n, "ValueList index out of range")
        if Swift.min(i, n - 1 - i) > ValueList.flatMoveLimit {
            makeChunks()
            return chunks?.remove(at: i) ?? .null
        }
        guard i < n / 2 else { return storage.remove(at: head + i) }
        // The first `i` elements move one slot towards the end; the freed first slot becomes room.
        let v = storage.withUnsafeMutableBufferPointer { buf -> Value in
            guard let base = buf.baseAddress else { return .null }   // not reached: n > 0
            let start = base + head
            let out = (start + i).move()
            if i > 0 { (start + 1).moveInitialize(from: start, count: i) }
            start.initialize(to: .null)
            return out
        }
        head += 1
        return v
    }

    /// Makes room at the front. An array filled by appends (a load) has up to half its capacity free at its back:
    /// when that is at least 1/32 of the count, the elements move there in place (a 1,000,000-book list's first
    /// add allocated and faulted in 24 MB: 30-200 ms). Otherwise a new buffer with room for half the count (at
    /// least 8) in front, so that many front inserts cost one copy.
    mutating func growFront() {
        let n = count
        let spare = storage.capacity - storage.count
        if spare >= Swift.max(8, n / 32) {
            storage.append(contentsOf: repeatElement(Value.null, count: spare))   // within capacity: no copy
            storage.withUnsafeMutableBufferPointer { buf in
                guard let b = buf.baseAddress else { return }
                // The regions overlap; `moveInitialize` copies backwards then. The slots left are uninitialized.
                (b + head + spare).moveInitialize(from: b + head, count: n)
                (b + head).initialize(repeating: .null, count: spare)
            }
            head += spare
            return
        }
        let room = Swift.max(8, n / 2)
        let capacity = room + n + Swift.max(8, n / 8)
        let grown = ContiguousArray<Value>(unsafeUninitializedCapacity: capacity) { to, initialized in
            guard let t = to.baseAddress else { return }
            t.initialize(repeating: .null, count: room)
            // The elements move (no retain and release of each); the old storage is left holding only `.null`s.
            storage.withUnsafeMutableBufferPointer { from in
                guard let f = from.baseAddress, n > 0 else { return }
                (t + room).moveInitialize(from: f + head, count: n)
                (f + head).initialize(repeating: .null, count: n)
            }
            initialized = room + n
        }
        storage = grown
        head = room
    }
}

extension ValueList: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Value...) { storage = ContiguousArray(elements) }
}
