import Foundation
import Testing
@testable import OKitEngine

/// Canonical upper-case UUID ids are kept as their 128 bits (`PackedId`); every other id stays a string. Either
/// way an id reads, writes, indexes and changes exactly as the text it was given.
@Suite struct PackedIdTests {
    let f: ReaderFixture
    init() throws { f = try ReaderFixture() }

    static let upper = "0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B9"

    func text(_ e: Entity) -> String { String(decoding: JSONWriter.entityJSON(e), as: UTF8.self) }

    @Test(arguments: [
        upper,
        "0f1e2d3c-4b5a-4987-a6b5-c4d3e2f1a0b9",      // lower case: kept as written, not upper-cased
        "0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0BG",      // not hex
        "0F1E2D3C_4B5A-4987-A6B5-C4D3E2F1A0B9",      // a dash missing
        "0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B",       // 35 characters
        "0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B9 ",     // 37
        "FANTASY", "", "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    ])
    func anIdReadsWritesAndIndexesAsItsText(_ id: String) throws {
        let r = try f.read(#"{"books":[{"id":"\#(id)","name":"Dune"}]}"#)
        let book = r.book(0)
        #expect(book.id == id)
        #expect(book.values[0].isSame(as: .string(id)))
        #expect(book["name"]?.description == "Dune")
        #expect(text(book).hasPrefix(#"{"id":"\#(id)","name":"Dune""#))
        #expect((book.packedId != nil) == (id == Self.upper || id.hasPrefix("00000000") || id.hasPrefix("FFFFFFFF")))
        let back = try f.read(#"{"books":["# + text(book) + "]}").book(0)
        #expect(back.id == id)
    }

    @Test func theBitsAreTheHexDigitsInOrder() {
        var id = Self.upper
        let bits = id.withUTF8 { PackedId.parse($0) }
        #expect(bits?.0 == 0x0F1E_2D3C_4B5A_4987)
        #expect(bits?.1 == 0xA6B5_C4D3_E2F1_A0B9)
        #expect(bits.map(PackedId.text) == Self.upper)
        for bad in ["0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B:", "0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B@", "0F1E2D3C-4B5A-4987-A6B5-C4D3E2F1A0B`"] {
            var b = bad
            #expect(b.withUTF8 { PackedId.parse($0) } == nil, "\(bad)")
        }
    }

    @Test func anIdChangedBetweenForms() throws {
        let book = try f.engine.make("Book", ["id": .string(Self.upper)])
        #expect(book.packedId != nil)
        try f.engine.set(book, "id", .string("CODE-1"))
        #expect(book.packedId == nil && book.id == "CODE-1")
        try f.engine.set(book, "id", .string(Self.upper))
        #expect(book.packedId != nil && book.id == Self.upper)
        #expect(text(book).hasPrefix(#"{"id":"\#(Self.upper)""#))
    }

    @Test func madeIdsArePackedAndLookedUpByTheirBits() throws {
        let r = try f.read(#"{"books":[{"id":"\#(Self.upper)"},{"id":"b2"}]}"#)
        let index = IdIndex()
        index.addLater(r.root, count: r.entityCount)
        #expect(index.lookup(Self.upper, from: nil) === r.book(0), "indexed from the bits")
        #expect(index.lookup(Self.upper.lowercased(), from: nil) == nil, "ids differ by case")
        #expect(index.lookup("b2", from: nil) === r.book(1))
        #expect(index.count == 3)
        let made = try f.engine.make("Author", [:])
        #expect(made.packedId != nil, "okit's own ids are canonical UUIDs")
        #expect(made.id.map { $0.count == 36 && $0 == $0.uppercased() } == true)
    }

    @Test func aCanonicalIdTwiceInOneFileIsADuplicateAndBothAreKept() throws {
        let r = try f.read(#"{"books":[{"id":"\#(Self.upper)","name":"A"},{"id":"\#(Self.upper)","name":"B"}]}"#)
        let index = IdIndex()
        index.addLater(r.root, count: r.entityCount)
        #expect(index.isDuplicate(Self.upper))
        #expect(index.all(Self.upper).map { $0["name"]!.description } == ["A", "B"])
        index.remove(r.book(0), id: Self.upper)
        #expect(index.lookup(Self.upper, from: nil) === r.book(1), "the other takes its place")
    }

    @Test func aTypeHasAtMostMaxFieldsStoredFields() throws {
        let s = Schema()
        let fields = (0..<EntityType.maxFields).map { FieldSpec("f\($0)", .int) }
        #expect(throws: SchemaError.tooManyFields(type: "Wide")) { try s.entity("Wide", fields: fields) }
        #expect(SchemaError.tooManyFields(type: "Wide").description.contains("more than 4096 stored fields"))
        try s.entity("Fits", hasId: false, fields: Array(fields.prefix(EntityType.maxFields)))
    }
}
