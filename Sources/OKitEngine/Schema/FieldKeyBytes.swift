/// Byte strings by slot (a type's `"name":` keys for the JSON writer), one after the other in one block of
/// memory: a key is two loads and no retain, where a `[[UInt8]]` retained the outer and the inner array each
/// time (an atomic write per field written, millions in a model file).
///
/// A type holds one for its life (`let`): a writer reads the pointers through it without retaining anything.
/// Keys are appended while the type's fields are declared, before any entity of the type is written.
final class FieldKeyBytes {
    // Accessed only in this class's own methods, none of which calls out while holding an access; appends happen
    // while the schema is declared, never while a writer reads.
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
    /// `starts[slot]..<starts[slot + 1]` is slot `slot`'s key.
    @exclusivity(unchecked) private var starts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        bytes = .allocate(capacity: 1)
        starts = .allocate(capacity: 1)
        starts[0] = 0
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
    }

    func append(_ key: [UInt8]) {
        let used = starts[count]
        let moreBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: used + key.count + 1)
        moreBytes.update(from: bytes, count: used)
        key.withUnsafeBufferPointer { if let p = $0.baseAddress { (moreBytes + used).update(from: p, count: $0.count) } }
        let moreStarts = UnsafeMutablePointer<Int>.allocate(capacity: count + 2)
        moreStarts.update(from: starts, count: count + 1)
        moreStarts[count + 1] = used + key.count
        bytes.deallocate()
        starts.deallocate()
        bytes = moreBytes
        starts = moreStarts
        count += 1
    }

    /// Slot `slot`'s bytes (valid while the type lives).
    @inline(__always) func key(_ slot: Int) -> UnsafeBufferPointer<UInt8> {
        let from = starts[slot]
        return UnsafeBufferPointer(start: bytes + from, count: starts[slot + 1] - from)
    }
}
