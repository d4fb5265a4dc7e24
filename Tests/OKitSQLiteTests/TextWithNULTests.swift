import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// A text with the NUL character (storage.md "Texts"): refused at the write in every storage kind alike, naming the
/// model, entity and field; a model another program wrote with one is kept as it is by file and sqlite models.
@Suite struct TextWithNULTests {
    static func schema(_ schema: Schema) throws {
        try schema.entity("Author", fields: [FieldSpec("name", .string)])
        try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int), FieldSpec("tags", "[string]"),
                                           FieldSpec("notes", "{string: string}"), FieldSpec("author", "ref Author?")])
        try schema.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("books", "[Book]")])
        try schema.validate()
    }

    /// An engine with one model of `kind` in `folder`, holding the book "dune".
    static func open(_ kind: StorageKind, _ folder: TempFolder) throws -> (Engine, Model, FileStorage, ModelStorage) {
        let schema = Schema()
        try Self.schema(schema)
        let engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 3))
        let files = try FileStorage(dataFolder: folder.url)
        let storage: ModelStorage = kind == .sqlite ? SQLiteStorage(files: files, path: try DataFolder(folder.url).sqliteFile("default")) : files
        let model = try engine.register(model: "default", type: "Shop", storage: storage, storageKind: kind) { root in
            try engine.insert(.entity(engine.make("Book", ["id": .string("dune"), "name": .string("Dune")])),
                              into: engine.collection(root, "books"), append: true)
        }
        return (engine, model, files, storage)
    }

    static func dune(_ engine: Engine, _ model: Model) throws -> Entity { try #require(engine.lookup(id: "dune", from: model)) }

    /// Every way a text reaches an entity refuses a NUL, names where, and writes nothing.
    @Test(arguments: [StorageKind.file, .sqlite])
    func everyWriteOfATextWithANULIsRefused(kind: StorageKind) throws {
        let folder = try TempFolder()
        let (engine, model, files, storage) = try Self.open(kind, folder)
        defer { (storage as? SQLiteStorage)?.close(); files.close() }
        try engine.store(model)
        let book = try Self.dune(engine, model)
        let e = try #require(throws: TextWithNUL.self) { try engine.set(book, "name", .string("Du\u{0}ne")) }
        #expect(e.description.hasPrefix("model \"default\", Book dune, field name: a text cannot hold the NUL character (U+0000"))
        #expect(e.description.contains("nothing was written"))
        #expect(book["name"]?.description == "Dune")
        #expect(!model.isDirty)
        #expect(throws: TextWithNUL.self) { try engine.insert(.string("a\u{0}"), into: engine.collection(book, "tags")) }
        #expect(throws: TextWithNUL.self) { try engine.put(.string("x"), forKey: "k\u{0}", in: engine.collection(book, "notes")) }
        #expect(throws: TextWithNUL.self) { try engine.put(.string("\u{0}"), forKey: "k", in: engine.collection(book, "notes")) }
        let ref = try #require(throws: TextWithNUL.self) { try engine.set(book, "author", .string("A\u{0}")) }
        #expect(ref.field == "author" && ref.id == "dune")
        #expect(throws: TextWithNUL.self) { try engine.make("Book", ["id": .string("x\u{0}y")]) }
        #expect(throws: TextWithNUL.self) { try engine.make("Book", ["name": .string("\u{0}")]) }
        // Through a binding, as a command writes.
        #expect(throws: TextWithNUL.self) { try engine.commandSet(book, binding: "name", .string("%00 is \u{0}")) }
        #expect(try engine.collection(book, "tags").count == 0 && (try engine.collection(book, "notes").count) == 0)
        #expect(!model.isDirty)
        #expect(try engine.store(model) == .unchanged)
        // A text without one is written as ever.
        try engine.set(book, "name", .string("Dune ✓"))
        #expect(try engine.store(model) != .unchanged)
    }

    /// A default is written into every entity made: a text with a NUL is refused when the type is declared.
    @Test func aDefaultWithANULIsRefusedAtTheDeclaration() throws {
        let schema = Schema()
        #expect(throws: SchemaError.self) { try schema.entity("Tag", fields: [FieldSpec("name", .string, default: .string("a\u{0}b"))]) }
    }

    /// A model file another program wrote with a NUL (`\u0000`) loads, and a store keeps it exactly.
    @Test func aFileModelWrittenElsewhereKeepsItsNUL() throws {
        let folder = try TempFolder()
        try folder.write("default.json", #"{"okit":{"version":1,"type":"Shop","gen":1},"id":"S","title":"a\u0000b","books":[{"id":"dune","name":"Du\u0000ne","count":1}]}"#)
        let (engine, model, files, _) = try Self.open(.file, folder)
        defer { files.close() }
        let book = try Self.dune(engine, model)
        #expect(book["name"]?.description == "Du\u{0}ne")
        try engine.set(book, "count", .int(2))
        engine.markWholeDirty(model)
        try engine.store(model)
        let text = try #require(folder.read("default.json"))
        #expect(text.contains(#""name":"Du\u0000ne""#) && text.contains(#""title":"a\u0000b""#))
    }

    /// A sqlite model holding a text with a NUL (read from data another program wrote) is stored whole: the text is
    /// not cut at the NUL (GRDB's binding cut it silently).
    @Test func aSQLiteModelKeepsATextWithANULItDidNotWrite() throws {
        let folder = try TempFolder()
        do {
            let (engine, model, files, storage) = try Self.open(.sqlite, folder)
            defer { (storage as? SQLiteStorage)?.close(); files.close() }
            let book = try Self.dune(engine, model)
            // As a reader puts it there (no write checks it).
            book.values[try #require(book.type.slot(of: "name"))] = .string("Du\u{0}ne")
            model.markDirty(book)
            try engine.store(model)
        }
        let (engine, model, files, storage) = try Self.open(.sqlite, folder)
        defer { (storage as? SQLiteStorage)?.close(); files.close() }
        #expect(try Self.dune(engine, model)["name"]?.description == "Du\u{0}ne")
    }
}
