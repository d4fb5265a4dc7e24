#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// The first writes of a fresh heap, taken on the other core while a large model is read.
///
/// A fresh process reading a 27 MB model writes about 70 MB of heap pages for the first time, and each first
/// write of a page is a page fault that zeroes it: 27 % of a first load's time (`load_cold` against the warm
/// `load`, performance.md). While the reader runs on this thread, a helper thread asks the kernel to make the
/// heap's next pages ready (`MADV_POPULATE_WRITE`: present and writable, contents unchanged), a step ahead of
/// the reader, so its first writes find them. The heap grows in one step large enough for that
/// (`M_TOP_PAD`), and only the main heap (the program break) is touched: it is used only when reading on the main
/// thread (the terminal and JSON-lines sessions; a server's engine thread has a heap of its own, and is left as
/// it is). Nothing happens on one core, for a small model, or where the kernel or C library lacks the calls.
/// The heap's contents are never read or written by the helper; a range that is not mapped just fails.
enum HeapPrefault {
    /// Models smaller than this are read without help (their pages fault in a few milliseconds).
    static let minimumBytes = 4 << 20
    /// Heap bytes made ready per model byte: at most what the reader writes (a little over 3 for the benchmark
    /// shop), so the pages made ready are pages the load writes anyway (`rss_peak` 143.3 → 143.5 MiB at 100,000
    /// books; 2 left a quarter of the faults: `load_cold` higher in 7 of 8 paired fresh processes; 4 made pages
    /// the load never wrote: 153–157 MiB).
    static let heapPerByte = 3
    /// A step of the helper: the kernel holds the process's memory map for reading during each.
    static let step = 2 << 20

    private typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    private static let mallopt = RuntimeSymbol.lookup("mallopt", as: MallOpt.self)
    /// glibc's `M_TOP_PAD` and its default (malloc.h, malloc.c).
    private static let topPad: Int32 = -2, defaultTopPad: Int32 = 128 * 1024
    /// Linux's `MADV_POPULATE_WRITE` (5.14 and later).
    private static let populateWrite: Int32 = 23

    /// Runs `read` (the reading of a model file of `bytes` bytes) with the heap's next pages made ready.
    static func whileReading<T>(_ bytes: Int, _ read: () throws -> T) rethrows -> T {
        guard let helper = start(bytes) else { return try read() }
        defer { helper.finish() }
        return try read()
    }

    /// Whether reading `bytes` bytes here gets a helper: a large model, read on the main thread, two cores or more.
    static func helps(_ bytes: Int) -> Bool {
        bytes >= minimumBytes && Thread.isMainThread && ProcessInfo.processInfo.activeProcessorCount >= 2 && mallopt != nil
    }

    private static func start(_ bytes: Int) -> Helper? {
        #if canImport(Glibc)
        guard helps(bytes), let mallopt, let top = sbrk(0) else { return nil }
        let budget = min(bytes * heapPerByte, Int(Int32.max) / 2)
        _ = mallopt(topPad, Int32(budget))
        let helper = Helper(from: Int(bitPattern: top), budget: budget, top: { sbrk(0).map { Int(bitPattern: $0) } }) {
            _ = mallopt(topPad, defaultTopPad)
        }
        let thread = Thread { helper.run() }
        thread.name = "okit-prefault"
        thread.start()
        return helper
        #else
        return nil
        #endif
    }

    /// The helper thread's state: where it starts, how far it may go, where the heap ends now (`top`: the
    /// program break), and the reader's word that it is done.
    final class Helper: Sendable {
        let from: Int
        let budget: Int
        private let top: @Sendable () -> Int?
        private let stop = Atomic<Bool>(false)
        /// How far pages were made ready (for tests).
        let reached = Atomic<Int>(0)
        private let restore: @Sendable () -> Void

        init(from: Int, budget: Int, top: @escaping @Sendable () -> Int?, restore: @escaping @Sendable () -> Void = {}) {
            self.from = (from + 4095) & ~4095
            self.budget = budget
            self.top = top
            self.restore = restore
        }

        /// Follows the program break: every page below it (up to the budget) is made ready, a step at a time.
        func run() {
            #if canImport(Glibc)
            var done = from
            let limit = from + budget
            while !stop.load(ordering: .relaxed), done < limit {
                guard let top = top() else { return }
                let end = min(top & ~4095, limit, done + HeapPrefault.step)
                if end <= done {
                    usleep(200)
                    continue
                }
                guard madvise(UnsafeMutableRawPointer(bitPattern: done), end - done, HeapPrefault.populateWrite) == 0 else { return }
                done = end
                reached.store(done, ordering: .relaxed)
            }
            #endif
        }

        /// The reading is done: the helper stops at its next step and the heap grows as before.
        func finish() {
            stop.store(true, ordering: .relaxed)
            restore()
        }
    }
}
