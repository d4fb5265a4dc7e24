#if canImport(Glibc)
import Glibc
#endif

/// Gives the memory a large load freed (the file's bytes when it was read rather than mapped, the readers'
/// growing arrays) back to the system.
///
/// glibc keeps freed memory in its heap for reuse, and after a large free it raises the size it keeps
/// (`M_TRIM_THRESHOLD` follows `M_MMAP_THRESHOLD`), so a model read from a 29 MB file left 27 MB of free heap
/// resident for the life of the process (performance.md, issue 16: `rss_loaded`). `malloc_trim` returns those
/// pages; it is looked up at run time (it is glibc's, not POSIX), and where it is missing nothing happens.
enum FreedMemory {
    /// The smallest load worth a trim (a trim walks the heap's free lists: well under a millisecond for a
    /// small heap, a few for a large one).
    static let minimumEntities = 20_000

    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim = RuntimeSymbol.lookup("malloc_trim", as: Trim.self)

    /// After a model of `entities` entities was read: returns the heap's free pages when the load was large.
    static func returnAfterLoading(entities: Int) {
        guard entities >= minimumEntities, let trim else { return }
        _ = trim(0)
    }
}
