import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// After a load, the id index is built on the first lookup from the list of entities with ids the reader made
/// (`IdentifiedEntities`), not by walking the tree; whatever changed in between is what the lookups see.
@Suite struct IdIndexLoadTests {
    static let a = "0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B9"
    static let b = "1F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B9"
    static let c = "2F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B9"

    static let shop = #"""
        {"okit":{"version":1,"type":"Lib"},"name":"Shop","books":[
         {"id":"\#(a)","name":"A","authors":[{"id":"\#(c)","name":"Ann"}]},
         {"id":"\#(b)","name":"B","main":{"id":"AUTHOR-CODE","name":"Bob"}},
         {"id":"b3","name":"C"}]}
        """#

    /// The reader fixture's engine with `lib` registered from `text` in a fresh data folder.
    func load(_ text: String) throws -> (ReaderFixture, Model, TempFolder) {
        let folder = try TempFolder()
        try FileManager.default.createDirectory(at: folder.modelsFolder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.file("lib.json"))
        let g = try ReaderFixture()
        let model = try g.engine.register(model: "lib", type: "Lib", storage: try FileStorage(dataFolder: folder.url))
        return (g, model, folder)
    }

    func book(_ m: Model, _ i: Int) -> Entity { (m.root["books"]!.elements ?? [])[i].entity! }

    @Test func aLoadedModelIsIndexedFromTheReadersList() throws {
        let (g, m, _) = try load(Self.shop)
        #expect(g.engine.idIndex.hasPending, "nothing is indexed before the first lookup")
        #expect(g.engine.lookup(id: Self.a) === book(m, 0))
        #expect(!g.engine.idIndex.hasPending)
        #expect(g.engine.lookup(id: Self.b) === book(m, 1))
        #expect(g.engine.lookup(id: "b3") === book(m, 2), "an id that is not a canonical UUID")
        #expect(g.engine.lookup(id: "AUTHOR-CODE")?["name"]?.description == "Bob", "an entity in an entity field")
        #expect(g.engine.lookup(id: Self.c)?["name"]?.description == "Ann", "an entity in a collection")
        #expect(g.engine.idIndex.count == 6, "the root's own id too")
        #expect(g.engine.lookup(id: m.root.id!) === m.root)
    }

    /// The first lookup places the listed entities through a pipeline of prefetches (entities 16 ahead): with
    /// many more than that, every one is found, and a duplicate is still a duplicate.
    @Test func manyLoadedIdsAreAllFound() throws {
        let ids = (0..<300).map { String(format: "%08X-4B5A-4987-A6B5-C4D3E2F1A0B9", $0 * 2_654_435_761 % 4_294_967_291) }
        let books = ids.enumerated().map { #"{"id":"\#($1)","name":"B\#($0)"}"# } + [#"{"id":"\#(ids[7])","name":"again"}"#]
        let (g, m, _) = try load(#"{"okit":{"version":1,"type":"Lib"},"name":"Shop","books":["# + books.joined(separator: ",") + "]}")
        for (i, id) in ids.enumerated() { #expect(g.engine.lookup(id: id) === book(m, i), "\(i)") }
        #expect(g.engine.idIndex.isDuplicate(ids[7]))
        #expect(g.engine.idIndex.duplicateCount == 1)
    }

    @Test func changesBeforeTheFirstLookupAreWhatItSees() throws {
        let (g, m, _) = try load(Self.shop)
        let books = try g.engine.collection(m.root, "books")
        let first = book(m, 0)
        let second = book(m, 1)
        _ = try g.engine.remove(.entity(first), from: books)
        #expect(!g.engine.idIndex.hasPending, "removing an entity with an id indexes the loaded trees first")
        try g.engine.set(second, "id", .string("RENAMED"))
        let added = try g.engine.make("Book", ["id": .string("ADDED"), "name": .string("D")])
        try g.engine.insert(.entity(added), into: books, append: true)
        #expect(g.engine.lookup(id: Self.a) == nil, "removed")
        #expect(g.engine.lookup(id: Self.c) == nil, "removed with its book")
        #expect(g.engine.lookup(id: Self.b) == nil && g.engine.lookup(id: "RENAMED") === second)
        #expect(g.engine.lookup(id: "ADDED") === added)
        #expect(g.engine.lookup(id: "b3") === book(m, 1))
    }

    @Test func aRemovalWithoutIdsBeforeTheFirstLookup() throws {
        // The root node has no id, and nothing below it has one: removing it indexes nothing early.
        let text = Self.shop.replacingOccurrences(of: #""name":"Shop","#, with: #""name":"Shop","root":{"label":"r","child":{"label":"c"}},"#)
        let (g, m, _) = try load(text)
        try g.engine.set(m.root, "root", .null)
        #expect(g.engine.idIndex.hasPending)
        #expect(g.engine.lookup(id: Self.a) === book(m, 0))
        #expect(g.engine.idIndex.count == 6)
    }

    @Test func aDuplicateIdInTheFileIsKeptAsADuplicate() throws {
        let text = Self.shop.replacingOccurrences(of: #""id":"b3""#, with: #""id":"\#(Self.a)""#)
        let (g, m, _) = try load(text)
        #expect(g.engine.idIndex.isDuplicate(Self.a))
        #expect(g.engine.idIndex.all(Self.a).count == 2)
        #expect(g.engine.lookup(id: Self.a) === book(m, 0) || g.engine.lookup(id: Self.a) === book(m, 2))
    }

    @Test func aReloadBeforeTheFirstLookupIndexesOnlyTheNewTree() throws {
        let (g, m, folder) = try load(Self.shop)
        let old = book(m, 0)
        try Data(Self.shop.replacingOccurrences(of: Self.a, with: "FRESH").utf8).write(to: folder.file("lib.json"))
        try g.engine.reload(m)
        #expect(g.engine.lookup(id: Self.a) == nil)
        #expect(g.engine.lookup(id: "FRESH") === book(m, 0))
        #expect(book(m, 0) !== old)
        #expect(g.engine.lookup(id: m.root.id!) === m.root, "the root kept its object")
    }

    @Test func anEntityMadeByADefaultIsIndexed() throws {
        // A missing field that is not optional takes a new entity (with a new id): the reader did not list it,
        // so the index walks the tree instead.
        let schema = Schema()
        let engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 5))
        try schema.entity("Part", fields: [FieldSpec("name", .string)])
        try schema.entity("Whole", fields: [FieldSpec("part", "Part"), FieldSpec("parts", "[Part]")])
        try schema.validate()
        let folder = try TempFolder()
        try FileManager.default.createDirectory(at: folder.modelsFolder, withIntermediateDirectories: true)
        try Data(#"{"okit":{"version":1,"type":"Whole"},"parts":[{"id":"\#(Self.a)"}]}"#.utf8).write(to: folder.file("w.json"))
        let m = try engine.register(model: "w", type: "Whole", storage: try FileStorage(dataFolder: folder.url))
        let part = try #require(m.root["part"]?.entity)
        #expect(try engine.lookup(id: #require(part.id)) === part)
        #expect(engine.lookup(id: Self.a) != nil)
    }

    @Test func theListReleasesWhatItDidNotHandOver() {
        let schema = Schema()
        let type = try? schema.entity("Thing", fields: [])
        weak var kept: Entity?
        weak var dropped: Entity?
        var handedOver: [Unmanaged<Entity>] = []
        do {
            let list = IdentifiedEntities()
            let one = Entity(type: type!, state: .managed)
            let two = Entity(type: type!, state: .managed)
            kept = one
            list.add(one)
            list.addOther(two)
            dropped = two
            for _ in 0..<1_000 { list.add(Entity(type: type!, state: .managed)) }   // grows
            list.finish()
            #expect(list.count == 1_001)
            list.handOver { handedOver = Array($0) }
            list.handOver { _ in Issue.record("handed over twice") }
        }
        #expect(dropped == nil, "the other list holds its entities only while it lives")
        #expect(kept != nil, "a handed-over entity keeps its retain")
        for item in handedOver { item.release() }
        #expect(kept == nil)

        weak var unread: Entity?
        do {
            let list = IdentifiedEntities()
            let e = Entity(type: type!, state: .managed)
            unread = e
            list.add(e)
        }
        #expect(unread == nil, "a list never handed over releases its entities")
    }
}
