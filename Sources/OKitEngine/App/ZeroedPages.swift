#if canImport(Glibc)
import Glibc
#endif

/// Zeroed memory for a large table, mapped with its pages already in place.
///
/// A fresh table of 12 MB (the id index after a load of 100,000 books) took a page fault per 4 KiB as it was
/// first written: 4.6 ms of the first lookup (performance.md, issue 16, `index_build`). Mapped with
/// `MAP_POPULATE`, the kernel puts every page in place in one call (zeroed, as an anonymous mapping is), for
/// about half of that. Smaller blocks, and systems without the flag, use `calloc`.
struct ZeroedPages {
    let base: UnsafeMutableRawPointer
    let byteCount: Int
    private let mapped: Bool

    /// Blocks from this size are mapped.
    static let mappedFrom = 1 << 20

    init(byteCount: Int) {
        self.byteCount = byteCount
        #if os(Linux)
        if byteCount >= Self.mappedFrom {
            let p = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)
            if let p, p != MAP_FAILED {
                base = p
                mapped = true
                return
            }
        }
        #endif
        mapped = false
        if let p = calloc(1, byteCount) {
            base = p
        } else {
            // Out of memory: as for any Swift allocation (which stops the process), but with a zeroed block.
            let p = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
            memset(p, 0, byteCount)
            base = p
        }
    }

    /// Returns the block (once; the owner calls it when it lets the block go).
    func release() {
        #if os(Linux)
        if mapped { _ = munmap(base, byteCount); return }
        #endif
        free(base)
    }
}
