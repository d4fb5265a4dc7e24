import Foundation
@testable import OKitEngine

/// A small bookshop schema and engine for engine tests (no storage unless asked).
final class ShopFixture {
    let schema = Schema()
    let clock = VirtualClock()
    let engine: Engine
    var shop: Model!
    var directory: Model!
    var managedLog: [String] = []
    var unmanagedLog: [String] = []
    var loadedLog: [String] = []
    var didSetLog: [String] = []

    init(seedIds: UInt64 = 1) throws {
        engine = Engine(schema: schema, clock: clock, ids: SeededIds(seed: seedIds))
        var authorHooks = EntityHooks()
        // Weak: a test may keep the engine (through a shell) and let the fixture go.
        authorHooks.managed = { [weak self] e, c in self?.managedLog.append("\(e["name"]!.description) in \(c?.type.name ?? "-")") }
        authorHooks.unmanaged = { [weak self] e, c in self?.unmanagedLog.append("\(e["name"]!.description) from \(c?.type.name ?? "-")") }
        authorHooks.loaded = { [weak self] e in self?.loadedLog.append(e["name"]!.description) }
        try schema.entity("Author", fields: [FieldSpec("name", .string, default: .string("<New Author>"))], hooks: authorHooks)
        try schema.entity("Genre", fields: [FieldSpec("name", .string)])
        try schema.entity("BookDate", hasId: false, fields: [FieldSpec("date", .date)])
        try schema.entity("Book", fields: [
            FieldSpec("name", .string),
            FieldSpec("date", .date),
            FieldSpec("marked", .bool),
            FieldSpec("price", .double),
            FieldSpec("copies", .int),
            FieldSpec("comment", "string?"),
            FieldSpec("type", .string, default: .string("0")),
            FieldSpec("authors", "[Author]"),
            FieldSpec("author", "ref Author"),
            FieldSpec("genre", "ref Genre"),
            FieldSpec("tags", "[string]"),
            FieldSpec("dates", "[BookDate]"),
            FieldSpec("notes", "{string: string}"),
            FieldSpec("rating", "int", didSet: { [unowned self] e, old in didSetLog.append("\(old) -> \(e["rating"]!)") }),
        ], computed: [
            ComputedField("formatMarked", get: { [unowned self] e in
                try engine.read(e, "marked").truthy ? .string("marked") : .string("not marked")
            }),
            ComputedField("priceWithTax", get: { [unowned self] e in
                .double((try engine.read(e, "price").doubleValue ?? 0) * 1.2)
            }, set: { [unowned self] e, v in
                try engine.set(e, "price", .double((v.doubleValue ?? 0) / 1.2))
            }),
        ], methods: [
            EntityMethod("setAsMarked") { [unowned self] e, _ in try engine.set(e, "marked", .bool(true)); return .null },
            EntityMethod("label") { [unowned self] e, args in
                .string((try engine.read(e, "name").displayString ?? "") + (args.first?.displayString ?? ""))
            },
            EntityMethod("fail") { _, _ in throw FixtureError.boom },
        ])
        try schema.entity("Shop", fields: [
            FieldSpec("name", .string, default: .string("Book Shop")),
            FieldSpec("books", "[Book]"),
            FieldSpec("authors", "[Author]"),
            FieldSpec("genres", "[Genre]"),
            FieldSpec("favorites", "{Book}"),
        ])
        try schema.entity("Directory", fields: [FieldSpec("authors", "[Author]"), FieldSpec("title", .string, default: .string("Directory"))])
        try schema.validate()
    }

    /// Registers the two models (transient unless a storage is given) and fills the shop.
    @discardableResult
    func start(storage: ModelStorage = TransientStorage(), books: [String] = ["Dune", "Emma", "Anna"]) throws -> Entity {
        shop = try engine.register(model: "default", type: "Shop", storage: storage)
        directory = try engine.register(model: "directory", type: "Directory", storage: TransientStorage(), storageKind: .transient)
        let root = shop.root
        for (i, name) in books.enumerated() {
            let b = try engine.make("Book", ["name": .string(name), "price": .double(Double(i + 1) * 10.5), "copies": .int(i + 1)])
            try engine.insert(.entity(b), into: engine.collection(root, "books"), append: true)
            let a = try engine.make("Author", ["name": .string("Author of \(name)")])
            try engine.insert(.entity(a), into: engine.collection(b, "authors"), append: true)
        }
        return root
    }

    var root: Entity { shop.root }
    func book(_ i: Int) -> Entity { (try! engine.collection(root, "books")).items[i].entity! }
}

enum FixtureError: Error, CustomStringConvertible {
    case boom
    var description: String { "boom" }
}
