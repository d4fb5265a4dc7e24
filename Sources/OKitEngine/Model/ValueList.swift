/// The elements of a collection field: an array that keeps room at its front once something was put there, so
/// that putting a row first (OKit's default for a new row) costs O(1) amortized instead of moving every element
/// (a list of 1,000,000 books moved 24 MB per add, issue 16). Removing from the front half moves the front half.
///
/// Indices are 0-based positions, as an array's; out-of-range positions trap as an array's do (callers check
/// user input first, e.g. `EntityCollection.element(at:)`).
public struct ValueList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    /// `head` unused slots (each `.null`), then the elements.
    @usableFromInline var storage: ContiguousArray<Value>
    @usableFromInline var head = 0

    public init() { storage = [] }

    public init<S: Sequence>(_ elements: S) where S.Element == Value { storage = ContiguousArray(elements) }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storage.count &- head }
    @inlinable public var count: Int { storage.count &- head }
    @inlinable public var isEmpty: Bool { storage.count == head }

    @inlinable public subscript(i: Int) -> Value {
        get {
            precondition(i >= 0, "ValueList index out of range")
            return storage[head &+ i]
        }
        set {
            precondition(i >= 0, "ValueList index out of range")
            storage[head &+ i] = newValue
        }
    }

    public mutating func replaceSubrange<C: Collection>(_ r: Range<Int>, with elements: C) where C.Element == Value {
        precondition(r.lowerBound >= 0 && r.upperBound <= count, "ValueList range out of range")
        storage.replaceSubrange((head + r.lowerBound)..<(head + r.upperBound), with: elements)
    }

    public mutating func reserveCapacity(_ n: Int) { storage.reserveCapacity(head + n) }

    public mutating func append(_ v: Value) { storage.append(v) }

    public mutating func insert(_ v: Value, at i: Int) {
        let n = count
        precondition(i >= 0 && i <= n, "ValueList insert position out of range")
        if i == 0 || (i < n / 2 && head > 0) {
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
        let n = count
        precondition(i >= 0 && i < n, "ValueList index out of range")
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
