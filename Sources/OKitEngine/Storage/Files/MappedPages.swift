#if canImport(Glibc)
import Glibc
#endif

/// Giving back the resident pages of a read-only file mapping behind its reader: the load's private mapping
/// (`FileBytes.releasePages(before:)`) and the exit patch's shared one (`ModelFileInPlace.releasePages(below:)`).
/// Whole pages below an offset leave the process's resident memory (`MADV_DONTNEED`); the mapping stays valid, and a
/// page read again is mapped again from the page cache with the same bytes (each mapping is read-only and its file
/// is not written while it exists).
enum MappedPages {
    /// Gives back the whole pages of the `size` bytes mapped at `mapping` from `released` (a page boundary, where
    /// the last call stopped) up to `offset`. Returns where pages are given back to now: never less than `released`.
    static func release(_ mapping: UnsafeMutableRawPointer, size: Int, from released: Int, below offset: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = min(offset, size) / page * page
        guard end > released else { return released }
        _ = madvise(mapping + released, end - released, Int32(MADV_DONTNEED))
        return end
    }
}
