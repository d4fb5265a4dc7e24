import Foundation
import OKitEngine
import OKitSQLite

/// The sqlite workloads of `okit-run bench` (the goals in performance.md: `sqlite_load` ≤ 2× `load`,
/// `sqlite_store_one` ≤ 1/100 of `sqlite_store`): the generated shop converted to a SQLite model in a data folder of its own, then loaded and
/// stored as the file kind's `load`, `store` and `store_one` are.
final class SQLiteBench {
    let folder: URL
    var engine: Engine?
    var files: FileStorage?
    var storage: SQLiteStorage?
    var model: Model?

    /// Converts `<source>/okit/data/default.json` into `<folder>/okit/data/default.sqlite` (okit-run convert's code).
    init(source json: URL, folder: URL) throws {
        self.folder = folder
        let models = URL(fileURLWithPath: DataFolder(folder).models, isDirectory: true)
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: json, to: models.appendingPathComponent("default.json"))
        let engine = Engine(schema: try BenchShop.schema(), clock: VirtualClock(), ids: SeededIds(seed: 1))
        let files = try FileStorage(dataFolder: folder)
        defer { files.close() }
        guard let shop = engine.schema.type(named: "Shop") else { throw BenchError("the bench schema has no Shop") }
        let database = SQLiteStorage(files: files, path: try files.folder.sqliteFile("default"))
        _ = try ModelConversion.convert(model: "default", rootType: shop, engine: engine, from: files, to: database, now: Date())
    }

    func loadOnce() throws {
        storage?.close(); files?.close()
        engine = nil; model = nil; storage = nil; files = nil
        let e = Engine(schema: try BenchShop.schema(), clock: VirtualClock(), ids: SeededIds(seed: 1))
        let f = try FileStorage(dataFolder: folder)
        let s = SQLiteStorage(files: f, path: try DataFolder(folder).sqliteFile("default"))
        model = try e.register(model: "default", type: "Shop", storage: s, storageKind: .sqlite)
        engine = e; files = f; storage = s
    }

    /// Best of 5 loads, in ms.
    func load() throws -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            storage?.close(); files?.close()
            engine = nil; model = nil; storage = nil; files = nil
            let t = BenchRunner.now()
            try loadOnce()
            best = min(best, Double(BenchRunner.now() - t) / 1e6)
        }
        return best
    }

    func books() throws -> EntityCollection {
        guard let engine, let model else { throw BenchError("the sqlite shop is not loaded") }
        return try engine.collection(model.root, "books")
    }

    /// Every book's `marked` changed, then a store (every book's row written), best of 3, in ms.
    func storeAll() throws -> Double {
        if model == nil { try loadOnce() }
        guard let engine, let model else { return 0 }
        let list = try books()
        var best = Double.infinity
        for _ in 0..<3 {
            // Every book's mark flipped (whatever the converted shop holds), so every row changes.
            for item in list.items {
                if let b = item.entity, case .bool(let marked)? = b["marked"] { try engine.set(b, "marked", .bool(!marked)) }
            }
            let t = BenchRunner.now()
            try engine.store(model)
            best = min(best, Double(BenchRunner.now() - t) / 1e6)
        }
        return best
    }

    /// One field of one book changed, then a store (one row written), median of 21, in ms.
    func storeOne() throws -> Double {
        if model == nil { try loadOnce() }
        guard let engine, let model else { return 0 }
        let list = try books()
        var times: [Double] = []
        var r = BenchShop.Random(state: 9)
        for k in 0..<21 {
            guard let book = list.items[r.below(list.count)].entity else { continue }
            try engine.set(book, "name", .string("Changed \(k)"))
            let t = BenchRunner.now()
            try engine.store(model)
            times.append(Double(BenchRunner.now() - t) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }

    func close() {
        storage?.close(); files?.close()
        engine = nil; model = nil; storage = nil; files = nil
    }
}
