import Foundation
import Testing
@testable import OKitEngine

/// A session recorded as a flow test (issue 40 item 2): each command a line of Lua, rows named by the text the
/// person saw, cells by their title, an alert's action by its title, a failed command as `assert.has_error`.
@Suite struct FlowTestRecorderTests {
    func recording(books: [String] = ["Dune", "Emma", "Anna"]) throws -> (ShopFixture, Driver, FlowTestRecorder) {
        let f = try ShopFixture()
        try f.start(books: books)
        let shell = AppShell(engine: f.engine)
        var list = ListDeclaration(id: "books")
        list.type = "Book"
        list.dataPath = "books"; list.cellPath = "name"; list.titlePath = "%Books"; list.segue = "book"
        var book = DetailDeclaration(id: "book")
        book.titlePath = "name"
        book.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", properties: ["path": "%Name", "textPath": "name"])])]
        try shell.declare(list)
        try shell.declare(book)
        try shell.start(home: ["books"])
        let driver = Driver(shell: shell, host: nil)
        let start = FlowTestRecorder.Start(app: URL(fileURLWithPath: "/shop/app.lua"), testFile: URL(fileURLWithPath: "/shop/tests/dune_test.lua"),
                                           now: f.clock.now)
        let recorder = FlowTestRecorder(start: start, clock: f.clock)
        driver.flowRecorder = recorder
        return (f, driver, recorder)
    }

