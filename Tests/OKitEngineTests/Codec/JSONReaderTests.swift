import Foundation
import Testing
@testable import OKitEngine

/// A schema with every field type, read straight from JSON text (no files).
final class ReaderFixture {
    let schema = Schema()
    let engine: Engine
    let path = "/data/okit/data/lib.json"

    init() throws {
        engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 3))
        try schema.entity("Author", fields: [FieldSpec("name", .string)])
        try schema.entity("Node", hasId: false, fields: [FieldSpec("child", "Node?"), FieldSpec("label", .string)])
        try schema.entity("Book", fields: [
            FieldSpec("name", .string), FieldSpec("count", .int), FieldSpec("price", .double), FieldSpec("marked", .bool),
            FieldSpec("date", .date), FieldSpec("note", "string?"), FieldSpec("kind", "string?", default: .string("paper")),
            FieldSpec("author", "ref Author"), FieldSpec("authors", "[Author]"), FieldSpec("tags", "[string]"),
            FieldSpec("favs", "{Author}"), FieldSpec("scores", "{string: int}"), FieldSpec("cover", "image?"),
            FieldSpec("file", "data?"), FieldSpec("blob", "inlineData?"), FieldSpec("main", "Author?"),
        ])
        try schema.entity("Lib", fields: [FieldSpec("name", .string), FieldSpec("books", "[Book]"), FieldSpec("root", "Node?")])
        try schema.validate()
    }

    var libType: EntityType { schema.type(named: "Lib")! }

    struct Read {
        let root: Entity
        let version: Int?
        let headerExtras: [(key: String, json: [UInt8])]
        let entityCount: Int
        func book(_ i: Int) -> Entity { (root["books"]!.elements ?? [])[i].entity! }
    }

    /// Reads a document; a failure becomes the `StorageError` file storage would report.
    func read(_ json: String) throws -> Read { try read(Array(json.utf8)) }

    func read(_ bytes: [UInt8]) throws -> Read {
        do {
            return try bytes.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                let root = try r.root(libType)
                return Read(root: root, version: r.version, headerExtras: r.headerExtras, entityCount: r.entityCount)
            }
        } catch let f as JSONReader.Failure {
            throw FileStorage.describe(f, bytes: bytes, path: path, rootType: libType)
        }
    }

    /// A book field read from `{"books":[{…, "<field>": <json>}]}`.
    func field(_ name: String, _ json: String) throws -> Value {
        try read(#"{"books":[{"id":"B","\#(name)":\#(json)}]}"#).book(0)[name]!
    }

    /// The error for a document (nil when it reads).
    func error(_ json: String) -> StorageError? {
        do { _ = try read(json); return nil } catch { return error as? StorageError }
    }
}

@Suite struct JSONReaderTests {
    let f: ReaderFixture
    init() throws { f = try ReaderFixture() }

