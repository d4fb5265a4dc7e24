import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// The Record bar's ways out and its tabs (issue 40, web.md "Development mode"): Stop ends a recording without
/// saving anything; the tabs of one browser session share its recording (each is told when it changes, and a
/// command from either is recorded once, in order); a session that goes while it records writes nothing and
/// leaves no copy of the data, and the next Record starts fresh; Save never takes a name whose test or data exists.
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

    /// A tab of the browser's session: its live update stream, past the greeting.
    static func tab(_ b: Browser) async throws -> AsyncStream<String>.Iterator {
        var it = try #require(await b.get("/events").events).makeAsyncIterator()
        _ = await it.next()
        return it
    }

    /// The tab's next event, or nil when none came in a generous while (so a missing push fails, never hangs).
    static func nextEvent(_ tab: AsyncStream<String>.Iterator) async -> String? {
        let box = UncheckedBox(tab)
        return await withTaskGroup(of: String?.self) { group in
            group.addTask { await box.next() }
            group.addTask { try? await Task.sleep(nanoseconds: 20_000_000_000); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
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
        let first = try await RecordingSessionTests.tab(b), second = try await RecordingSessionTests.tab(b)
        await RecordingSessionTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        #expect(await RecordingSessionTests.nextEvent(first)?.hasPrefix("event: stale") == true, "the other tab shows Record → Recording")
        #expect(await RecordingSessionTests.nextEvent(second)?.hasPrefix("event: stale") == true)
        // The first tab adds a book; the second is told, and its page shows the new line.
        let secondsPage = b.page
        let another = try await RecordingSessionTests.tab(b)
        _ = await b.command(from: "/books", [("command", "add")])
        #expect(await RecordingSessionTests.nextEvent(another)?.hasPrefix("event: stale") == true, "a command from one tab is pushed to the others")
        _ = await b.get("/books")
        #expect(b.page.contains("Recording: 1 line") && b.page.contains("app:add()"))
        // A post from the second tab's page as it was before (not reloaded) changes and records nothing.
        let stale = WebRequest(method: "POST", path: "/command", form: [
            ("csrf", Browser.attribute("data-csrf", in: secondsPage)), ("v", Browser.attribute("data-version", in: secondsPage)),
            ("at", "/books"), ("command", "tap"), ("row", "1")], sessionCookie: b.cookie)
        _ = await b.web.handle(stale)
        // The second tab, reloaded, answers the prompt; then the first tab saves.
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Dune Messiah")])
        await RecordingSessionTests.dev(b, "/dev/save", from: "/books", [("name", "tabs")])
        let text = try String(contentsOf: folder.appendingPathComponent("tests/tabs_test.lua"), encoding: .utf8)
        #expect(text.contains("""
            app:add()
            app:respond("OK", { "Dune Messiah" })
          end)
        """), "\(text)")
        #expect(!text.contains("app:tap"))
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

/// An async iterator handed to a child task: used by one task at a time (the test waits for it).
final class UncheckedBox: @unchecked Sendable {
    // @unchecked Sendable: the test's task and the one child task that calls `next()` never run it at once
    // (the test awaits the group before it touches the iterator again).
    var iterator: AsyncStream<String>.Iterator
    init(_ iterator: AsyncStream<String>.Iterator) { self.iterator = iterator }
    func next() async -> String? { await iterator.next() }
}
