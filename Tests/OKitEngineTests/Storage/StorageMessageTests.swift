import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Storage error messages stay one or two short lines whatever the file holds (quality.md "Errors"), and
/// files written by other tools read back and are written as okit writes them.
@Suite struct StorageMessageTests {
    let f: ReaderFixture
    init() throws { f = try ReaderFixture() }

    /// The lines of an error's description, each checked to be short and free of raw control characters.
    func lines(_ e: StorageError, sourceLocation: SourceLocation = #_sourceLocation) -> [Substring] {
        let lines = e.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 2, "\(e.description)", sourceLocation: sourceLocation)
        for line in lines {
            #expect(line.count < 400, "a line of \(line.count) characters", sourceLocation: sourceLocation)
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) },
                    "a raw control character in \(line.debugDescription)", sourceLocation: sourceLocation)
        }
        return lines
    }

    @Test func deepPathsAreAbbreviated() throws {
        let deep = #"{"extra":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        let e = try #require(f.error(deep))
        #expect(e.message == "nesting deeper than 512")
        let path = try #require(e.jsonPath)
        #expect(path == "$.extra[0][0]…[0][0][0][0]", "the first and last segments around …")
        #expect(lines(e)[0].hasSuffix("nesting deeper than 512 at \(path) (byte \(e.offset ?? 0))"))
        let objects = #"{"extra":"# + String(repeating: #"{"a":"#, count: 1000) + "1" + String(repeating: "}", count: 1000) + "}"
        let o = try #require(f.error(objects))
        #expect(o.jsonPath == "$.extra.a.a….a.a.a.a")
        _ = lines(o)
        // Owned entities nested through the schema.
        let nodes = #"{"root":"# + String(repeating: #"{"child":"#, count: 600) + "null" + String(repeating: "}", count: 600) + "}"
        let n = try #require(f.error(nodes))
        #expect(n.jsonPath == "$.root.child.child….child.child.child.child")
        _ = lines(n)
        // A short path is whole.
        #expect(f.error(#"{"books":[{"scores":{"a":"x"}}]}"#)?.jsonPath == "$.books[0].scores.a")
    }

    @Test func pathsAreCappedInLength() {
        let long = String(repeating: "k", count: 60)
        let segments = (0..<9).map { _ in JSONPathLocator.segment(long) }
        let path = JSONPathLocator.render(segments)
        #expect(path.count <= JSONPathLocator.maxLength)
        #expect(path.hasPrefix("$") && path.contains("…") && path.hasSuffix(segments.last!))
        #expect(JSONPathLocator.render([".a", "[1]", ".b"]) == "$.a[1].b")
        #expect(JSONPathLocator.render([]) == "$")
        #expect(JSONPathLocator.segment(long) == "[\"" + String(repeating: "k", count: 39) + "…\"]", "a long key is cut")
    }

    @Test func keysInPathsAreEscaped() throws {
        // A raw newline in a key (itself the error) is shown escaped.
        let raw = try #require(f.error("{\"books\":[{\"id\":\"B\",\"bro\nken\":1}]}"))
        #expect(raw.message == "control character in a string")
        #expect(raw.jsonPath == #"$.books[0]["bro\nken"]"#)
        #expect(lines(raw).count == 2)
        // Escapes in the file are resolved, then shown the JSON way.
        let cases: [(String, String)] = [
            (#""a\u0007b""#, #"$.books[0].scores["a\u0007b"]"#),
            (#""say \"hi\"""#, #"$.books[0].scores["say \"hi\""]"#),
            (#""back\\slash""#, #"$.books[0].scores["back\\slash"]"#),
            (#""tab\there""#, #"$.books[0].scores["tab\there"]"#),
            (#""n\u00e9e""#, "$.books[0].scores.née"),
            (#""\ud83d\ude00 x""#, #"$.books[0].scores["😀 x"]"#),
            (#""rtl\u202eevil""#, #"$.books[0].scores["rtl\u202eevil"]"#),
            (#""c1\u009b31m""#, #"$.books[0].scores["c1\u009b31m"]"#),
        ]
        for (key, path) in cases {
            let e = try #require(f.error(#"{"books":[{"scores":{"# + key + #":"x"}}]}"#), "\(key)")
            #expect(e.message == "expected an int" && e.jsonPath == path, "\(key)")
            _ = lines(e)
        }
        // A huge key is cut.
        let huge = try #require(f.error(#"{"books":[{"scores":{""# + String(repeating: "\\n", count: 5000) + #"":"x"}}]}"#))
        #expect((huge.jsonPath ?? "").count < JSONPathLocator.maxLength)
        _ = lines(huge)
    }

    @Test func httpMessagesUseTheSamePaths() throws {
        let bytes = Array(#"{"books":[{"scores":{"a\nb":"x"}}]}"#.utf8)
        var failure: JSONReader.Failure?
        bytes.withUnsafeBufferPointer { buf in
            var r = JSONReader(bytes: buf, engine: f.engine)
            do { _ = try r.root(f.libType) } catch let x as JSONReader.Failure { failure = x } catch {}
        }
        let e = HTTPStorage.describe(try #require(failure), bytes: bytes, source: "http://127.0.0.1/lib", rootType: f.libType,
                                     advice: "it is left as it is")
        #expect(e.description.contains(#"($.books[0].scores["a\nb"])"#))
        _ = lines(e)
    }

    // MARK: Files written by other tools

    /// A storage on `folder` with the reader fixture's schema; `lib` registered from `text`.
    func load(_ folder: TempFolder, _ bytes: [UInt8]) throws -> (ReaderFixture, Model) {
        try FileManager.default.createDirectory(at: folder.modelsFolder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.file("lib.json"))
        let g = try ReaderFixture()
        let storage = try FileStorage(dataFolder: folder.url)
        let model = try g.engine.register(model: "lib", type: "Lib", storage: storage)
        return (g, model)
    }

    @Test func aFileWithAByteOrderMarkLoadsAndIsWrittenWithout() throws {
        let folder = try TempFolder()
        let (g, model) = try load(folder, [0xEF, 0xBB, 0xBF] + Array(#"{"okit":{"version":1,"type":"Lib"},"name":"Windows","books":[]}"#.utf8))
        #expect(model.root["name"]!.isSame(as: .string("Windows")))
        try g.engine.set(model.root, "name", .string("Stored"))
        g.engine.markWholeDirty(model)
        try g.engine.store(model)
        let written = try [UInt8](Data(contentsOf: folder.file("lib.json")))
        #expect(written.first == 0x7B, "never written with a byte order mark")
        #expect(String(decoding: written, as: UTF8.self).contains(#""name":"Stored""#))
    }

    @Test func aBrokenFileWithAByteOrderMarkNamesTheRightPlace() throws {
        let folder = try TempFolder()
        #expect {
            _ = try load(folder, [0xEF, 0xBB, 0xBF] + Array("{\"name\":\"L\",\n \"books\":{}}".utf8))
        } throws: { error in
            guard let e = error as? StorageError else { return false }
            return e.line == 2 && e.column == 10 && e.jsonPath == "$.books" && e.offset == 25
                && e.description.hasPrefix(folder.file("lib.json").path + ":2:10: expected an array at $.books (byte 25)")
        }
    }

    @Test func inlineDataWithoutASizeIsStoredWithItsSize() throws {
        let folder = try TempFolder()
        let (g, model) = try load(folder, Array(#"""
        {"okit":{"version":1,"type":"Lib"},"name":"L","books":[
          {"id":"B1","blob":{"id":"L1","format":"text/plain","label":"hello","data":"aGVsbG8="}},
          {"id":"B2","blob":{"id":"L2","format":"text/plain","label":"wrong","size":0,"data":"aGVsbA=="}}]}
        """#.utf8))
        let books = try #require(model.root["books"]?.elements)
        let meta = try #require(books[0].entity?["blob"]?.entity)
        #expect(meta["size"]!.isSame(as: .int(5)), "bindings see the size of the bytes")
        #expect(try g.engine.readBytes(meta) == Array("hello".utf8))
        g.engine.markWholeDirty(model)
        try g.engine.store(model)
        let text = try #require(folder.read("lib.json"))
        #expect(text.contains(#""blob":{"id":"L1","format":"text/plain","label":"hello","size":5,"data":"aGVsbG8="}"#), "\(text)")
        #expect(text.contains(#""label":"wrong","size":4,"data":"aGVsbA=="}"#), "\(text)")
    }

    @Test func theWrittenSizeFollowsTheDataHoweverItWasSet() throws {
        let engine = f.engine
        let meta = try engine.make(f.schema.inlineDataType, [:])
        try engine.set(meta, "data", .string("aGVsbG8="))   // bytes set without writeBytes: size still 0 in memory
        let json = String(decoding: JSONWriter.entityJSON(meta), as: UTF8.self)
        #expect(json.contains(#""size":5"#), "\(json)")
        try engine.set(meta, "data", .string("not base64"))
        try engine.set(meta, "size", .int(7))
        #expect(String(decoding: JSONWriter.entityJSON(meta), as: UTF8.self).contains(#""size":7"#), "undecodable data: kept")
    }
}

/// Values from input never make formatting trap or messages sprawl.
@Suite struct ExtremeValueTests {
    @Test func datesFarOutOfRangeFormatWithoutTrapping() {
        for s in [1e300, -1e300, Double.nan, 9.3e18, -9.3e18, Double.infinity] {
            let text = ISODate.format(Date(timeIntervalSince1970: s))
            #expect(text.hasSuffix("Z") && text.count < 40, "\(s): \(text)")
        }
        #expect(ISODate.format(Date(timeIntervalSince1970: 1_556_704_800)) == "2019-05-01T10:00:00Z")
    }

    @Test func aLongBindingIsShownAroundTheColumn() {
        let long = String(repeating: "a/", count: 300) + "b[0"
        let e = BindingError(binding: long, column: long.count, message: "expected \"]\"")
        #expect(e.description.count < 200, "\(e.description.count)")
        #expect(e.description.hasPrefix("binding \"…") && e.description.contains("b[0\": expected \"]\" at column \(long.count)"))
        let short = BindingError(binding: "books[0/name", column: 8, message: "expected \"]\"")
        #expect(short.description == "binding \"books[0/name\": expected \"]\" at column 8")
    }
}
