import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// Recording from encrypted stored data (issue 40, web.md "Development mode"): the app keeps its model sealed with
/// the data folder's key (the key file, or a passphrase); a recording that starts from that data saves it beside
/// the test opened, in plain text, with no key file, says so, and the saved test passes under `okit-run test` as
/// it is (its own fresh data folder seals the data again with its own key).
@Suite struct EncryptedRecordingTests {
    /// A reading list kept `encrypted`, seeded with Dune.
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string" })
    okit.entity("Shelf", { books = "[Book]" })
    okit.model("Shelf", { storage = "encrypted", seed = function(root)
      root.books:append(okit.new("Book", { name = "Dune" }))
    end })
    okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Reading List", cell = { path = "name" },
      segue = "book", addName = "name" })
    okit.detail("book", { titlePath = "name" })
    okit.app { id = "shelf", home = "books" }
    """

    /// The app in a new temporary folder, served in development mode on `<folder>/data` (`passphrase`: the key
    /// derived from it, else the key file).
    static func serve(passphrase: String?) async throws -> (WebApp, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-sealed-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let appFile = folder.appendingPathComponent("app.lua"), data = folder.appendingPathComponent("data")
        try app.write(to: appFile, atomically: true, encoding: .utf8)
        var options = ServeOptions()
        options.dev = DevOptions(app: appFile, dataFolder: data, dataStartedFresh: true)
        let web = WebApp(options: options)
        try await web.load {
            var o = LuaAppOptions()
            o.dataFolder = data
            o.passphrase = passphrase
            o.print = { _ in }
            let app = try LuaApp(options: o)
            try app.load(appFile: appFile)
            return WebHostedApp(session: app.session, owner: app)
        }
        return (web, folder)
    }

    /// Posts to a `/dev/` route from the page at `path` (its CSRF token and version).
    static func dev(_ b: Browser, _ route: String, from path: String, _ fields: [(name: String, value: String)]) async {
        _ = await b.get(path)
        _ = await b.web.handle(WebRequest(method: "POST", path: route, form: [("csrf", b.attribute("data-csrf")), ("v", b.attribute("data-version"))] + fields,
                                          sessionCookie: b.cookie))
    }

    /// Runs the test files of `folder` as `okit-run test` does; (passed, failed) and the TAP lines.
    static func runTests(in folder: URL) throws -> (passed: Int, failed: Int, lines: [String]) {
        var options = FlowTestOptions()
        options.scratch = folder.appendingPathComponent("scratch", isDirectory: true)
        options.print = { _ in }
        let runner = FlowTestRunner(options: options)
        var lines: [String] = []
        let totals = runner.run(try FlowTestRunner.discover([], root: folder), root: folder) { lines.append($0) }
        return (totals.0, totals.1, lines)
    }

    @Test(arguments: [nil, "correct horse"])
    func aRecordingFromEncryptedDataSavesItInPlainTextAndTheTestPasses(passphrase: String?) async throws {
        let (web, folder) = try await EncryptedRecordingTests.serve(passphrase: passphrase)
        let b = Browser(web)
        _ = await b.command(from: "/books", [("command", "add")])
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Emma")])
        let stored = try Data(contentsOf: folder.appendingPathComponent("data/okit/data/default.json"))
        #expect(stored.starts(with: Array("OKITENC1".utf8)), "the app keeps its data sealed")

        await EncryptedRecordingTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.get("/books")
        #expect(b.page.contains("encrypted data is saved beside the test in plain text"))
        _ = await b.command(from: "/books", [("command", "delete"), ("row", "1")])
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1")])
        await EncryptedRecordingTests.dev(b, "/dev/assert", from: "/books", [("target", "row"), ("section", "1"), ("row", "1"), ("part", "text")])
        await EncryptedRecordingTests.dev(b, "/dev/save", from: "/books", [("name", "sealed")])
        _ = await b.get("/books")
        #expect(b.page.contains("Saved tests/sealed_test.lua"))
        #expect(b.page.contains("tests/sealed_data/ holds the app&#39;s encrypted data in plain text")
                || b.page.contains("tests/sealed_data/ holds the app's encrypted data in plain text"))

        let tests = folder.appendingPathComponent("tests", isDirectory: true)
        let text = try String(contentsOf: tests.appendingPathComponent("sealed_test.lua"), encoding: .utf8)
        #expect(text.contains("-- sealed_data/ holds the app's encrypted data in plain text (no key is copied)"))
        #expect(text.contains("fixtures = \"sealed_data\""))
        #expect(text.contains("assert.equal(\"Dune\", app:screen().screen.sections[1].rows[1].text)"))
        // The fixture is the model's JSON, opened; no key material and no list of the recording's lands in tests/.
        let fixture = try Data(contentsOf: tests.appendingPathComponent("sealed_data/default.json"))
        #expect(!fixture.starts(with: Array("OKITENC1".utf8)))
        #expect(String(decoding: fixture, as: UTF8.self).contains("\"Emma\""))
        let saved = FileManager.default.enumerator(atPath: tests.path)?.allObjects as? [String] ?? []
        #expect(saved.sorted() == ["sealed_data", "sealed_data/default.json", "sealed_test.lua"], "\(saved)")

        let run = try EncryptedRecordingTests.runTests(in: folder)
        #expect(run.passed == 1 && run.failed == 0, "\(run.lines.joined(separator: "\n"))\n\(text)")
    }

    @Test func aSealedFileNoKeyOpensIsRefusedNamingIt() throws {
        let temporary = FileManager.default.temporaryDirectory
        let data = temporary.appendingPathComponent("okit-sealed-\(UUID().uuidString)", isDirectory: true)
        let models = URL(fileURLWithPath: DataFolder(data).models, isDirectory: true)
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        let strangersKey = try DataKeys.key(dataFolder: temporary.appendingPathComponent("okit-other-\(UUID().uuidString)"), passphrase: nil)
        try Data(try SealedFile.seal(Array("{}".utf8), key: strangersKey)).write(to: models.appendingPathComponent("default.json"))
        let error = #expect(throws: StorageError.self) { try FlowTestFixtures.capture(dataFolder: data, passphrase: nil) }
        // The folder has no key of its own: none is made for it (a new key would not open the file, storage.md).
        #expect(error?.description.contains("the key file okit/keys/data.key is missing, but \(models.path)/default.json is sealed") == true,
                "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: DataFolder(data).keyFile))
    }
}
