import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// What a live reload keeps of each browser session besides its place (web.md "Live reload"): the edit mode of
/// every screen still there, the dialog open over the top screen (the add prompt is answered after the reload as
/// before it), and the notice of a screen that went in the app's language, also on the address the page's own
/// refresh fetches.
@Suite struct LiveReloadViewStateTests {
    typealias Reload = LiveReloadTests

    @Test func editModeStaysOnAcrossAReloadOfTheDetailAndTheList() async throws {
        let s = try await Reload.serve()
        let b = Browser(s.web), list = Browser(s.web)
        _ = await b.get("/tasks")
        let seeded = try #require(Reload.rowLink(b, "Seeded"))
        _ = await b.command(from: seeded, [("command", "edit"), ("on", "true")])
        _ = await list.command(from: "/tasks", [("command", "edit"), ("on", "true")])
        _ = await b.get(seeded)
        #expect(b.page.contains(">Done<") && !b.page.contains(">Edit<"), "\(b.page)")
        try s.write(Reload.app(title: "My Tasks"))
        #expect(await s.web.reload(s.make))
        _ = await b.get(seeded)
        #expect(b.page.contains(">Done<") && !b.page.contains(">Edit<"), "edit mode is kept: \(b.page)")
        _ = await list.get("/tasks")
        #expect(list.page.contains("My Tasks") && list.page.contains(">Done<"), "the list's edit mode too: \(list.page)")
    }

    @Test func anOpenAddPromptStaysOpenAndItsAnswerAfterTheReloadAddsTheRow() async throws {
        let s = try await Reload.serve()
        let b = Browser(s.web)
        _ = await b.command(from: "/tasks", [("command", "add")])
        _ = await b.get("/tasks")
        let dialog = b.attribute("name=\"dialog\" value")
        #expect(!dialog.isEmpty, "\(b.page)")
        let prompt = b.page
        try s.write(Reload.app(title: "My Tasks"))
        #expect(await s.web.reload(s.make))
        // The answer from the page shown before the reload (its dialog mark, its version).
        b.page = prompt
        _ = await b.web.handle(WebRequest(method: "POST", path: "/command", form: [
            ("csrf", b.attribute("data-csrf")), ("v", b.attribute("data-version")), ("at", "/tasks"),
            ("command", "respond"), ("dialog", dialog), ("action", "1"), ("fields", "Il Gattopardo"),
        ], sessionCookie: b.cookie))
        _ = await b.get("/tasks")
        #expect(b.page.contains(">Il Gattopardo<"), "\(b.page)")
        #expect(!b.page.contains("out of date"), "\(b.page)")
    }

    @Test func theRenamedScreensNoticeIsInTheAppsLanguageAlsoOnTheOldAddress() async throws {
        let italian = { (detail: String) in
            Reload.app().replacingOccurrences(of: "segue = \"task\"", with: "segue = \"\(detail)\"")
                .replacingOccurrences(of: "okit.detail(\"task\"", with: "okit.detail(\"\(detail)\"")
                .replacingOccurrences(of: "okit.app {", with: "okit.locale { language = \"it\" }\nokit.app {")
        }
        let s = try await Reload.serve(italian("libro"))
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        let seeded = try #require(Reload.rowLink(b, "Seeded"))
        #expect(await b.get(seeded).status == 200)
        try s.write(italian("scheda"))
        #expect(await s.web.reload(s.make))
        // The page refreshes itself from the address it shows: the old one.
        let old = await b.get(seeded)
        let location = try #require(old.headers.first { $0.name == "Location" }?.value)
        _ = await b.get(location)
        #expect(b.page.contains("La schermata «libro» non esiste più dopo il ricaricamento; viene mostrata «Tasks»."), "\(b.page)")
    }

    @Test func aRuntimeErrorsColumnIsTheVariableItNamesOnThePageAndOnStderr() async throws {
        let s = try await Reload.serve()
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        let broken = Reload.app() + "\nlocal colore = cfg.colore\n"
        let line = broken.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        try s.write(broken)
        #expect(await s.web.reload(s.make) == false)
        _ = await b.get("/tasks")
        #expect(b.page.contains("The app did not load: app.lua:\(line):16"), "\(b.page)")
        // What stderr shows: the message with the same column.
        let error = DevLoadError(message: "app.lua:\(line): attempt to index a nil value (global 'cfg')", appFolder: s.folder)
        #expect(error.located == "app.lua:\(line):16: attempt to index a nil value (global 'cfg')")
        // A field named: the field's own column, not a longer name that contains it.
        try "local subito = 1\nlocal x = subito + cfg.sub.name\n".write(to: s.appFile, atomically: true, encoding: .utf8)
        #expect(DevLoadError(message: "app.lua:2: attempt to index a nil value (field 'sub')", appFolder: s.folder).location == "app.lua:2:24")
        #expect(DevLoadError(message: "app.lua:2:5: x", appFolder: s.folder).located == "app.lua:2:5: x")
    }
}
