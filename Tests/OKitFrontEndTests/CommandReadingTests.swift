import Foundation
import Testing
import OKitTestSupport
import OKitLua
@testable import OKitEngine
@testable import okit_run

/// How commands are read and answered (outside testers D and E): nothing typed or sent is ignored without a word —
/// a switch argument is read as a switch cell reads it, a field no command takes is said, every line gets one
/// answer, a malformed line says what and where — and a protected app's own `authenticate` decides.
@Suite struct CommandReadingTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Task", { title = "string", due = "date?", category = "string" })
    okit.entity("List", { tasks = "[Task]", protection = { "bool", default = %P }, minutes = { "int", default = 0 } })
    list = okit.model("List", { seed = function(root)
      for i = 1, 300 do root.tasks:append(okit.new("Task", { title = string.format("Task %03d", i), category = "Food" })) end
    end })
    okit.list("tasks", { type = "Task", dataPath = "tasks", titlePath = "%Tasks", cell = { path = "title" }, segue = "task",
      addName = "title" })
    okit.list("more", { type = "Task", dataPath = "tasks", titlePath = "%Book Shop", cell = { path = "title" } })
    okit.detail("task", { titlePath = "title", sections = { {
      okit.cell.text { path = "%Title", textPath = "title" },
      okit.cell.date { path = "%Due", datePath = "due" },
      okit.cell.picker { path = "%Category", selectionPath = "category", optionValues = "Food,Travel,Éclairs" },
    } } })
    okit.app { id = "tasks", home = { "tasks", "more" }, protection = "protection", protectionTimeout = "minutes" %@ }
    """

    static func launch(protected: Bool = true, authenticate: String = "", passphrase: String? = nil) throws -> (TempFolder, LuaApp, JSONLinesDriver) {
        let folder = try TempFolder()
        try folder.put("app.lua", app.replacingOccurrences(of: "%@", with: authenticate).replacingOccurrences(of: "%P", with: "\(protected)"))
        var options = LuaAppOptions()
        options.dataFolder = folder.url.appendingPathComponent("data")
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.print = { _ in }
        options.passphrase = passphrase
        let app = try LuaApp(options: options)
        try app.load(appFile: folder.url.appendingPathComponent("app.lua"))
        return (folder, app, JSONLinesDriver(session: app.session))
    }

    /// A Lua expression evaluated in the app.
    static func lua(_ app: LuaApp, _ expression: String) throws -> LuaValue { try app.lua.evaluate("return " + expression) }

    static func editing(_ lines: JSONLinesDriver) throws -> Bool {
        try #require(lines.session.shell.snapshot().screen.editing)
    }

    @Test func editReadsYesAndNoAsASwitchDoesAndRefusesAnythingElse() throws {
        let (folder, app, lines) = try Self.launch()
        defer { withExtendedLifetime((folder, app, lines)) {} }
        _ = lines.handle(#"{"cmd":"tap","row":1}"#)
        for (on, expected) in [(#""on""#, true), (#""off""#, false), (#"true"#, true), (#""no""#, false), (#""YES""#, true),
                               (#"0"#, false), (#"1"#, true)] {
            #expect(lines.handle(#"{"cmd":"edit","on":\#(on)}"#).0.hasPrefix(#"{"ok":true"#), "\(on)")
            #expect(try Self.editing(lines) == expected, "\(on)")
        }
        for bad in [#""banana""#, "null", "2", "[true]"] {
            let answer = lines.handle(#"{"cmd":"edit","on":\#(bad)}"#).0
            #expect(answer.hasPrefix(#"{"ok":false,"error":"edit: "#) && answer.contains("is neither on nor off"), "\(bad): \(answer)")
            #expect(try Self.editing(lines), "nothing done for \(bad)")
        }
        #expect(lines.handle("edit off").0.hasPrefix(#"{"ok":true"#))
        #expect(lines.handle("edit maybe").0.contains(#"edit: \"maybe\" is neither on nor off"#))
        #expect(try !Self.editing(lines))
    }

    /// A line whose bytes are no UTF-8 is refused with where (it was stored with U+FFFD in place of the bytes).
    @Test func aLineThatIsNoUTF8IsRefusedWithWhere() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes: [UInt8] = Array(#"{"cmd":"add","text":"ab"#.utf8) + [0xFF, 0xFE] + Array("cd\"}\n".utf8) + Array("é ok\n".utf8)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        defer { close(fds[0]) }
        let reader = LineReader(fd: fds[0])
        guard case .invalidUTF8(let at) = reader.next(deadline: nil) else { Issue.record("not refused"); return }
        #expect(at == 23)
        guard case .line(let text) = reader.next(deadline: nil) else { Issue.record("the next line was lost"); return }
        #expect(text == "é ok")
        #expect(LineReader.invalidUTF8Message(23).hasPrefix("malformed command: invalid UTF-8 at byte 23"))
    }

    @Test func everyLineIsAnsweredAndAMalformedOneSaysWhatAndWhere() throws {
        let (folder, app, lines) = try Self.launch()
        defer { withExtendedLifetime((folder, app, lines)) {} }
        #expect(lines.handle("").0 == #"{"ok":false,"error":"empty line: expected a command (e.g. {\"cmd\":\"screen\"}): nothing was done"}"#)
        #expect(lines.handle("   ").0.contains("empty line"))
        #expect(lines.handle(#"{"cmd":"add","text":"ok\ud800x"}"#).0.contains(#"malformed command: unpaired surrogate in \\u escape at byte"#))
        #expect(lines.handle(#"{"cmd":"add","text":}"#).0.contains("malformed command: "))
        #expect(lines.handle("exit").0.contains(#"unknown command \"exit\" (to end the session: quit)"#), "not \"did you mean edit\"")
        #expect(lines.handle("tap").0.contains("tap needs row"), "not no row \"\"")
        #expect(lines.handle(#"{"cmd":"tap","row":" "}"#).0.contains("tap needs row"))
        #expect(try Self.lua(app, "#list.tasks") == .int(300), "nothing was added")
    }

    @Test func aFieldNoCommandTakesIsSaidAndTheWindowIsCheckedAndAnswered() throws {
        let (folder, app, lines) = try Self.launch()
        defer { withExtendedLifetime((folder, app, lines)) {} }
        // Said in the answer's warnings (the run loop adds the warnings logged since the last answer); the command runs.
        #expect(lines.handle(#"{"cmd":"screen","ofset":3}"#).0.hasPrefix(#"{"ok":true"#), "the command runs without it")
        #expect(lines.warnings.fresh() == [#"screen: unknown field "ofset" (did you mean "offset"?; screen takes offset, limit): not read"#])
        #expect(lines.handle(#"{"cmd":"tap","row":1,"bogus":5}"#).0.hasPrefix(#"{"ok":true"#))
        #expect(lines.warnings.fresh() == [#"tap: unknown field "bogus" (tap takes row): not read"#])
        _ = lines.handle(#"{"cmd":"back"}"#)
        for bad in [#""offset":"a""#, #""offset":-5"#, #""limit":-3"#, #""offset":1.5"#, #""limit":true"#] {
            let answer = lines.handle(#"{"cmd":"screen",\#(bad)}"#).0
            #expect(answer.contains("must be a whole number ≥ 0"), "\(bad): \(answer)")
        }
        let whole = lines.handle(#"{"cmd":"screen"}"#).0
        #expect(whole.hasSuffix(#","window":{"offset":0,"limit":200}}"#) && whole.contains(#""rowCount":300"#))
        let window = lines.handle(#"{"cmd":"screen","offset":250,"limit":10}"#).0
        #expect(window.hasSuffix(#","window":{"offset":250,"limit":10}}"#) && window.contains("Task 251") && !window.contains("Task 261"))
        #expect(lines.handle("screen a b").0.contains("screen: offset must be a whole number ≥ 0"), "shell syntax: the words reach it")
    }

    @Test func theVersionIsAsked() throws {
        let (folder, app, lines) = try Self.launch()
        defer { withExtendedLifetime((folder, app, lines)) {} }
        #expect(lines.handle(#"{"cmd":"version"}"#).0 == #"{"ok":true,"okit":"0.1.0","protocol":1}"#)
        #expect(lines.handle(#"{"cmd":"commands"}"#).0.hasSuffix(#""warnings","commands","version"]}"#))
    }

    /// Covered past the timeout: only authenticate uncovers.
    static func covered(_ lines: JSONLinesDriver) -> Bool {
        _ = lines.handle(#"{"cmd":"background"}"#)
        return lines.session.shell.covered
    }

    @Test func authenticateWithNothingIsRefusedAndTheAppsFunctionDecides() throws {
        let (folder, app, lines) = try Self.launch(authenticate: ", authenticate = function() return ALLOW == true end")
        defer { withExtendedLifetime((folder, app, lines)) {} }
        #expect(Self.covered(lines))
        #expect(lines.handle(#"{"cmd":"authenticate"}"#).0.contains("authenticate needs ok (true or false) or passphrase"))
        #expect(lines.handle("authenticate").0.contains("authenticate needs ok"), "the shell syntax over JSON lines")
        #expect(lines.handle(#"{"cmd":"authenticate","ok":true}"#).0.contains("authentication failed"), "the function says no")
        #expect(lines.handle(#"{"cmd":"authenticate","passphrase":"x"}"#).0.contains("authentication failed"))
        #expect(lines.handle(#"{"cmd":"authenticate","ok":"banana"}"#).0.contains("is neither on nor off"))
        #expect(lines.session.shell.covered)
        try app.run("ALLOW = true")
        #expect(lines.handle(#"{"cmd":"authenticate","ok":false}"#).0.contains("authentication failed"))
        #expect(lines.handle(#"{"cmd":"authenticate","ok":true}"#).0.hasPrefix(#"{"ok":true"#))
        #expect(!lines.session.shell.covered)
    }

    @Test func authenticateWithNothingIsRefusedUnderAPassphrase() throws {
        let (folder, app, lines) = try Self.launch(passphrase: "open sesame")
        defer { withExtendedLifetime((folder, app, lines)) {} }
        #expect(Self.covered(lines))
        #expect(lines.handle(#"{"cmd":"authenticate"}"#).0.contains("authenticate needs ok"))
        #expect(lines.handle(#"{"cmd":"authenticate","passphrase":"wrong"}"#).0.contains("authentication failed"))
        #expect(lines.session.shell.covered)
        #expect(lines.handle(#"{"cmd":"authenticate","passphrase":"open sesame"}"#).0.hasPrefix(#"{"ok":true"#))
        #expect(!lines.session.shell.covered)
    }

    @Test func theTerminalsAuthenticateAsksTheAppsFunction() throws {
        let (folder, app, lines) = try Self.launch(authenticate: ", authenticate = function() return ALLOW == true end")
        defer { withExtendedLifetime((folder, app, lines)) {} }
        try app.session.background(app.shell)
        let terminal = TerminalShell(session: app.session, color: false)
        _ = terminal.runCommand("authenticate", CommandSyntax.command("authenticate")!)
        #expect(app.shell.covered, "the function says no")
        _ = terminal.runCommand("authenticate", CommandSyntax.command("authenticate fail")!)
        #expect(app.shell.covered)
        try app.run("ALLOW = true")
        _ = terminal.runCommand("authenticate", CommandSyntax.command("authenticate")!)
        #expect(!app.shell.covered)
    }

    /// The terminal's `quit` ends the shell only once the state is stored: a store that fails (a full disk) is
    /// said in red with what to do, and the shell stays; `quit!` is the way out without storing.
    @Test func theTerminalsQuitStaysWhenTheStoreFails() throws {
        let (folder, app, lines) = try Self.launch(protected: false)
        defer { withExtendedLifetime((folder, app, lines)) {} }
        var full = StorageError(kind: .io, path: "/d/okit/data/default.json", message: "cannot write: no space left on the disk")
        full.systemError = ENOSPC
        let failing = TerminalShell(session: app.session, color: false, quitStore: QuitStore { throw full })
        #expect(!failing.runCommand("quit", CommandSyntax.command("quit")!), "the shell stays")
        #expect(QuitStore.refusal(full, force: QuitStore.force) == "could not store the state (/d/okit/data/default.json: cannot write: no space left on the disk); "
            + "okit-run keeps running with the changes: free some space on the disk and quit again, or quit! to leave without storing them")
        let storing = TerminalShell(session: app.session, color: false, quitStore: QuitStore {})
        #expect(storing.runCommand("quit", CommandSyntax.command("quit")!))
        #expect(failing.help.contains("quit! (without storing)"))
    }

    @Test func aTabIsNamedByIdShownTitleOrPosition() throws {
        let (folder, app, lines) = try Self.launch(protected: false)
        defer { withExtendedLifetime((folder, app, lines)) {} }
        for (typed, tab) in [("tab more", "more"), ("tab Tasks", "tasks"), (#"tab "Book Shop""#, "more"), ("tab 1", "tasks"),
                             ("tab book shop", "more"), ("tab TASKS", "tasks"), ("tab 2", "more")] {
            #expect(lines.handle(typed).0.hasPrefix(#"{"ok":true"#), "\(typed)")
            #expect(try lines.session.shell.snapshot().app.tab == tab, "\(typed)")
        }
        #expect(lines.handle("tab 3").0 == #"{"ok":false,"error":"no tab \"3\" (tabs: 1 Tasks, 2 Book Shop)"}"#)
    }

    @Test func aPickerOptionMatchesCaseAndAccentsAsideWhenOneDoes() throws {
        let (folder, app, lines) = try Self.launch(protected: false)
        defer { withExtendedLifetime((folder, app, lines)) {} }
        _ = lines.handle("tap 1")
        _ = lines.handle("edit on")
        #expect(lines.handle("set category travel").0.hasPrefix(#"{"ok":true"#))
        #expect(try Self.lua(app, "list.tasks[1].category") == .string("Travel"))
        #expect(lines.handle("set category eclairs").0.hasPrefix(#"{"ok":true"#))
        #expect(try Self.lua(app, "list.tasks[1].category") == .string("Éclairs"))
        #expect(lines.handle("set category fod").0.contains("has no option"))
    }

    @Test func extraPromptFieldsAndFieldsThatAreNoTextsAreRefused() throws {
        let (folder, app, lines) = try Self.launch(protected: false)
        defer { withExtendedLifetime((folder, app, lines)) {} }
        _ = lines.handle("add")
        #expect(lines.handle("respond OK Alpha Beta Gamma").0.contains("respond: 3 fields given, but it has 1 (Title); quote a field"))
        #expect(lines.handle(#"{"cmd":"respond","action":"OK","fields":5}"#).0.contains("respond: fields must be a list of texts"))
        #expect(lines.handle(#"{"cmd":"respond","action":"OK","fields":[{"x":1}]}"#).0.contains("respond: fields must be a list of texts"))
        #expect(try Self.lua(app, "#list.tasks") == .int(300), "nothing was added")
        #expect(lines.handle(#"respond OK "Alpha Beta""#).0.hasPrefix(#"{"ok":true"#))
        #expect(try Self.lua(app, "#list.tasks") == .int(301))
    }

    @Test func advancePastTheClocksRangeIsRefusedAndTheFiringLimitIsAWarning() throws {
        let (folder, app, lines) = try Self.launch(protected: false)
        defer { withExtendedLifetime((folder, app, lines)) {} }
        let before = app.engine.clock.now
        let refused = lines.handle(#"{"cmd":"advance","seconds":1e300}"#).0
        #expect(refused.contains("advance: 1e+300 seconds would take the clock past 9999-12-31T23:59:59Z") && refused.contains("the clock is unchanged"))
        #expect(app.engine.clock.now == before)
        #expect(lines.handle(#"{"cmd":"advance","seconds":"60"}"#).0.contains("advance needs seconds"))
        #expect(lines.handle("advance soon").0.contains("advance needs seconds"))
        #expect(app.engine.clock.now == before)
        try app.run("TICKS = 0; okit.every(60, function() TICKS = TICKS + 1 end)")
        let answer = lines.handle(#"{"cmd":"advance","seconds":8640000}"#).0
        #expect(answer.hasPrefix(#"{"ok":true"#), "the limit is a warning: the clock moved and the timer's work stays")
        #expect(lines.withWarnings(answer).contains("timers fired 100000 times at one moment (the limit)"))
        #expect(app.engine.clock.now == before.addingTimeInterval(8_640_000))
    }
}
