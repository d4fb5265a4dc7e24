import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A whole file's bytes as a load reads them: in an array, or, for a large model file, mapped from the page
/// cache (`AtomicFile.read(_:head:mapLarge:)`).
///
/// Reading 30 MB into fresh memory cost a load of 100,000 books 10 ms, nearly all of it the kernel providing and
/// zeroing 7,000 new pages before the copy; a mapping shares the pages the file is already cached in (2.5 ms).
/// The mapping is private and read-only and lives as long as this object: the load's local, gone when the load
/// returns (nothing loaded points into it: strings and values are copied out). A store writes a temporary and
/// renames it over; the only write in place, the exit patch (`FileStorage.patchAtExit`), comes after the load, so
/// the mapped file stays as it was read while it is mapped. A program outside okit that truncated a model file
/// while it was being loaded would stop the process (`SIGBUS`), as it would with any program that maps its data
/// (SQLite in memory-mapped mode, LMDB).
final class FileBytes {
    private let mapping: UnsafeMutableRawPointer?
    private let array: [UInt8]
    let count: Int
    /// The start of the mapping given back so far (`releasePages(before:)`).
    private var released = 0

    init(_ array: [UInt8]) {
        self.array = array
        mapping = nil
        count = array.count
    }

    /// `size` bytes of `fd` mapped, or nil when the system refuses.
    init?(mapping fd: Int32, size: Int) {
        guard size > 0 else { return nil }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), p != MAP_FAILED else { return nil }
        // A file cut shorter since its size was taken would stop the process at its first byte past the end:
        // read instead.
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) >= size else {
            munmap(p, size)
            return nil
        }
        mapping = p
        array = []
        count = size
    }

    deinit {
        if let mapping { munmap(mapping, count) }
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let mapping else { return try array.withUnsafeBufferPointer(body) }
        return try body(UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// True when the bytes are mapped from the file (not in an array).
    var isMapped: Bool { mapping != nil }

    /// Gives back the resident pages of the mapping before `offset`, which the load has read (issue 38: the
    /// session's peak memory was the whole model plus the whole file, 27 MB at 100,000 books; now it is the model
    /// plus the part of the file not read yet). The mapping stays valid: a page touched again (an error message's
    /// line and column) is read again from the page cache, as the mapping is private, read-only and unchanged.
    func releasePages(before offset: Int) {
        guard let mapping else { return }
        released = MappedPages.release(mapping, size: count, from: released, below: offset)
    }

    /// The bytes in an array (a copy when mapped).
    var bytes: [UInt8] {
        mapping == nil ? array : withUnsafeBufferPointer { Array($0) }
    }
}