    @Test func scalarsOfEveryType() throws {
        #expect(try f.field("name", #""Dune""#).isSame(as: .string("Dune")))
        #expect(try f.field("name", #""a\"b\\c\/d\n\t\r\b\f\u00e9\u2713\ud83d\ude00""#)
            .isSame(as: .string("a\"b\\c/d\n\t\r\u{8}\u{C}é✓😀")))
        #expect(try f.field("name", #""é✓😀 raw""#).isSame(as: .string("é✓😀 raw")))
        #expect(try f.field("count", "42").isSame(as: .int(42)))
        #expect(try f.field("count", "-9223372036854775807").isSame(as: .int(-9_223_372_036_854_775_807)))
        #expect(try f.field("count", "1e3").isSame(as: .int(1000)), "a float without a fraction")
        #expect(try f.field("count", "7.0").isSame(as: .int(7)))
        #expect(try f.field("count", #""5""#).isSame(as: .int(5)), "a numeric string, lossless")
        #expect(try f.field("price", "2.5").isSame(as: .double(2.5)))
        #expect(try f.field("price", "3").isSame(as: .double(3)))
        #expect(try f.field("price", #""0.1""#).isSame(as: .double(0.1)))
        #expect(try f.field("price", "-1.5E-7").isSame(as: .double(-1.5e-7)))
        #expect(try f.field("price", "1e300").isSame(as: .double(1e300)))
        #expect(try f.field("price", "123456789012345678901234567890").isSame(as: .double(1.2345678901234568e29)))
        #expect(try f.field("price", "0.30000000000000004").isSame(as: .double(0.1 + 0.2)))
        #expect(try f.field("marked", "true").isSame(as: .bool(true)))
        #expect(try f.field("marked", "false").isSame(as: .bool(false)))
        #expect(try f.field("note", "null").isNull)
        #expect(try f.field("note", #""n""#).isSame(as: .string("n")))
    }

    @Test func datesAsISOStringsAndOKitNumbers() throws {
        func secs(_ json: String) throws -> Double? {
            guard case .date(let d) = try f.field("date", json) else { return nil }
            return d.timeIntervalSince1970
        }
        #expect(try secs(#""2019-05-01T10:00:00Z""#) == 1_556_704_800)
        #expect(try secs(#""2019-05-01T12:00:00+02:00""#) == 1_556_704_800)
        #expect(try secs(#""2019-05-01T05:30:00-0430""#) == 1_556_704_800)
        #expect(try secs(#""2019-05-01T10:00:00.123456Z""#) == 1_556_704_800.123456)
        #expect(try secs("578397600") == 1_556_704_800, "OKit: seconds since 2001")
        #expect(try secs("578397600.5") == 1_556_704_800.5)
        #expect(try secs("-978307200") == 0)
    }

    @Test func numbersParseExactly() throws {
        // The fast path (mantissa < 2^53, |exp10| ≤ 22) and the strtod fallback agree with a correctly rounded parser.
        var rng = SplitMix64(seed: 99)
        for _ in 0..<3000 {
            let digits = 1 + Int(rng.next() % 19)
            var mantissa = String(1 + rng.next() % 9)
            for _ in 1..<digits { mantissa += String(rng.next() % 10) }
            let point = Int(rng.next() % UInt64(digits + 1))
            var text = point == digits ? mantissa : String(mantissa.prefix(point).isEmpty ? "0" : mantissa.prefix(point)) + "." + mantissa.dropFirst(point)
            if rng.next() % 2 == 0 { text += "e\(Int(rng.next() % 61) - 30)" }
            if rng.next() % 3 == 0 { text = "-" + text }
            let expected = try #require(Double(text))
            let got = try f.field("price", text)
            #expect(got.isSame(as: .double(expected)), "\(text)")
        }
    }

    @Test func entitiesRefsCollectionsMapsAndBinaries() throws {
        let r = try f.read(#"""
        {"name":"L","books":[{"id":"B1","name":"Dune",
          "author":{"id":"R1","refKey":"A1"},
          "authors":[{"id":"A1","name":"Frank"},{"id":"A2","name":"Brian"}],
          "tags":["sf","classic"],
          "favs":[{"id":"A3","name":"X"}],
          "scores":{"z":1,"a":2},
          "cover":{"id":"I1","format":"png","label":"Cover","size":12,"sha256":"ab"},
          "file":{"id":"D1","format":"","label":"f","size":3,"sha256":"cd"},
          "blob":{"id":"L1","format":"","label":"","size":3,"data":"AQID"},
          "main":{"id":"M1","name":"Main"}},
          {"id":"B2","author":"A2"}],
         "root":{"label":"top","child":{"label":"inner"}}}
        """#)
        let b = r.book(0)
        #expect(r.root["name"]!.isSame(as: .string("L")))
        #expect(b.parent === r.root)
        let ref = try #require(b["author"]?.entity)
        #expect(ref.type.isRef && ref.id == "R1" && ref["refKey"]!.isSame(as: .string("A1")) && ref.parent === b)
        guard case .collection(let authors) = b["authors"]! else { Issue.record("authors"); return }
        #expect(authors.kind == .array && authors.owner === b && authors.count == 2)
        #expect(authors.items[1].entity!["name"]!.isSame(as: .string("Brian")) && authors.items[1].entity!.parent === b)
        guard case .collection(let tags) = b["tags"]!, case .collection(let favs) = b["favs"]!,
              case .collection(let scores) = b["scores"]! else { Issue.record("collections"); return }
        #expect(tags.items.map(\.description) == ["sf", "classic"])
        #expect(favs.kind == .set && favs.items.first?.entity?.id == "A3")
        #expect(scores.kind == .map && scores.keys == ["z", "a"] && scores.items[1].isSame(as: .int(2)), "maps keep file order")
        #expect(b["cover"]!.entity!.type.name == "okit.Image" && b["cover"]!.entity!["size"]!.isSame(as: .int(12)))
        #expect(b["file"]!.entity!.type.name == "okit.Data" && b["file"]!.entity!["sha256"]!.isSame(as: .string("cd")))
        #expect(b["blob"]!.entity!["data"]!.isSame(as: .string("AQID")))
        #expect(b["main"]!.entity!["name"]!.isSame(as: .string("Main")) && b["main"]!.entity!.parent === b)
        // A bare string is a reference key.
        #expect(r.book(1)["author"]!.entity!["refKey"]!.isSame(as: .string("A2")))
        let node = try #require(r.root["root"]?.entity)
        #expect(node["child"]!.entity!["label"]!.isSame(as: .string("inner")) && node["child"]!.entity!["child"]!.isNull)
        #expect(r.entityCount > 10)
    }

    @Test func missingFieldsTakeDefaults() throws {
        let r = try f.read(#"{"books":[{"name":"Dune","count":null,"note":null}]}"#)
        let b = r.book(0)
        #expect(b.id?.isEmpty == false, "a missing id is generated")
        #expect(r.root.id?.isEmpty == false)
        #expect(r.root["name"]!.isSame(as: .string("")))
        #expect(b["count"]!.isSame(as: .int(0)), "null for a field that is not optional takes its default")
        #expect(b["price"]!.isSame(as: .double(0)) && b["marked"]!.isSame(as: .bool(false)))
        #expect(b["note"]!.isNull, "an optional may be null")
        #expect(b["kind"]!.isSame(as: .string("paper")), "a missing optional takes its declared default")
        #expect(b["author"]!.entity?.type.isRef == true)
        guard case .collection(let tags) = b["tags"]! else { Issue.record("tags"); return }
        #expect(tags.isEmpty && tags.owner === b)
        #expect(b["cover"]!.isNull && b["main"]!.isNull)
    }

    @Test func unknownFieldsAreKeptInFileOrder() throws {
        let r = try f.read(#"{"okit":{"version":3,"type":"Lib","future":{"x":[1]}},"zeta":1,"books":[{"id":"B","new":[true, null],"n\u00e9w":"é"}],"alpha":{"a" : 2}}"#)
        #expect(r.version == 3)
        #expect(r.headerExtras.map(\.key) == ["future"] && r.headerExtras[0].json == Array(#"{"x":[1]}"#.utf8))
        let unknown = try #require(r.root.unknownFields)
        #expect(unknown.map(\.key) == ["zeta", "alpha"], "okit is the header, not a field")
        #expect(unknown[1].json == Array(#"{"a" : 2}"#.utf8), "raw bytes, verbatim")
        let inBook = try #require(r.book(0).unknownFields)
        #expect(inBook.map(\.key) == ["new", "néw"] && inBook[0].json == Array("[true, null]".utf8))
    }

    @Test(arguments: [
        (#"{"books":[{"id":"B0"},{"id":"B1","price":"abc"}]}"#, "expected a number", "$.books[1].price"),
        (#"{"books":[{"count":1.5}]}"#, "expected an int", "$.books[0].count"),
        (#"{"books":[{"count":"1.5"}]}"#, "expected an int", "$.books[0].count"),
        (#"{"books":[{"count":99999999999999999999}]}"#, "expected an int", "$.books[0].count"),
        (#"{"books":[{"price":1e400}]}"#, "expected a number within the range of a double", "$.books[0].price"),
        (#"{"books":[{"marked":"yes"}]}"#, "expected true or false", "$.books[0].marked"),
        (#"{"books":[{"date":"2019-13-01"}]}"#, "expected an ISO 8601 date", "$.books[0].date"),
        (#"{"books":[{"date":true}]}"#, "expected a date", "$.books[0].date"),
        (#"{"books":[{"author":5}]}"#, #"expected a reference object {"id", "refKey"}"#, "$.books[0].author"),
        (#"{"books":[{"authors":{}}]}"#, "expected an array", "$.books[0].authors"),
        (#"{"books":[{"scores":[1]}]}"#, "expected an object (a map)", "$.books[0].scores"),
        (#"{"books":[{"scores":{"a":"x"}}]}"#, "expected an int", "$.books[0].scores.a"),
        (#"{"books":[{"tags":["a",3]}]}"#, "expected a string", "$.books[0].tags[1]"),
        (#"{"books":[{"cover":"x"}]}"#, "expected an object with the image metadata", "$.books[0].cover"),
        (#"{"books":[7]}"#, "expected an object for a Book", "$.books[0]"),
        (#"{"name":["x"]}"#, "expected a string", "$.name"),
    ])
    func wrongTypesAreErrors(_ json: String, _ message: String, _ path: String) throws {
        let e = try #require(f.error(json))
        #expect(e.kind == .wrongType)
        #expect(e.message == message)
        #expect(e.jsonPath == path)
    }

    @Test func errorsNameFileLineColumnPathAndTheWayOut() throws {
        let json = "{\"name\":\"L\",\"books\":[\n{\"id\":\"B0\",\"price\":1},\n{\"id\":\"B1\",\n \"price\":true}]}"
        let e = try #require(f.error(json))
        #expect(e.jsonPath == "$.books[1].price")
        #expect(e.line == 4 && e.column == 10)
        #expect(e.offset == Array(json.utf8).count - 7)
        let lines = e.description.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == "/data/okit/data/lib.json:4:10: expected a number at $.books[1].price (byte \(e.offset ?? 0))")
        #expect(lines[1] == "  the file is left as it is")
        #expect(e.remedy == .described(#"field "price" of Book is declared double and the file holds true or false: if the field's type changed, give the app the next version (okit.app { version = 2 }) and convert the stored values in okit.migrate(1, function(model, raw) … end) (lua-api.md "Schema versions"); if the data was edited by hand, fix the value"#))
        // Columns count characters, not bytes.
        #expect(f.error(#"{"name":"é✓","books":{}}"#)?.column == 22)
    }

    @Test(arguments: [
        "", " ", "{", "}", "[]", "null", #"{"books":[{"id":"B1""#, #"{"name":"unterminated}"#, #"{"name":"x"} trailing"#,
        #"{"name":"\u12"}"#, #"{"name":"\x"}"#, "{\"name\":\"a\u{1}\"}", #"{"books":[{"id":"B1",}]}"#, #"{"books":[,]}"#,
        #"{"name" "x"}"#, #"{"name":"x",}"#, #"{"unknown":tru}"#, #"{"unknown":01}"#, #"{"unknown":1.}"#, #"{"unknown":-}"#,
        #"{"unknown":1e}"#, #"{"unknown":[1 2]}"#, #"{"unknown":{"a" 1}}"#, #"{name:"x"}"#, #"{"name":"\ud800"}"#,
        #"{"name":"\udc00\ud800"}"#, #"{"name":"\ud83dx"}"#, #"{"unknown":NaN}"#, "{\"a\":1}\u{0}",
    ])
    func malformedDocumentsAreErrors(_ json: String) throws {
        let e = try #require(f.error(json), "accepted: \(json)")
        #expect(e.kind == .corrupt || e.kind == .wrongType)
        #expect(e.line != nil && e.column != nil && e.jsonPath != nil)
    }

    @Test func invalidUTF8IsAnError() throws {
        for bad: [UInt8] in [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
            for doc in [Array(#"{"name":""#.utf8) + bad + Array(#""}"#.utf8),
                        Array(#"{"unknown":""#.utf8) + bad + Array(#""}"#.utf8),
                        Array(#"{""#.utf8) + bad + Array(#"":1}"#.utf8),
                        Array(#"{"name":"a\n"#.utf8) + bad + Array(#""}"#.utf8)] {
                #expect(throws: StorageError.self) { try f.read(doc) }
            }
        }
    }

    @Test func everyTruncationIsAnError() throws {
        let doc = Array(#"{"okit":{"version":1},"name":"L\u00e9","books":[{"id":"B1","price":-1.5e3,"marked":true,"date":"2019-05-01T10:00:00Z","author":{"id":"R","refKey":"A"},"tags":["a"],"scores":{"k":1},"x":[null,{"y":false}]}],"root":{"label":"t"}}"#.utf8)
        _ = try f.read(doc)
        for n in 0..<doc.count {
            #expect(throws: StorageError.self, "prefix of \(n) bytes") { try f.read(Array(doc[..<n])) }
        }
    }

    @Test func nestingDeeperThan512IsAnError() throws {
        let deepUnknown = #"{"extra":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        #expect(f.error(deepUnknown)?.message.contains("nesting deeper than 512") == true)
        let deepObjects = #"{"extra":"# + String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000) + "}"
        #expect(f.error(deepObjects)?.message.contains("nesting deeper than 512") == true)
    }

    @Test func entitiesNestedDeeperThan512AreAnError() throws {
        // Owned entities nested through the schema count too.
        let deepNodes = #"{"root":"# + String(repeating: #"{"child":"#, count: 5000) + "null" + String(repeating: "}", count: 5000) + "}"
        #expect(f.error(deepNodes)?.message.contains("nesting deeper than 512") == true)
        let fine = #"{"root":"# + String(repeating: #"{"child":"#, count: 511) + "null" + String(repeating: "}", count: 511) + "}"
        #expect(f.error(fine) == nil)
    }

    @Test func aLeadingByteOrderMarkIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let r = try f.read(bom + Array(#"{"okit":{"version":2},"name":"L","books":[{"id":"B1","name":"Dune"}]}"#.utf8))
        #expect(r.version == 2 && r.root["name"]!.isSame(as: .string("L")) && r.book(0)["name"]!.isSame(as: .string("Dune")))
        #expect(try f.read(bom + Array(" \n {}".utf8)).root["name"]!.isSame(as: .string("")), "spaces may follow the mark")
        // Later errors: the column counts characters after the mark; the byte offset is the file's.
        let e = try #require(f.error("\u{FEFF}{\"name\":5}"))
        #expect(e.message == "expected a string" && e.jsonPath == "$.name")
        #expect(e.line == 1 && e.column == 9 && e.offset == 11)
        let second = try #require(f.error("\u{FEFF}{\"name\":\"L\",\n\"books\":7}"))
        #expect(second.line == 2 && second.column == 9 && second.jsonPath == "$.books")
        // Only at the start, and only the whole mark.
        #expect(f.error("{\"name\":\"L\"}\u{FEFF}") != nil)
        #expect(f.error("{\u{FEFF}\"name\":\"L\"}") != nil)
        #expect(throws: StorageError.self) { try f.read([0xEF, 0xBB] + Array("{}".utf8)) }
        #expect(throws: StorageError.self) { try f.read(bom + bom + Array("{}".utf8)) }
        #expect(throws: StorageError.self) { try f.read(bom) }
    }

    @Test func inlineDataSizeFollowsItsBytes() throws {
        func size(_ json: String) throws -> Value? { try f.field("blob", json).entity?["size"] }
        #expect(try size(#"{"id":"L1","format":"text/plain","data":"aGVsbG8="}"#)?.isSame(as: .int(5)) == true, "no size")
        #expect(try size(#"{"id":"L1","size":99,"data":"aGVsbG8="}"#)?.isSame(as: .int(5)) == true, "a wrong size")
        #expect(try size(#"{"id":"L1","size":null,"data":"aGVsbA=="}"#)?.isSame(as: .int(4)) == true)
        #expect(try size(#"{"id":"L1","data":""}"#)?.isSame(as: .int(0)) == true)
        #expect(try size(#"{"id":"L1","size":3,"data":"not base64!"}"#)?.isSame(as: .int(3)) == true,
                "bytes that do not decode leave the size as it is (reading them is the error)")
        // The count agrees with Foundation's decoder (which `readBytes` uses), counted without decoding when well formed.
        for text in ["", "AQ==", "AQI=", "AQID", "aGVsbG8h", "aGVsbG8", "aGVs bG8=", "aGV=bA==", "aGVsbA=", "====", "AQ=A", "+/+/",
                     "A===", "AQ==AQ==", "QUJD", "AQ=\n"] {
            #expect(InlineBytes.decodedCount(text) == Data(base64Encoded: text)?.count, "\(text)")
        }
        #expect(InlineBytes.wellFormedCount("aGVsbG8=") == 5 && InlineBytes.wellFormedCount("AQ=A") == nil)
    }

    @Test func seededFuzzNeverCrashes() throws {
        let doc = Array(#"""
        {"okit":{"version":1,"type":"Lib"},"name":"L","books":[{"id":"B1","name":"D\u00fcne \"q\" \\ 😀","count":3,"price":10.5,
        "marked":true,"date":"2019-05-01T10:00:00.25Z","note":null,"author":{"id":"R1","refKey":"A1"},
        "authors":[{"id":"A1","name":"F"}],"tags":["a","b"],"favs":[],"scores":{"a":1,"b":-2},"blob":{"id":"L","data":"AQID"},
        "extra":{"deep":[[1,2,{"z":null}],"s",1e5,false]}},{"id":"B2","date":578397600,"author":"A1"}],"root":{"label":"n","child":{"label":"c"}}}
        """#.utf8)
        _ = try f.read(doc)
        var rng = SplitMix64(seed: 2024)
        let alphabet = Array(#"{}[]":,\ntrufalsn0123456789.eE+-"\u"#.utf8) + [0x00, 0xC3, 0xFF, 0x80]
        var accepted = 0
        for round in 0..<6000 {
            var bytes = doc
            switch round % 6 {
            case 0: bytes.removeLast(1 + Int(rng.next() % UInt64(bytes.count - 1)))
            case 1: for _ in 0..<1 + rng.next() % 4 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            case 2: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: Int(rng.next() % UInt64(bytes.count)))
            case 3: bytes.remove(at: Int(rng.next() % UInt64(bytes.count)))
            case 4:
                let a = Int(rng.next() % UInt64(bytes.count)), n = Int(rng.next() % 40)
                bytes.insert(contentsOf: bytes[a..<min(bytes.count, a + n)], at: Int(rng.next() % UInt64(bytes.count)))
            default:
                bytes = (0..<Int(rng.next() % 200)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            }
            if (try? f.read(bytes)) != nil { accepted += 1 }
        }
        #expect(accepted < 6000, "damage is noticed")
    }
}
