/// Where JSON text is appended as UTF-8 bytes: a `[UInt8]`, or a writer's `JSONOutput`.
///
/// The escaper and the date formatters are written once against this and specialized for each.
package protocol ByteAppending {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteAppending where Element == UInt8 {}

/// The bytes a `JSONWriter` writes: one growing buffer, appended to through a pointer.
///
/// An `Array` append checks that the buffer is uniquely referenced and goes through the generic sequence path
/// for a run of bytes; a model of 100,000 books is about 3 million appends, and the writer's time was spent
/// there and in the retains of what it appended. Here an append is a capacity check and a store. A class, so
/// that its memory has one owner however the writer that holds it is copied, and so that a file storage can keep
/// the buffer of a full write for the next one (its pages already mapped).
package final class JSONOutput: ByteAppending {
    // Neither field is ever accessed while another access to it is in progress: every access is in this class's
    // own small methods, none of which calls out while holding one. Dynamic exclusivity checks would cost more
    // than the append they guard.
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity: Int

    package init(capacity: Int = 1 << 16) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) package func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always) package func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(to: count + bytes.count) }
        (base + count).update(from: from, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) package func append(contentsOf bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            for b in bytes { append(b) }
        }
    }

    /// An ASCII literal.
    @inline(__always) package func append(ascii text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// At least `n` free bytes after the end: the pointer to write them at (then `advance(by:)` what was written).
    @inline(__always) package func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < n { grow(to: count + n) }
        return base + count
    }

    /// Counts `n` bytes written at `room(_:)`'s pointer.
    @inline(__always) package func advance(by n: Int) { count += n }

    package func reserveCapacity(_ n: Int) {
        if n > capacity { grow(to: n) }
    }

    /// Empties the buffer, keeping its memory.
    package func removeAll() { count = 0 }

    @inline(never) private func grow(to needed: Int) {
        let bigger = Swift.max(needed, capacity * 2)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        fresh.update(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = bigger
    }

    /// The bytes written, in place (valid until the next append).
    package var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes written, copied.
    package var bytes: [UInt8] { Array(buffer) }

    /// Bytes `range` of what was written, copied.
    package subscript(range: Range<Int>) -> [UInt8] { Array(UnsafeBufferPointer(rebasing: buffer[range])) }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(buffer))
    }
}
