import Foundation
import OKitEngine
import OKitPostgres
#if canImport(Glibc)
import Glibc
#endif

/// The children of `PostgresWritersBench`: `KIND:INDEX:COUNT:FOLDER` on the database `OKIT_BENCH_DATABASE_URL`
/// names, holding the model `bench<books>` the parent seeded. Each prints `ready`, waits for `go SECONDS` on
/// stdin, works that long, then prints `done COUNT`.
extension PostgresWritersBench {
    /// Runs one child; true when `spec` named one.
    static func child(_ spec: String, books: Int) throws -> Bool {
        let f = spec.split(separator: ":", maxSplits: 3).map(String.init)
        guard f.count == 4, let index = Int(f[1]), let count = Int(f[2]) else { return false }
        guard let url = ProcessInfo.processInfo.environment["OKIT_BENCH_DATABASE_URL"], !url.isEmpty else {
            throw BenchError("OKIT_BENCH_DATABASE_URL is not set")
        }
        let folder = URL(fileURLWithPath: f[3]).appendingPathComponent("w\(index)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch f[0] {
        case "pg-writer": try writer(url: url, books: books, index: index, count: count, folder: folder)
        case "pg-sql": try sqlClient(url: url, books: books, index: index, count: count)
        case "pg-join":
            // Timed to the model ready, as `load_cold` is: the model is kept until the line is said (released
            // before it, the join's figure counted the release of 310,000 entities too).
            let t = BenchRunner.now()
            let ready = try joined(url: url, books: books, folder: folder, seed: 0)
            let ms = Double(BenchRunner.now() - t) / 1e6
            withExtendedLifetime(ready) { say("joined \(ms) \(FreshProcessBench.peakResidentMiB())") }
            exit(0)
        default: return false
        }
        return true
    }

    /// A line to the parent (unbuffered: the parent waits for it).
    static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    /// The model `bench<books>` loaded from the database by a new engine (it must be there: this never seeds).
    static func joined(url: String, books: Int, folder: URL, seed: UInt64) throws -> (Engine, PostgresStorage, Model) {
        let engine = Engine(schema: try BenchShop.schema(), clock: VirtualClock(), ids: SeededIds(seed: seed))
        let storage = PostgresStorage(files: try FileStorage(dataFolder: folder), settings: try PostgresSettings.parse(url))
        let model = try engine.register(model: "bench\(books)", type: "Shop", storage: storage, storageKind: .postgres) { _ in
            throw BenchError("model bench\(books) is not in the database")
        }
        return (engine, storage, model)
    }

    /// Waits for `go SECONDS` on stdin; the seconds.
    static func waitForGo() throws -> Double {
        say("ready")
        guard let line = readLine(), line.hasPrefix("go "), let s = Double(line.dropFirst(3)) else { throw BenchError("no go") }
        return s
    }

    /// A writer: before each store it applies what the others announced (as a session before a command) and
    /// notes when another's probe book got a new name; every tenth store renames its own probe book (list item
    /// INDEX), the others rename one of its own books (items INDEX + k·COUNT).
    static func writer(url: String, books: Int, index: Int, count: Int, folder: URL) throws {
        let (engine, storage, model) = try joined(url: url, books: books, folder: folder, seed: UInt64(100 + index))
        let list = try engine.collection(model.root, "books")
        let own = stride(from: index + count, to: min(list.count, index + count * 1001), by: count).compactMap { list.items[$0].entity }
        let probes = (0..<count).map { list.items[$0].entity }
        var lastSeen = [Int](repeating: -1, count: count)
        var notes = ""
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let seconds = try waitForGo()
        let end = BenchRunner.now() + UInt64(seconds * 1e9)
        var stores = 0
        while BenchRunner.now() < end {
            if try storage.followAnnouncements(model, engine: engine) {
                let now = BenchRunner.now()
                for (j, p) in probes.enumerated() where j != index {
                    guard let name = p?["name"]?.displayString, name.hasPrefix("P "),
                          let seq = name.split(separator: " ").last.flatMap({ Int($0) }), seq > lastSeen[j] else { continue }
                    lastSeen[j] = seq
                    notes += "s \(j) \(seq) \(now)\n"
                }
            }
            let probe = stores % 10 == 0
            guard let book = probe ? probes[index] : own[stores % max(1, own.count)] else { break }
            try engine.set(book, "name", .string(probe ? "P \(run) \(stores)" : "W \(run) \(stores)"))
            _ = try engine.store(model)
            if probe { notes += "c \(index) \(stores) \(BenchRunner.now())\n" }
            stores += 1
        }
        try notes.write(to: folder.deletingLastPathComponent().appendingPathComponent("w\(index).txt"), atomically: true, encoding: .utf8)
        say("done \(stores)")
        storage.close()
    }

    /// A plain SQL client: `UPDATE "Book" SET name = … WHERE …` of one of its own books at a time, each committed.
    static func sqlClient(url: String, books: Int, index: Int, count: Int) throws {
        let c = try PostgresPlainClient(url: url)
        defer { c.close() }
        let model = "bench\(books)"
        let share = max(1, min(1000, books / count))
        let ids = try c.texts("SELECT id FROM \"Book\" WHERE okit_model = $1 ORDER BY okit_position OFFSET $2::bigint LIMIT $3::bigint",
                              [model, String(index * share), String(share)])
        guard !ids.isEmpty else { throw BenchError("no books of model \(model)") }
        let seconds = try waitForGo()
        let end = BenchRunner.now() + UInt64(seconds * 1e9)
        var updates = 0
        while BenchRunner.now() < end {
            try c.run("UPDATE \"Book\" SET name = $1 WHERE okit_model = $2 AND id = $3", ["U \(index) \(updates)", model, ids[updates % ids.count]])
            updates += 1
        }
        say("done \(updates)")
    }
}
