import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// `key = "autoincrement"` in a file model (storage.md "Autoincrement ids"): the types declared with it share one
/// serial, and the next start continues after the highest id in the file. Before, each type counted on its own and
/// a file model started again from "1" at every start, so a new entity took the id of one already stored.
@Suite struct AutoIncrementFileTests {
    final class Fixture {
        let engine: Engine
        let files: FileStorage
        let model: Model
        init(_ folder: TempFolder) throws {
            let schema = Schema()
            try schema.entity("Fertilizer", fields: [FieldSpec("name", .string)]).tableMapping = TableMapping(autoIncrement: true)
            try schema.entity("Supplier", fields: [FieldSpec("name", .string), try FieldSpec("offers", "[Fertilizer]")])
                .tableMapping = TableMapping(autoIncrement: true)
            try schema.entity("Room", fields: [FieldSpec("name", .string)])
            try schema.entity("Catalog", fields: [try FieldSpec("fertilizers", "[Fertilizer]"), try FieldSpec("suppliers", "[Supplier]"),
                                                  try FieldSpec("rooms", "[Room]")])
            try schema.validate()
            engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 1))
            files = try FileStorage(dataFolder: folder.url)
            model = try engine.register(model: "default", type: "Catalog", storage: files)
        }

        func close() { files.close() }

        @discardableResult
        func add(_ type: String, to field: String, _ name: String, id: String? = nil) throws -> String {
            var fields: [String: Value] = ["name": .string(name)]
            if let id { fields["id"] = .string(id) }
            let e = try engine.make(type, fields)
            try engine.insert(.entity(e), into: engine.collection(model.root, field), append: true)
            return e.id ?? ""
        }

        func ids(_ field: String) throws -> [String] { try engine.collection(model.root, field).items.compactMap { $0.entity?.id } }
    }

    @Test func theNextStartContinuesAfterTheHighestIdInTheFile() throws {
        let folder = try TempFolder()
        do {
            let f = try Fixture(folder)
            defer { f.close() }
            #expect(try f.add("Fertilizer", to: "fertilizers", "Hornspäne") == "1")
            #expect(try f.add("Supplier", to: "suppliers", "Gärtnerei Müller") == "2")
            for k in 0..<40 { try f.add("Room", to: "rooms", "Room \(k)") }     // a file large enough for a journal
            try f.engine.store(f.model)
        }
        do {
            let f = try Fixture(folder)
            defer { f.close() }
            #expect(try f.ids("fertilizers") == ["1"] && f.ids("suppliers") == ["2"], "the file keeps its ids")
            #expect(try f.add("Fertilizer", to: "fertilizers", "Kompost") == "3", "not \"1\" again")
            try f.engine.store(f.model)
            // One inside the supplier: stored as a journal record, not in the file.
            let supplier = try #require(f.engine.lookup(id: "2"))
            let offer = try f.engine.make("Fertilizer", ["name": .string("Guano")])
            try f.engine.insert(.entity(offer), into: f.engine.collection(supplier, "offers"), append: true)
            #expect(offer.id == "4")
            try f.engine.store(f.model)
            #expect(FileManager.default.fileExists(atPath: folder.file("default.journal").path))
        }
        let f = try Fixture(folder)
        defer { f.close() }
        #expect(try f.ids("fertilizers") == ["1", "3"])
        #expect(try f.add("Supplier", to: "suppliers", "Baumschule") == "5", "after the journal's \"4\"")
        #expect(f.engine.idIndex.duplicateCount == 0)
    }

    /// An id of another type that is a whole number (a code given by hand) is never taken by an autoincrement one.
    @Test func aWholeNumberIdGivenByHandIsNeverTaken() throws {
        let folder = try TempFolder()
        do {
            let f = try Fixture(folder)
            defer { f.close() }
            try f.add("Room", to: "rooms", "Küche", id: "5")
            #expect(try f.add("Fertilizer", to: "fertilizers", "Hornspäne") == "6")
            try f.engine.store(f.model)
        }
        let f = try Fixture(folder)
        defer { f.close() }
        #expect(try f.add("Supplier", to: "suppliers", "Gärtnerei Müller") == "7")
    }
}
