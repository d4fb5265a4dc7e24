import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// storage.md "SQLite models": a process killed at any moment leaves a database that passes `PRAGMA
/// integrity_check` and holds the state of the last finished store — 25 real kills during stores.
@Suite struct SQLiteCrashSafetyTests {
    @Test func killingAStoreLoopLeavesAnIntactDatabaseWithTheLastStore() throws {
        let okitRun = OKitRun.binary
        try #require(FileManager.default.isExecutableFile(atPath: okitRun.path), "okit-run is not built at \(okitRun.path): run `swift build` first")
        let folder = try TempFolder()
        let db = folder.modelsFolder.appendingPathComponent("default.sqlite").path
        var rng = SplitMix64(seed: 17)
        var lastPrinted = 0
        var killedDuringStores = 0
        for round in 0..<25 {
            let p = try ChildProcess.start(okitRun.path, ["_store-loop", "--data", folder.url.path, "--kind", "sqlite"], stderr: .null)
            if round % 5 == 0 {
                usleep(UInt32(5_000 + rng.next() % 40_000))   // during start-up and the first store
            } else {
                // In the loop of stores, whatever the machine's load: after its first finished store, then a while.
                let deadline = Date().addingTimeInterval(30)
                while p.outputSoFar.isEmpty, Date() < deadline { usleep(2_000) }
                usleep(UInt32(rng.next() % 150_000))
            }
            p.signal(SIGKILL)
            let printed = p.wait().out.split(separator: "\n").compactMap { Int($0) }
            if let last = printed.last { lastPrinted = last; killedDuringStores += 1 }
            guard FileManager.default.fileExists(atPath: db) else { continue }   // killed before the first store

            #expect(try SQLiteStorageTests.sqlite3(db, "pragma integrity_check") == "ok", "round \(round)")
            let schema = Schema()
            try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int)])
            try schema.entity("Shop", fields: [FieldSpec("books", .array(.entity("Book")))])
            let engine = Engine(schema: schema)
            let files = try FileStorage(dataFolder: folder.url)
            let storage = SQLiteStorage(files: files, path: db)
            let model = try engine.register(model: "default", type: "Shop", storage: storage, storageKind: .sqlite)
            let counts = try engine.collection(model.root, "books").items.compactMap { $0.entity?["count"]?.intValue }
            storage.close()
            files.close()
            guard counts.count == 50 else {
                if counts.isEmpty, printed.isEmpty { continue }
                Issue.record("round \(round): \(counts.count) books"); return
            }
            let rest = Set(counts.dropFirst())
            #expect(rest.count == 1, "round \(round): books 1… disagree: \(rest)")
            let even = rest.first ?? 0
            #expect(even % 2 == 0, "round \(round): a store of every book left \(even)")
            #expect(counts[0] == even || counts[0] == even + 1, "round \(round): book 0 is \(counts[0]), the others \(even)")
            #expect(max(counts[0], even) >= lastPrinted, "round \(round): a finished store (\(lastPrinted)) was lost")
            #expect(max(counts[0], even) <= lastPrinted + 1, "round \(round): more than one unfinished store")
            lastPrinted = max(lastPrinted, counts[0], even)
        }
        #expect(killedDuringStores >= 20, "most kills land in the loop of stores")
    }
}
