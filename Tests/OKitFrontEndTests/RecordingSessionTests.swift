import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// The Record bar's ways out and its tabs (issue 40, web.md "Development mode"): Stop ends a recording without
/// saving anything; the tabs of one browser session share its recording (each page shows the session's bar, a
/// command from either is recorded once, in order, and a form from an outdated page records nothing); a session
/// that goes while it records writes nothing and leaves no copy of the data, and the next Record starts fresh;
/// Save never takes a name whose test or data exists.
@Suite struct RecordingSessionTests {
    /// A reading list in a file model, seeded with Dune.
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string" })
    okit.entity("Shelf", { books = "[Book]" })
    okit.model("Shelf", { seed = function(root) root.books:append(okit.new("Book", { name = "Dune" })) end })
    okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Reading List", cell = { path = "name" },
      addName = "name" })
    okit.app { id = "shelf", home = "books" }
    """

    /// The app served in development mode on `<folder>/data`, with Emma added (so a recording starts from stored
    /// data and holds a copy of it); the browser that added her.
    static func serve() async throws -> (WebApp, URL, Browser) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-tabs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let appFile = folder.appendingPathComponent("app.lua"), data = folder.appendingPathComponent("data")
        try app.write(to: appFile, atomically: true, encoding: .utf8)
        var options = ServeOptions()
        options.dev = DevOptions(app: appFile, dataFolder: data, dataStartedFresh: true)
        let web = WebApp(options: options)
        try await web.load {
            var o = LuaAppOptions()
            o.dataFolder = data
            o.print = { _ in }
            // The app's clock stands still: a slow machine's pause between two tabs' commands (63 s under the
            // sanitizers) is no `advance` in the recording.
            o.virtualNow = Date(timeIntervalSince1970: 1_764_000_000)
            let app = try LuaApp(options: o)
            try app.load(appFile: appFile)
            return WebHostedApp(session: app.session, owner: app)
        }
        let b = Browser(web)
        _ = await b.command(from: "/books", [("command", "add")])
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Emma")])
        return (web, folder, b)
    }

    /// Posts to a `/dev/` route from the page at `path` (its CSRF token and version).
    static func dev(_ b: Browser, _ route: String, from path: String, _ fields: [(name: String, value: String)]) async {
        _ = await b.get(path)
        _ = await b.web.handle(WebRequest(method: "POST", path: route, form: [("csrf", b.attribute("data-csrf")), ("v", b.attribute("data-version"))] + fields,
                                          sessionCookie: b.cookie))
    }

    @Test func stopEndsTheRecordingWritingNothingAndTheNextRecordStartsFresh() async throws {
        let (web, folder, b) = try await RecordingSessionTests.serve()
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        let copy = try #require(await web.recordingCopy(b.cookie))
        #expect(FileManager.default.fileExists(atPath: copy.path))
        _ = await b.command(from: "/books", [("command", "add")])
        _ = await b.get("/books")
        #expect(b.page.contains("Recording: 1 line"))
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "stop")])
        _ = await b.get("/books")
        #expect(b.page.contains("Recording stopped; nothing was saved.") && b.page.contains(">Record</button>"))
        #expect(!b.page.contains("okit-recording"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tests").path))
        #expect(!FileManager.default.fileExists(atPath: copy.path), "the copy of the data is removed")
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.get("/books")
        #expect(b.page.contains("Recording: 0 lines"))
    }

    @Test func twoTabsShareTheRecordingAndEachCommandIsRecordedOnceInOrder() async throws {
        let (_, folder, b) = try await RecordingSessionTests.serve()
        _ = await b.get("/books")
        let secondsFirstPage = b.page                       // the second tab, open before Record
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        // The second tab's Record (its page still shows Record) does not start another recording.
        _ = await b.web.handle(WebRequest(method: "POST", path: "/dev/record", form: [
            ("csrf", Browser.attribute("data-csrf", in: secondsFirstPage)), ("do", "start")], sessionCookie: b.cookie))
        _ = await b.get("/books")
        #expect(b.page.contains("This page is recording already.") && b.page.contains("Recording: 0 lines"))
        // The first tab adds a book; the second tab, reloaded, shows the same bar with that line.
        let secondsPage = b.page
        _ = await b.command(from: "/books", [("command", "add")])
        _ = await b.get("/books")
        #expect(b.page.contains("Recording: 1 line") && b.page.contains("app:add()"))
        // A post from the second tab's page as it was before (not reloaded) changes and records nothing.
        _ = await b.web.handle(WebRequest(method: "POST", path: "/command", form: [
            ("csrf", Browser.attribute("data-csrf", in: secondsPage)), ("v", Browser.attribute("data-version", in: secondsPage)),
            ("at", "/books"), ("command", "tap"), ("row", "1")], sessionCookie: b.cookie))
        _ = await b.get("/books")
        #expect(b.page.contains("This page was out of date") && b.page.contains("Recording: 1 line"))
        // The second tab, reloaded, answers the prompt; the first saves.
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Dune Messiah")])
        await RecordingSessionTests.dev(b, "/dev/save", from: "/books", [("name", "tabs")])
        let text = try String(contentsOf: folder.appendingPathComponent("tests/tabs_test.lua"), encoding: .utf8)
        #expect(text.contains("""
            app:add()
            app:respond("OK", { "Dune Messiah" })
          end)
        """), "\(text)")
        #expect(!text.contains("app:tap"))
        // Save from a tab whose page still shows a recording that the other tab stopped: nothing is written.
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.get("/books")
        let recordingPage = b.page
        #expect(recordingPage.contains("okit-record-save"))
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "stop")])
        _ = await b.web.handle(WebRequest(method: "POST", path: "/dev/save", form: [
            ("csrf", Browser.attribute("data-csrf", in: recordingPage)), ("name", "late")], sessionCookie: b.cookie))
        _ = await b.get("/books")
        #expect(b.page.contains("Nothing is being recorded: press Record first.") && b.page.contains(">Record</button>"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tests/late_test.lua").path))
    }

    @Test func aSessionGoneWhileRecordingWritesNothingAndTheNextRecordStartsFresh() async throws {
        let (web, folder, b) = try await RecordingSessionTests.serve()
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.command(from: "/books", [("command", "add")])
        let copy = try #require(await web.recordingCopy(b.cookie))
        // The session goes (its tabs closed long ago: dropped as idle, as the sweep does).
        await web.dropSession(b.cookie)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tests").path))
        #expect(!FileManager.default.fileExists(atPath: copy.path), "the copy of the data is removed with the session")
        // The same browser comes back: a new session, not recording; Record starts a new recording.
        _ = await b.get("/books")
        #expect(b.page.contains(">Record</button>") && !b.page.contains("okit-recording"))
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.get("/books")
        #expect(b.page.contains("Recording: 0 lines"))
        #expect(await web.recordingCopy(b.cookie).map { FileManager.default.fileExists(atPath: $0.path) } == true)
    }

    @Test func saveNeverTakesANameWhoseDataExistsAndKeepsTheDataForAnotherName() async throws {
        let (_, folder, b) = try await RecordingSessionTests.serve()
        let leftover = folder.appendingPathComponent("tests/stored_data", isDirectory: true)
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: true)
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.command(from: "/books", [("command", "add")])
        await RecordingSessionTests.dev(b, "/dev/save", from: "/books", [("name", "stored")])
        _ = await b.get("/books")
        #expect(b.page.contains("Not saved:") && b.page.contains("stored_data exists") && b.page.contains("okit-recording"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: leftover.path).isEmpty, "the folder there is left as it was")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tests/stored_test.lua").path))
        await RecordingSessionTests.dev(b, "/dev/save", from: "/books", [("name", "stored2")])
        let fixture = folder.appendingPathComponent("tests/stored2_data/default.json")
        #expect(try String(contentsOf: fixture, encoding: .utf8).contains("\"Emma\""))
        #expect(try String(contentsOf: folder.appendingPathComponent("tests/stored2_test.lua"), encoding: .utf8)
            .contains("fixtures = \"stored2_data\""))
    }
}

extension WebApp {
    /// The temporary copy of the data the session with this cookie records from (nil: none, or not recording).
    func recordingCopy(_ cookie: String?) -> URL? {
        cookie.flatMap { sessions[$0] }?.recording?.recorder.start.fixtures
    }

    /// Drops the session with this cookie as the idle sweep does (`drop`).
    func dropSession(_ cookie: String?) {
        if let ws = cookie.flatMap({ sessions[$0] }) { drop(ws) }
    }
}

extension Browser {
    /// An attribute's value in a page read earlier.
    static func attribute(_ name: String, in page: String) -> String {
        guard let r = page.range(of: name + "=\"") else { return "" }
        return String(page[r.upperBound...].prefix { $0 != "\"" })
    }
}
