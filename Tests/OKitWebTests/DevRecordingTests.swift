import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Development mode's recording (web.md "Development mode", issue 40 item 1): refused off loopback, the Record bar,
/// commands and row links recorded as a flow test, assertions checked against the session's snapshot, Save
/// refusing an existing file, and the CSRF token required on every `/dev/` post.
@Suite struct DevRecordingTests {
    typealias Browser = WebAppTests.Browser

    /// The test app of `WebAppTests` in development mode, its `app.lua` in a new temporary folder.
    static func serve(_ options: ServeOptions = .unhurried) async throws -> (WebApp, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-dev-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var options = options
        options.dev = DevOptions(app: folder.appendingPathComponent("app.lua"), dataFolder: nil, dataStartedFresh: true)
        // The app's clock is virtual: under the sanitizers a minute passed between two commands and the recording
        // wrote an `app:advance(65)` the test did not expect.
        return (try await WebAppTests.serve(options, virtualNow: Date(timeIntervalSince1970: 1_764_000_000)), folder)
    }

    /// Posts to a `/dev/` route from the page at `path` (its CSRF token and version).
    static func dev(_ b: Browser, _ route: String, from path: String, _ fields: [(name: String, value: String)]) async -> WebResponse {
        let html = await b.page(path)
        return await b.post(route, [("csrf", Browser.attribute("data-csrf", html)), ("v", Browser.attribute("data-version", html))] + fields)
    }

    /// The href of the first row link on the page.
    static func rowLink(_ html: String) -> String {
        guard let r = html.range(of: "<a href=\"/books/book~") else { return "" }
        return "/books/book~" + String(html[r.upperBound...].prefix { $0 != "\"" })
    }

    @Test func developmentModeIsRefusedOffLoopbackWithATokenOrAnotherHostName() async throws {
        #expect(DevOptions.refusal(host: "127.0.0.1", token: false, allowedHosts: []) == nil)
        #expect(DevOptions.refusal(host: "127.2.3.4", token: false, allowedHosts: []) == nil)
        // A name that starts like a loopback address is whatever a resolver says: refused, as is `--host` without
        // a token (it listened on 0.0.0.0 where /etc/hosts or DNS said so).
        for name in ["127.evil.example", "127.0.0.1.nip.io", "127.0.0.1evil", "127.foo", "127.1"] {
            #expect(DevOptions.refusal(host: name, token: false, allowedHosts: [])?.contains("loopback only") == true, "\(name)")
            #expect(!ServeOptions.isLoopback(name), "\(name)")
        }
        #expect(ServeOptions.isLoopback("localhost") && ServeOptions.isLoopback("::1") && ServeOptions.isLoopback("127.0.0.1"))
        #expect(DevOptions.refusal(host: "0.0.0.0", token: false, allowedHosts: [])?.contains("loopback only") == true)
        #expect(DevOptions.refusal(host: "::1", token: true, allowedHosts: [])?.contains("--token-file") == true)
        #expect(DevOptions.refusal(host: "localhost", token: false, allowedHosts: ["dev.example"])?.contains("--allow-host dev.example") == true)
        // Asked for with a token anyway (not through the command line): no bar, no routes.
        var options = ServeOptions()
        options.token = "a-long-token"
        let (web, _) = try await DevRecordingTests.serve(options)
        let b = Browser(web)
        #expect(!(await b.page("/books")).contains("okit-record-bar"))
        #expect(await DevRecordingTests.dev(b, "/dev/record", from: "/books", [("do", "start")]).status == 404)
        // Without --dev there is no bar either.
        let plain = Browser(try await WebAppTests.serve())
        #expect(!(await plain.page("/books")).contains("okit-record-bar"))
        #expect(await plain.get("/static/okit-dev.js").status != 200)
    }

    @Test func everyDevPostNeedsTheCSRFToken() async throws {
        let (web, folder) = try await DevRecordingTests.serve()
        let b = Browser(web)
        _ = await b.page("/books")
        for (route, fields) in [("/dev/record", [("do", "start")]), ("/dev/assert", [("target", "title")]), ("/dev/save", [("name", "x")])] {
            let r = await b.post(route, [("csrf", "wrong"), ("v", "1")] + fields)
            #expect(r.status == 403, "\(route)")
        }
        #expect(!(await b.page("/books")).contains("okit-recording"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("tests").path))
    }

    /// A search typed on the page (a GET with `text`) is recorded as `app:search`, so an assertion made on the
    /// searched list holds when the test runs (it was left out, and the replay saw every row).
    @Test func aSearchOnThePageIsRecorded() async throws {
        let (web, folder) = try await DevRecordingTests.serve()
        let b = Browser(web)
        _ = await b.page("/books")
        _ = await DevRecordingTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        for name in ["Dune", "Emma"] {
            _ = await b.command(from: "/books", [("command", "add")])
            _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", name)])
        }
        #expect((await b.page("/books?text=Em")).contains(">Emma<"))
        _ = await b.page("/books?text=")
        _ = await DevRecordingTests.dev(b, "/dev/save", from: "/books", [("name", "searched")])
        let text = try String(contentsOf: folder.appendingPathComponent("tests/searched_test.lua"), encoding: .utf8)
        #expect(text.contains("app:search(\"Em\")") && text.contains("app:search(\"\""), "\(text)")
    }

