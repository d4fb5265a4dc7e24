import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitLua

/// Issue 13, hole 16: `{"cmd":"open","id":"book","context":"<an existing id>"}` failed with `binding "3A66…":
/// unexpected "3" at column 1`. The context of `open` and `present` is an entity id (a UUID or a code) when an
/// entity has that id, else a binding; a text that is neither says so.
@Suite struct OpenByIdTests {
    @Test func openAndPresentTakeAnIdFromLua() throws {
        let (_, app) = try LuaAppObjectTests().launch()
        try app.run("""
        local s = app:open("book", "EMMA"); assert(s.screen.id == "book" and s.screen.subtitle == "Emma", s.screen.subtitle)
        s = app:back()
        s = app:present("book", "DUNE"); assert(s.app.presented and s.screen.subtitle == "Dune", s.screen.subtitle)
        s = app:close()
        local ok, err = pcall(function() return app:open("book", "3A66-NOT-AN-ID") end)
        assert(not ok and err:find("no entity has this id", 1, true), err)
        """)
    }

    @Test func openTakesAUUIDOverJSONLines() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-open-id-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua").path
        let data = dir.appendingPathComponent("data").path
        let input = dir.appendingPathComponent("in").path
        // A first session adds a book; its id is read from the stored model file, as a client would know it.
        try (#"{"cmd":"add","text":"Opened By Id"}"# + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let first = try OKitRun.run([app, "--data", data, "--json", "--clock", "virtual"], stdin: .file(input))
        #expect(first.code == 0)
        let model = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/okit/data/default.json"))) as? [String: Any]
        let books = model?["books"] as? [[String: Any]] ?? []
        let id = try #require(books.first { $0["name"] as? String == "Opened By Id" }?["id"] as? String, "the new book's id")
        #expect(id.count == 36, "a UUID: \(id)")
        let commands = [#"{"cmd":"open","id":"book","context":"\#(id)"}"#, #"{"cmd":"back"}"#,
                        #"{"cmd":"present","id":"book","context":"\#(id)"}"#]
        try (commands.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let second = try OKitRun.run([app, "--data", data, "--json", "--clock", "virtual"], stdin: .file(input))
        let answers = second.out.split(separator: "\n").map(String.init)
        #expect(answers.count == 3)
        #expect(answers.first?.contains(#""subtitle":"Opened By Id""#) == true, "\(answers.first ?? "")")
        #expect(answers.last?.contains(#""subtitle":"Opened By Id""#) == true && answers.last?.contains(#""presented":true"#) == true,
                "\(answers.last ?? "")")
    }
}
