import CPrefetch

/// Asks the processor to bring memory into its cache ahead of a read, without waiting for it.
///
/// A pass over 100,000 entities scattered in the heap waits about 80 ns for each one it touches first (a cache
/// miss), one after the other when each read needs the one before (the entity, then its values, then a value's
/// text). A prefetch is an instruction that starts the load and goes on: issued a few entities ahead, the lines
/// arrive while the pass works on earlier ones (performance.md, issue 16, sixteenth session). A prefetch never
/// faults and changes nothing the program can see, whatever the address.
///
/// Swift has no prefetch of its own. The instruction comes from the C target `CPrefetch` (`__builtin_prefetch`,
/// inlined: `prefetcht0` on x86-64, `prfm` on ARM64; docs/unsafe.md lists it).
enum CacheLines {
    /// Starts loading the cache line that holds `address`.
    @inline(__always)
    static func prefetch(_ address: UnsafeRawPointer) {
        line(address)
    }

    /// Starts loading the line that holds byte `offset` of `bytes` (nothing when it is outside them).
    @inline(__always)
    static func prefetch(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard let base = bytes.baseAddress, offset >= 0, offset < bytes.count else { return }
        line(base + offset)
    }

    /// Starts loading the lines of an object of `byteCount` bytes at `address` (its first and its last line).
    @inline(__always)
    static func prefetch(_ address: UnsafeRawPointer, byteCount: Int) {
        line(address)
        line(address + (byteCount &- 1))
    }

    /// One prefetch for a read, kept in every cache level.
    @inline(__always)
    private static func line(_ address: UnsafeRawPointer) {
        okit_prefetch(address)
    }
}
