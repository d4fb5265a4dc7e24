import Foundation
import Testing
@testable import OKitEngine
import OKitLua
@testable import OKitWeb

/// A live reload that takes a person elsewhere (web.md "Live reload", found by an app author's probe): the page
/// refreshing itself from its old address is not a URL the person opened, text typed there and sent as the page
/// went is named in the notice, and a recording writes what a replay needs to be where the person was taken (the
/// saved test failed with `no cell "Dune"` or with an alert waiting).
@Suite struct LiveReloadMoveTests {
    @Test func aScreenGoneIsRecordedAsBackAndTheOldAddressIsNoURLOpened() async throws {
        let s = try await LiveReloadTests.serve()
        let b = Browser(s.web)
        await DevRecordingAsSeenTests.dev(b, "/dev/record", from: "/tasks", [("do", "start")])
        _ = await b.get("/tasks")
        let seeded = try #require(LiveReloadTests.rowLink(b, "Seeded"))
        _ = await b.get(seeded)
        try s.write(LiveReloadTests.app(detail: false))
        #expect(await s.web.reload(s.make))
        // The page's refresh from its old address: the place the session is at, with the reload's notice.
        let r = await b.get(seeded)
        #expect(r.headers.first { $0.name == "Location" }?.value == "/tasks")
        _ = await b.get("/tasks")
        #expect(b.page.contains("The screen “task” no longer exists after the reload; showing “Tasks”."))
        await DevRecordingAsSeenTests.dev(b, "/dev/save", from: "/tasks", [("name", "moved")])
        let text = try String(contentsOf: s.folder.appendingPathComponent("tests/moved_test.lua"), encoding: .utf8)
        #expect(text.contains("""
            -- the app reloaded here and “task” was gone: the person was taken to “Tasks”
            app:back()
            assert.equal("Tasks", app:screen().screen.title)
        """), "\(text)")
        #expect(!text.contains("by its URL"), "\(text)")
    }

    @Test func textTypedOnThePageTheReloadLeftIsNamedInTheNotice() async throws {
        let s = try await LiveReloadTests.serve()
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        let seeded = try #require(LiveReloadTests.rowLink(b, "Seeded"))
        _ = await b.get(seeded)
        let form = [("csrf", b.attribute("data-csrf")), ("v", b.attribute("data-version")), ("at", seeded),
                    ("command", "set"), ("cell", "Title"), ("value", "half typed")]
        try s.write(LiveReloadTests.app(detail: false))
        #expect(await s.web.reload(s.make))
        _ = await b.get(seeded)                                // the refresh shows the notice …
        // … and the field, gone with the page, sends its text: not stored, named.
        let r = await s.web.handle(WebRequest(method: "POST", path: "/command", form: form, sessionCookie: b.cookie))
        #expect(r.headers.first { $0.name == "Location" }?.value == "/tasks")
        _ = await b.get("/tasks")
        #expect(b.page.contains("The screen “task” no longer exists after the reload; showing “Tasks”."), "\(b.page)")
        #expect(b.page.contains("Title: &quot;half typed&quot;") || b.page.contains("Title: \"half typed\""), "\(b.page)")
        #expect(!b.page.contains(">half typed<"), "nothing was stored")
    }

    @Test func aDialogTheReloadClosedIsAnsweredAsClosingItDoes() {
        let words = BuiltInWords(language: "en")
        let here = ShellLocation(tab: nil, stack: [.init(screen: "tasks", entity: nil)])
        let alert = AlertSnapshot(kind: "alert", title: "Note", message: nil, actions: ["OK", "Cancel"])
        #expect(ReloadMove.lines(from: here, to: here, lost: nil, title: "Tasks", closed: alert, words: words)
            == ["-- the app reloaded here and closed “Note”; a test answers it as closing it does:", "app:respond(\"Cancel\")"])
        let german = AlertSnapshot(kind: "alert", title: "Hinweis", message: nil, actions: ["OK", "Nein"])
        #expect(ReloadMove.lines(from: here, to: here, lost: nil, title: nil, closed: german,
                                 words: BuiltInWords(language: "de")).last == "app:respond(\"Nein\")")
        let open = AlertSnapshot(kind: "alert", title: "Pick", message: nil, actions: ["Red", "Blue"])
        #expect(ReloadMove.lines(from: here, to: here, lost: nil, title: nil, closed: open, words: words).first?
            .contains("which no action dismisses") == true)
        #expect(ReloadMove.lines(from: here, to: here, lost: nil, title: nil, closed: nil, words: words).isEmpty)
    }
}
