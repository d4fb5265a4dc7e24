import ArgumentParser
import Foundation
import OKitEngine
import OKitLua
import OKitSQLite

/// `okit-run _store-loop --data DIR`: stores a model in an endless loop, alternating a whole-model change
/// (every book's count set to an even i: a full write) and a one-book change (book 0 set to the odd i: a
/// journal append), printing each i once it is stored. The crash-safety test kills it at random instants.
struct StoreLoop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_store-loop", shouldDisplay: false)

    @Option(name: .long) var data: String
    @Option(name: .long) var books: Int = 50
    /// `file` or `sqlite` (storage.md "SQLite models": the crash test of the sqlite kind).
    @Option(name: .long) var kind: String = "file"

    func run() throws {
        let schema = Schema()
        try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int)])
        try schema.entity("Shop", fields: [FieldSpec("books", .array(.entity("Book")))])
        let engine = Engine(schema: schema)
        let files = try FileStorage(dataFolder: URL(fileURLWithPath: data))
        let storage: ModelStorage = kind == "sqlite"
            ? SQLiteStorage(files: files, path: try DataFolder(URL(fileURLWithPath: data)).sqliteFile("default")) : files
        let model = try engine.register(model: "default", type: "Shop", storage: storage)
        let list = try engine.collection(model.root, "books")
        if list.isEmpty {
            for k in 0..<books {
                try engine.insert(.entity(engine.make("Book", ["name": .string("Book \(k) " + String(repeating: "x", count: 40))])), into: list, append: true)
            }
            try engine.store(model)
        }
        let start = list.items.compactMap { $0.entity?["count"]?.intValue }.max() ?? 0
        var i = start + 1
        while true {
            if i % 2 == 0 {
                for item in list.items { if let b = item.entity { try engine.set(b, "count", .int(i)) } }
            } else if let b = list.items.first?.entity {
                try engine.set(b, "count", .int(i))
            }
            try engine.store(model)
            StandardStreams.output("\(i)\n")
            i += 1
        }
    }
}
