import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// quality.md promise 1: `kill -9` at any instant of a loop of stores leaves each model as either the previous
/// or the new version — proven by really killing a child process many times.
@Suite struct CrashSafetyTests {
    static var binary: URL { OKitRun.binary }

    @Test func killingAStoreLoopNeverLeavesAMixedModel() throws {
        let okitRun = Self.binary
        try #require(FileManager.default.isExecutableFile(atPath: okitRun.path), "okit-run is not built at \(okitRun.path): run `swift build` first")
        let folder = try TempFolder()
        var rng = SplitMix(seed: 11)
        var lastPrinted = 0
        for round in 0..<40 {
            let p = try ChildProcess.start(okitRun.path, ["_store-loop", "--data", folder.url.path], stderr: .null)
            // Varied instants: during start-up and the first store, and deep in the loop.
            usleep(UInt32(round % 5 == 0 ? 5_000 + rng.next() % 40_000 : 30_000 + rng.next() % 170_000))
            p.signal(SIGKILL)
            let printed = p.wait().out
                .split(separator: "\n").compactMap { Int($0) }
            if let last = printed.last { lastPrinted = last }

            // At most one temporary file (reused by the next write), never a pile of them.
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.modelsFolder.path)) ?? []
            #expect(files.filter { $0.contains(".tmp") }.count <= 1, "round \(round): \(files)")
            // Load what is on disk with a fresh engine and check it is one consistent version.
            let schema = Schema()
            try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int)])
            try schema.entity("Shop", fields: [FieldSpec("books", .array(.entity("Book")))])
            let engine = Engine(schema: schema)
            let storage = try FileStorage(dataFolder: folder.url)
            let model = try engine.register(model: "default", type: "Shop", storage: storage)
            let counts = try engine.collection(model.root, "books").items.compactMap { $0.entity?["count"]?.intValue }
            guard counts.count == 50 else {
                if counts.isEmpty, printed.isEmpty { continue }   // killed before the first store
                Issue.record("round \(round): \(counts.count) books"); return
            }
            let rest = Set(counts.dropFirst())
            #expect(rest.count == 1, "round \(round): books 1… disagree: \(rest)")
            let even = rest.first ?? 0
            #expect(even % 2 == 0, "round \(round): a full write left \(even)")
            #expect(counts[0] == even || counts[0] == even + 1, "round \(round): book 0 is \(counts[0]), the others \(even)")
            #expect(max(counts[0], even) >= lastPrinted, "round \(round): a printed (stored) value \(lastPrinted) was lost")
            #expect(max(counts[0], even) <= lastPrinted + 1, "round \(round): more than one unacknowledged store")
            // The next process starts from what is on disk, stored but perhaps never printed: count it as acknowledged.
            lastPrinted = max(lastPrinted, counts[0], even)
        }
        #expect(lastPrinted > 0, "the loop stored something")
    }
}