    @Test func aRowGivenByPositionOrIdIsWrittenAsItsText() throws {
        let (f, driver, recorder) = try recording()
        try driver.run("tap", ["row": .int(2)])
        try driver.run("back", [:])
        try driver.run("tap", ["row": .string(try #require(f.book(2).id))])
        #expect(recorder.lines == [
            "app:tap(\"Emma\")", "assert.equal(\"Emma\", app:screen().screen.title)",
            "app:back()", "assert.equal(\"Books\", app:screen().screen.title)",
            "app:tap(\"Anna\")", "assert.equal(\"Anna\", app:screen().screen.title)",
        ])
    }

    @Test func aTextShownTwiceKeepsThePosition() throws {
        let (f, driver, recorder) = try recording(books: ["Dune", "Dune"])
        try driver.run("tap", ["row": .string(try #require(f.book(1).id))])
        try driver.run("back", [:])
        try driver.run("tap", ["row": .int(1)])
        #expect(recorder.lines.filter { $0.hasPrefix("app:tap") } == ["app:tap(2)", "app:tap(1)"])
    }

    @Test func aCellGivenByPositionIsWrittenByItsTitle() throws {
        let (_, driver, recorder) = try recording()
        try driver.run("tap", ["row": .string("Dune")])
        try driver.run("edit", [:])
        try driver.run("set", ["cell": .int(1), "value": .string("Dune Messiah")])
        #expect(recorder.lines.suffix(2) == ["app:edit(true)", "app:set(\"Name\", \"Dune Messiah\")"])
    }

    @Test func anActionIsWrittenByItsTitleWithTheFields() throws {
        let (_, driver, recorder) = try recording()
        var answer: [String] = []
        let prompt = PendingAlert(kind: "prompt", title: "New", message: nil, actions: ["OK", "Cancel"],
                                  fields: [AlertFieldSnapshot(placeholder: "Name")]) { _, fields in answer = fields }
        driver.shell.present(prompt)
        try driver.run("respond", ["action": .string("ok"), "fields": .list([.string("Emma \"E\"")])])
        driver.shell.present(PendingAlert(kind: "alert", title: nil, message: nil, actions: ["Delete", "Cancel"]) { _, _ in })
        try driver.run("respond", ["action": .string("1")])
        #expect(answer == ["Emma \"E\""])
        #expect(recorder.lines == ["app:respond(\"OK\", { \"Emma \\\"E\\\"\" })", "app:respond(\"Delete\")"])
    }

    @Test func anAnswerWithoutFieldsIsWrittenWithoutAnEmptyTable() throws {
        let (_, driver, recorder) = try recording()
        driver.shell.present(PendingAlert(kind: "alert", title: nil, message: nil, actions: ["Yes", "No"]) { _, _ in })
        try driver.run("respond", ["action": .string("No"), "fields": .list([])])   // as the terminal shell gives it
        #expect(recorder.lines == ["app:respond(\"No\")"])
    }

    @Test func aFailedCommandIsAnExpectedErrorAndAMalformedOneIsLeftOut() throws {
        let (_, driver, recorder) = try recording()
        #expect(throws: (any Error).self) { try driver.run("tap", ["row": .string("Dnue")]) }
        #expect(throws: (any Error).self) { try driver.run("tap", [:]) }
        #expect(recorder.lines.count == 2)
        #expect(recorder.lines[0].hasPrefix("assert.has_error(function() app:tap(\"Dnue\") end, \"no row \\\"Dnue\\\""))
        #expect(recorder.lines[1].hasPrefix("-- left out: app:tap() (tap needs row"))
    }

    /// A refusal is written in the app's language, as the test's `app:` call raises it when the test runs.
    @Test func aRefusalIsWrittenInTheAppsLanguage() throws {
        let (f, driver, recorder) = try recording()
        f.engine.locale = AppLocale(language: "de")
        #expect(throws: (any Error).self) { try driver.run("back", [:]) }
        #expect(recorder.lines == ["assert.has_error(function() app:back() end, \"schon beim ersten Bildschirm dieses Tabs\")"])
    }

    /// JSON lines' `"value":null` clears a field: the `nil` is written (`app:set("Due")` failed: `set needs value`);
    /// an argument not given is left out.
    @Test func aNilGivenIsWrittenAndOneNotGivenIsLeftOut() {
        #expect(FlowTestCall("set", ["cell": .string("Due"), "value": .null], description: .set, before: nil).text == #"app:set("Due", nil)"#)
        let edit = Driver.builtIn.first { $0.description.name == "edit" }?.description
        #expect(FlowTestCall("edit", [:], description: edit, before: nil).text == "app:edit(true)")
        #expect(FlowTestCall("edit", ["on": .string("off")], description: edit, before: nil).text == "app:edit(false)")
        #expect(FlowTestCall("edit", ["on": .string("banana")], description: edit, before: nil).text == #"app:edit("banana")"#)
        let auth = Driver.builtIn.first { $0.description.name == "authenticate" }?.description
        #expect(FlowTestCall("authenticate", ["passphrase": .string("x")], description: auth, before: nil).text == #"app:authenticate(nil, "x")"#)
    }

    @Test func aPauseOfAMinuteIsAnAdvanceAndShortOnesAreLeftOut() throws {
        let (f, driver, recorder) = try recording()
        f.clock.advance(by: 5)
        try driver.run("tap", ["row": .int(1)])
        f.clock.advance(by: 90.5)
        try driver.run("back", [:])
        try driver.run("screen", [:])
        #expect(recorder.lines.filter { $0.hasPrefix("app:") } == ["app:tap(\"Dune\")", "app:advance(90)", "app:back()"])
    }

    @Test func luaLiteralsEscapeQuotesBackslashesAndControlsAndKeepUnicode() {
        #expect(LuaLiteral.string("a \"b\" \\ c") == "\"a \\\"b\\\" \\\\ c\"")
        #expect(LuaLiteral.string("one\ntwo\tthree\r") == "\"one\\ntwo\\tthree\\r\"")
        #expect(LuaLiteral.string("\u{1}1") == "\"\\0011\"", "three digits: the 1 after it stays a 1")
        #expect(LuaLiteral.string("Müller — 東京 😀") == "\"Müller — 東京 😀\"")
        #expect(LuaLiteral.value(.list([.int(1), .double(2.5), .bool(false), .null])) == "{ 1, 2.5, false, nil }")
        #expect(LuaLiteral.value(.double(3)) == "3.0")
    }

    @Test func theFileLaunchesTheAppFromTheTestsFolderAndNamesTheTest() throws {
        let (_, driver, recorder) = try recording()
        try driver.run("tap", ["row": .int(1)])
        let text = recorder.text
        #expect(text.contains("local launch = require(\"okit.test\").launch\n"))
        #expect(text.contains("describe(\"shop\", function()\n  it(\"dune\", function()\n    local app = launch(\"../app.lua\")\n    app:tap(\"Dune\")\n"))
        #expect(text.hasSuffix("  end)\nend)\n"))
        var start = recorder.start
        start.now = Date(timeIntervalSince1970: 0); start.seed = 7; start.language = "de"; start.fixtures = URL(fileURLWithPath: "/tmp/x")
        #expect(FlowTestRecorder(start: start, clock: VirtualClock()).text
            .contains("launch(\"../app.lua\", { fixtures = \"dune_data\", now = \"1970-01-01T00:00:00Z\", seed = 7, lang = \"de\" })"))
    }

    @Test func anExistingTestIsNeverOverwritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-recorder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tests/x_test.lua")
        let start = FlowTestRecorder.Start(app: folder.appendingPathComponent("app.lua"), testFile: file, now: Date())
        try FlowTestRecorder(start: start, clock: VirtualClock()).write()
        #expect(try String(contentsOf: file, encoding: .utf8).contains("local app = launch(\"../app.lua\""))
        #expect(throws: FlowTestRecorder.RefusedPath.self) { try FlowTestRecorder(start: start, clock: VirtualClock()).write() }
        #expect(throws: FlowTestRecorder.RefusedPath.self) { try FlowTestRecorder.checkFree(file, path: "tests/x_test.lua") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["x_test.lua"], "no temporary file left")
    }
}
