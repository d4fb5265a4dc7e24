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
public enum FreedMemory {
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

    private typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    private static let mallopt = RuntimeSymbol.lookup("mallopt", as: MallOpt.self)

    /// Keeps every block of 128 KiB or more in a mapping of its own, given back to the system when it is freed.
    /// glibc starts so but raises that size to the largest block freed so far (up to 32 MiB), after which a
    /// list's first pass builds its large temporary arrays in the heap and their pages stay resident; a process
    /// calls this once at its start (okit-run's terminal and JSON-lines sessions do): the session's peak memory at
    /// 100,000 books went from 145.3 to 143.0 MiB (issue 38). A server should not: every response buffer of 128 KiB
    /// or more then costs a mapping and its page faults (`serve_rps` fell from 19,000 to 15,300/s).
    /// `M_MMAP_THRESHOLD` is -3 in glibc's malloc.h.
    public static func keepLargeBlocksMapped() {
        _ = mallopt?(-3, 128 * 1024)
    }
}

