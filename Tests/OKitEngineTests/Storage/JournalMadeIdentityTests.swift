import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// A model file that lacks an entity's id or an entity field (written by hand, by another tool, or before the
/// app added the field): the read makes the id or the default entity, which the file does not hold. A journal
/// record names an entity by its id and the next read makes a new one, so such a model's next store writes the
/// whole file; and a default entity is part of the model, so a change to it is stored. Both changes were lost
/// when the process ended without writing at exit (a kill after `background`, a crash).
@Suite struct JournalMadeIdentityTests {
    final class Shop {
        let schema = Schema()
        let engine: Engine
        let storage: FileStorage
        let model: Model

        init(_ folder: TempFolder) throws {
            engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: UInt64.random(in: 1...1_000_000)))
            try schema.entity("Owner", fields: [FieldSpec("name", .string)])
            try schema.entity("Book", fields: [FieldSpec("name", .string)])
            try schema.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("owner", "Owner"), FieldSpec("books", "[Book]")])
            try schema.validate()
            storage = try FileStorage(dataFolder: folder.url)
            model = try engine.register(model: "default", type: "Shop", storage: storage)
        }

        var owner: Entity { get throws { try #require(model.root["owner"]?.entity) } }
        func book(_ i: Int) throws -> Entity { try #require(try engine.collection(model.root, "books").element(at: i)?.entity) }
    }

    /// A title long enough that a record fits the journal's budget (1/8 of the file).
    static let title = String(repeating: "t", count: 20_000)
    static let header = #"{"okit":{"version":1,"type":"Shop","gen":1},"id":"9C500DB6-04D6-46FD-8BF9-DBD928677E0F","title":""# + title + "\""

    @Test func aChangeToTheDefaultOfAMissingEntityFieldSurvivesTheNextRead() throws {
        let folder = try TempFolder()
        try folder.write("default.json", Self.header + #","books":[]}"#)
        do {
            let shop = try Shop(folder)
            #expect(try shop.owner.state == .managed)
            try shop.engine.set(try shop.owner, "name", .string("Anna"))
            guard case .full = try shop.engine.store(shop.model) else { Issue.record("the default owner is not in the file: a full write"); return }
            // Written whole, the owner is in the file: the next change goes to the journal, and is kept too.
            try shop.engine.set(try shop.owner, "name", .string("Anna B."))
            guard case .journal = try shop.engine.store(shop.model) else { Issue.record("expected a journal write"); return }
        }
        let again = try Shop(folder)
        #expect(try again.owner["name"]?.description == "Anna B.")
    }

    @Test func aChangeToAnEntityWrittenWithoutAnIdSurvivesTheNextRead() throws {
        let folder = try TempFolder()
        try folder.write("default.json", Self.header + #","owner":{"id":"C7977BB7-39B1-4354-A5C2-0ECF0008E2DA","name":"Bob"},"books":[{"name":"Dune"}]}"#)
        do {
            let shop = try Shop(folder)
            try shop.engine.set(try shop.book(0), "name", .string("Emma"))
            guard case .full = try shop.engine.store(shop.model) else { Issue.record("the book's id is not in the file: a full write"); return }
        }
        let again = try Shop(folder)
        #expect(try again.book(0)["name"]?.description == "Emma")
        #expect(try again.book(0).id == (try Shop.idInFile(folder)))
    }

    @Test func aFileThatHoldsEveryIdStillJournals() throws {
        let folder = try TempFolder()
        try folder.write("default.json", Self.header + #","owner":{"id":"C7977BB7-39B1-4354-A5C2-0ECF0008E2DA","name":"Bob"},"books":[{"id":"D2E3C1B0-0000-4000-8000-000000000001","name":"Dune"}]}"#)
        do {
            let shop = try Shop(folder)
            try shop.engine.set(try shop.book(0), "name", .string("Emma"))
            guard case .journal = try shop.engine.store(shop.model) else { Issue.record("expected a journal write"); return }
        }
        #expect(try Shop(folder).book(0)["name"]?.description == "Emma")
    }
}

extension JournalMadeIdentityTests.Shop {
    /// The id the file now holds for its first book.
    static func idInFile(_ folder: TempFolder) throws -> String? {
        let text = try #require(folder.read("default.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return ((object["books"] as? [[String: Any]])?.first?["id"]) as? String
    }
}
