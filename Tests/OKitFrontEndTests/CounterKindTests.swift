import Foundation
import Testing
import OKitTestSupport
import OKitLua
@testable import OKitEngine
@testable import OKitWeb
@testable import okit_run

/// A screen kind of its own (CounterKind/: one folder, registered once in the session's options) works in every
/// front end: its commands and its section of the snapshot over JSON lines (JSON and shell syntax), its lines in
/// the terminal and its commands in the terminal's help, its page and forms on the web. docs/engine.md "Where to
/// put a new screen kind" walks through it.
@Suite struct CounterKindTests {
    @Test func itsCommandsAndItsSectionGoOverJSONLines() throws {
        let lines = JSONLinesDriver(session: try Fixture.session())
        #expect(lines.handle(#"{"cmd":"bump","by":2}"#).0.contains(#""sections":[],"counter":{"value":2,"step":1},"help":null"#))
        #expect(lines.handle("bump 3").0.contains(#""counter":{"value":5,"step":1}"#))      // shell syntax
        #expect(lines.handle("reset").0.contains(#""counter":{"value":0,"step":1}"#))
        #expect(lines.handle(#"{"cmd":"bumpp"}"#).0 == #"{"ok":false,"error":"unknown command \"bumpp\" (did you mean \"bump\"?)"}"#)
        #expect(lines.handle(#"{"cmd":"tap","row":1}"#).0 == #"{"ok":false,"error":"tap is not a command of counter screens"}"#)
        #expect(lines.handle(#"{"cmd":"tab","id":"books"}"#).0.contains(#""kind":"list""#))
        #expect(lines.handle("bump").0 == #"{"ok":false,"error":"bump is not a command of list screens"}"#)
    }

    @Test func theTerminalDrawsItAndListsItsCommands() throws {
        let session = try Fixture.session(home: ["tally"])
        try session.driver.run("bump", ["by": .int(4)])
        let terminal = TerminalShell(session: session, color: false)
        #expect(terminal.render(try session.shell.snapshot()) == "Tally\n  = 4   (bump [BY] · reset)")
        #expect(terminal.help.contains("\nCounter:    bump [BY] · reset\nROW is a position"))
        #expect(!terminal.runCommand("bump", ["cmd": "bump", "by": 2]))
        #expect(try session.shell.snapshot().screen.section as? CounterSection == CounterSection(value: 6, step: 1))
    }

    @Test func theWebShowsItsPageAndRunsItsForms() async throws {
        let web = WebApp(options: ServeOptions())
        try await web.load { WebHostedApp(session: try Fixture.session(), owner: nil) }
        let browser = Browser(web)
        #expect(await browser.get("/").status == 303)
        _ = await browser.get("/tally")
        #expect(browser.page.contains(#"<p class="okit-counter">0</p>"#))
        #expect(browser.page.contains(#"<input type="hidden" name="command" value="bump">"#))
        let bumped = await browser.command(from: "/tally", [("command", "bump"), ("by", "1")])
        #expect(bumped.status == 303)
        _ = await browser.get("/tally")
        #expect(browser.page.contains(#"<p class="okit-counter">1</p>"#))
        #expect(!browser.page.contains("okit-error"))
    }

    @Test func luaDeclaresItAndDrivesIt() throws {
        let folder = try TempFolder()
        try folder.put("app.lua", """
            local okit = require "okit"
            okit.entity("Shop", { count = "int" })
            shop = okit.model("Shop")
            okit.counter("tally", { titlePath = "%Tally", valuePath = "count" })
            okit.app { id = "tally", home = "tally" }
            """)
        var options = LuaAppOptions()
        options.dataFolder = folder.url.appendingPathComponent("data")
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.print = { _ in }
        try options.screenKinds.register(.counter)
        let app = try LuaApp(options: options)
        try app.load(appFile: folder.url.appendingPathComponent("app.lua"))
        app.installAppGlobal()
        try app.run("""
            local s = app:bump(2)
            assert(s.screen.kind == "counter" and s.screen.title == "Tally", "the counter")
            assert(s.screen.counter.value == 2 and s.screen.counter.step == 1, "its section in the Lua table")
            assert(app:reset().screen.counter.value == 0 and shop.count == 0, "reset")
            local ok, err = pcall(app.tap, app, 1)
            assert(not ok and err:find("tap is not a command of counter screens", 1, true), err)
            ok, err = pcall(okit.counter, "other", { valuPath = "count" })
            assert(not ok and err:find('unknown property "valuPath"', 1, true), err)
            """)
    }

    @Test func aKindWhoseCommandClashesWithAnotherKindsIsRefused() {
        var kinds = ScreenKinds.builtIn
        let clash = ScreenKind(name: "clash", commands: [.on(CommandDescription("tap", [.text("what")])) { (_: CounterScreen, _) in }])
        #expect(throws: ScreenKindError.self) { try kinds.register(clash) }
        #expect(kinds["clash"] == nil)
    }

    @Test func aScreenOfAKindTheAppDoesNotKnowIsRefused() throws {
        let shell = AppShell(engine: Engine(schema: Schema()))
        #expect(throws: ShellError.self) { try shell.declare(CounterDeclaration(id: "tally")) }
    }
}