    @Test func recordedCommandsAndARowLinkAreSavedAsAFlowTest() async throws {
        let (web, folder) = try await DevRecordingTests.serve()
        let b = Browser(web)
        #expect((await b.page("/books")).contains(">Record</button>"))
        #expect(await DevRecordingTests.dev(b, "/dev/record", from: "/books", [("do", "start")]).status == 303)
        #expect((await b.page("/books")).contains("Recording: 0 lines"))
        _ = await b.command(from: "/books", [("command", "add")])
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Dune")])
        let link = DevRecordingTests.rowLink(await b.page("/books"))
        #expect(await b.get(link).status == 200)           // the row's link: recorded as a tap of its row
        let back = await b.get("/books")                   // Back: recorded as back
        #expect(back.status == 200)
        #expect((await b.page("/books")).contains("Recording: 6 lines"))
        let r = await DevRecordingTests.dev(b, "/dev/save", from: "/books", [("name", "web")])
        #expect(r.status == 303)
        let page = await b.page("/books")
        #expect(page.contains("Saved tests/web_test.lua (6 lines)") && page.contains(">Record</button>"))
        let text = try String(contentsOf: folder.appendingPathComponent("tests/web_test.lua"), encoding: .utf8)
        #expect(text.contains("-- Recorded with okit-run serve --dev on "))
        #expect(text.contains("    local app = launch(\"../app.lua\""))
        #expect(text.contains("""
            app:add()
            app:respond("OK", { "Dune" })
            app:tap("Dune")
            assert.equal("Dune", app:screen().screen.title)
            app:back()
            assert.equal("Books", app:screen().screen.title)
          end)
        """))
    }

    @Test func anAssertionIsReadFromTheSnapshotOfThePageShown() async throws {
        let (web, folder) = try await DevRecordingTests.serve()
        let b = Browser(web)
        _ = await DevRecordingTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.command(from: "/books", [("command", "add")])
        _ = await b.command(from: "/books", [("command", "respond"), ("action", "1"), ("fields", "Emma")])
        _ = await DevRecordingTests.dev(b, "/dev/assert", from: "/books", [("target", "title")])
        _ = await DevRecordingTests.dev(b, "/dev/assert", from: "/books", [("target", "row"), ("section", "1"), ("row", "1"), ("part", "text")])
        // What the browser says it saw is never taken: a row that is not there is refused…
        _ = await DevRecordingTests.dev(b, "/dev/assert", from: "/books", [("target", "row"), ("section", "1"), ("row", "9"), ("text", "Forged")])
        #expect((await b.page("/books")).contains("That row is not on the screen any more"))
        // …and so is a page of another version.
        _ = await b.page("/books")
        _ = await b.post("/dev/assert", [("csrf", Browser.attribute("data-csrf", await b.page("/books"))), ("v", "0"), ("target", "title")])
        #expect((await b.page("/books")).contains("nothing was checked"))
        _ = await DevRecordingTests.dev(b, "/dev/save", from: "/books", [("name", "checks")])
        let text = try String(contentsOf: folder.appendingPathComponent("tests/checks_test.lua"), encoding: .utf8)
        #expect(text.contains("""
            app:respond("OK", { "Emma" })
            assert.equal("Books", app:screen().screen.title)
            assert.equal("Emma", app:screen().screen.sections[1].rows[1].text)
          end)
        """))
        #expect(!text.contains("Forged"))
    }

    @Test func anExistingTestIsNeverOverwrittenAndTheRecordingGoesOn() async throws {
        let (web, folder) = try await DevRecordingTests.serve()
        let tests = folder.appendingPathComponent("tests", isDirectory: true)
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try Data("-- mine\n".utf8).write(to: tests.appendingPathComponent("web_test.lua"))
        let b = Browser(web)
        _ = await DevRecordingTests.dev(b, "/dev/record", from: "/books", [("do", "start")])
        _ = await b.command(from: "/books", [("command", "add")])
        _ = await DevRecordingTests.dev(b, "/dev/save", from: "/books", [("name", "web")])
        let page = await b.page("/books")
        #expect(page.contains("Not saved: tests/web_test.lua exists; choose another name or delete it"))
        #expect(page.contains("okit-recording"))
        #expect(try String(contentsOf: tests.appendingPathComponent("web_test.lua"), encoding: .utf8) == "-- mine\n")
        _ = await DevRecordingTests.dev(b, "/dev/save", from: "/books", [("name", "../evil")])
        #expect((await b.page("/books")).contains("is not one"))
        _ = await DevRecordingTests.dev(b, "/dev/save", from: "/books", [("name", "web2")])
        #expect(FileManager.default.fileExists(atPath: tests.appendingPathComponent("web2_test.lua").path))
    }
}
