#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import OKitEngine

/// The helper that makes a large load's next heap pages ready on the other core (HeapPrefault): the pages it
/// reaches are resident and their contents unchanged, and it never goes past the heap's end or its budget.
@Suite struct HeapPrefaultTests {
    static let page = 4096

    /// An anonymous mapping of `pages` pages, unmapped after `body`.
    static func withMapping(pages: Int, _ body: (UnsafeMutableRawPointer) throws -> Void) rethrows {
        let length = pages * page
        let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        #expect(base != MAP_FAILED)
        defer { munmap(base, length) }
        try body(base)
    }

    /// Which of `pages` pages from `base` are resident.
    static func resident(_ base: UnsafeMutableRawPointer, pages: Int) -> [Bool] {
        var vec = [UInt8](repeating: 0, count: pages)
        #expect(mincore(base, pages * page, &vec) == 0)
        return vec.map { $0 & 1 == 1 }
    }

    @Test func pagesBelowTheTopAreMadeReadyAndWhatWasWrittenStays() throws {
        try HeapPrefaultTests.withMapping(pages: 1024) { base in
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            for i in stride(from: 0, to: 100 * HeapPrefaultTests.page, by: 61) { bytes[i] = UInt8(truncatingIfNeeded: i &* 7 | 1) }
            let start = Int(bitPattern: base), top = start + 1024 * HeapPrefaultTests.page
            let helper = HeapPrefault.Helper(from: start, budget: 1024 * HeapPrefaultTests.page, top: { top })
            helper.run()
            #expect(helper.reached.load(ordering: .relaxed) == top)
            #expect(HeapPrefaultTests.resident(base, pages: 1024).allSatisfy { $0 }, "every page made ready")
            for i in stride(from: 0, to: 100 * HeapPrefaultTests.page, by: 61) {
                #expect(bytes[i] == UInt8(truncatingIfNeeded: i &* 7 | 1))
            }
            #expect(bytes[500 * HeapPrefaultTests.page] == 0, "a page made ready reads as zero")
        }
    }

    @Test func itStopsAtTheBudgetAndTheHeapsEnd() throws {
        try HeapPrefaultTests.withMapping(pages: 1024) { base in
            let start = Int(bitPattern: base)
            // The budget ends before the top: nothing past it.
            let budgeted = HeapPrefault.Helper(from: start, budget: 256 * HeapPrefaultTests.page, top: { start + 1024 * HeapPrefaultTests.page })
            budgeted.run()
            let afterBudget = HeapPrefaultTests.resident(base, pages: 1024)
            #expect(afterBudget[..<256].allSatisfy { $0 } && !afterBudget[256...].contains(true))
            // The top ends before the budget: the helper waits there until the reading is done, never past it.
            let helper = HeapPrefault.Helper(from: start, budget: 1024 * HeapPrefaultTests.page, top: { start + 512 * HeapPrefaultTests.page })
            let thread = Thread { helper.run() }
            thread.start()
            while helper.reached.load(ordering: .relaxed) < start + 512 * HeapPrefaultTests.page { usleep(1000) }
            usleep(20_000)
            helper.finish()
            let after = HeapPrefaultTests.resident(base, pages: 1024)
            #expect(after[..<512].allSatisfy { $0 } && !after[512...].contains(true))
        }
    }

    @Test func aSmallModelOrAReaderOffTheMainThreadGetsNoHelper() {
        #expect(!HeapPrefault.helps(HeapPrefault.minimumBytes - 1))
        // Tests run off the main thread: the main heap is not theirs to grow.
        #expect(!Thread.isMainThread && !HeapPrefault.helps(HeapPrefault.minimumBytes * 4))
        #expect(HeapPrefault.whileReading(HeapPrefault.minimumBytes * 4) { 2 } == 2)
    }
}
