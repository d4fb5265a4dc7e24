import Foundation
import Testing
import OKitTestSupport
@testable import OKitLua

/// What an app author's tests found said without a word (testing.md): `launch` refuses a seed it cannot use and a
/// fixture file named for no model, names a fixture that does not read; `--strict` places each warning; `--seed`
/// gives one order however the file's path is spelled; `-v` names each test's place in flow tests too.
@Suite final class FlowTestLaunchCheckTests {
    var created: [URL] = []
    deinit { for dir in created { try? FileManager.default.removeItem(at: dir) } }

    /// A folder with a tiny app (a `poke()` that logs a warning) and the given files under `tests/`.
    func project(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-launch-\(UUID().uuidString)")
        created.append(dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tests"), withIntermediateDirectories: true)
        try """
        local okit = require "okit"
        okit.entity("Note", { text = "string", poke = function(self) okit.get(self, "text/nosuchext") end })
        okit.entity("Notes", { notes = "[Note]" })
        okit.model("Notes", { seed = function(root) root.notes:append(okit.new("Note", { text = "first" })) end })
        okit.list("notes", { type = "Note", dataPath = "notes", titlePath = "#Notes", cell = { path = "text" },
                             quickName = "#Poke", quickTap = "poke()" })
        okit.app { id = "notes", home = "notes" }
        """.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        for (name, text) in files {
            let url = dir.appendingPathComponent("tests/\(name)")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    func run(_ dir: URL, root: URL? = nil, _ configure: (inout FlowTestOptions) -> Void = { _ in }) throws -> (FlowTestRunner, [String]) {
        var options = FlowTestOptions()
        options.scratch = dir.appendingPathComponent("scratch")
        options.print = { _ in }
        configure(&options)
        let runner = FlowTestRunner(options: options)
        var lines: [String] = []
        runner.run(try FlowTestRunner.discover([], root: dir), root: root ?? dir) { lines.append($0) }
        return (runner, lines)
    }

    /// Each result's message as TAP shows it, under its `# file:line` (without that place in front), "ok" for a pass.
    func messages(_ runner: FlowTestRunner) -> [String] {
        runner.results.map { r in
            guard var m = r.message else { return "ok" }
            if let at = r.location, m.hasPrefix(at + ": ") { m.removeFirst(at.count + 2) }
            return m
        }
    }

    @Test func aSeedThatIsNoWholeNumberFromZeroUpIsRefused() throws {
        let dir = try project(["seed_test.lua": """
        local launch = require("okit.test").launch
        for _, seed in ipairs { 1.5, "7", -1, true } do
          it(tostring(seed), function() launch("../app.lua", { seed = seed }) end)
        end
        it("whole", function() assert.equal(launch("../app.lua", { seed = 7 }).dataDir ~= nil, true); launch("../app.lua", { seed = 7.0 }) end)
        it("now as a number", function() launch("../app.lua", { now = 5 }) end)
        """])
        let (runner, _) = try run(dir)
        let messages = self.messages(runner)
        let refusal = "launch: opts.seed must be a non-negative whole number, like seed = 7, got "
        #expect(messages == [refusal + "1.5", refusal + "\"7\"", refusal + "-1", refusal + "true", "ok",
                             "launch: opts.now must be a text, got 5"], "\(messages)")
    }

    @Test func aFixtureNamedForNoModelIsRefusedAndOneThatDoesNotReadIsNamed() throws {
        let dir = try project([
            "fx_test.lua": """
            local launch = require("okit.test").launch
            it("typo", function() launch("../app.lua", { fixtures = "fixtures/defualt.json" }) end)
            it("folder", function() launch("../app.lua", { fixtures = "more" }) end)
            it("bad data", function() launch("../app.lua", { fixtures = "bad/default.json" }) end)
            it("good", function() assert.equal("kept", launch("../app.lua", { fixtures = "good" }).models.default.notes[1].text) end)
            """,
            "fixtures/defualt.json": "{\"notes\":[]}",
            "more/default.json": "{\"notes\":[]}", "more/notes.json": "{\"notes\":[]}",
            "bad/default.json": "{\"notes\": [ {\"text\": 5} ]}",
            "good/default.json": "{\"notes\":[{\"id\":\"A\",\"text\":\"kept\"}]}", "good/.DS_Store": "x",
        ])
        let (runner, _) = try run(dir)
        let messages = self.messages(runner)
        #expect(messages.count == 4)
        #expect(messages[0] == "launch: opts.fixtures: fixtures/defualt.json is named for no model of the app (did you mean \"default\"?), "
                + "so the app would start from its seed data without reading it; a model's file is named for the model, and its "
                + "models are default (default.json)")
        #expect(messages[1].hasPrefix("launch: opts.fixtures: more/notes.json is named for no model of the app"), "\(messages[1])")
        #expect(messages[2].hasPrefix("launch(\"../app.lua\"): app.lua:4: okit.model(\"Notes\"): bad/default.json:1:"),
                "the fixture as the test names it, not its copy: \(messages[2])")
        #expect(messages[3] == "ok", "a model's file and a hidden file pass")
    }

    @Test func strictNamesTheCommandAndLineThatLoggedAWarning() throws {
        let dir = try project(["w_test.lua": """
        local launch = require("okit.test").launch
        it("pokes", function()
          local app = launch("../app.lua")
          app:screen()
          app:quick("first")
        end)
        it("in its own code", function()
          local app = launch("../app.lua")
          okit.get(app.models.default.notes[1], "text/nosuchext")
        end)
        """])
        let (runner, _) = try run(dir) { $0.strict = true }
        let warning = "binding \"text/nosuchext\": no extension \"nosuchext\" for string values"
        #expect(runner.results.map(\.status) == [.fail, .fail])
        #expect(runner.results[0].message == "warnings under --strict:\n\(warning) (logged by app:quick(\"first\") at tests/w_test.lua:5)")
        #expect(runner.results[0].location == "tests/w_test.lua:5")
        #expect(runner.results[1].message == "warnings under --strict:\n\(warning)")
        #expect(runner.results[1].location == "tests/w_test.lua:7", "the test's own place when no command logged it")
    }

    @Test func oneSeedGivesOneOrderHoweverThePathIsSpelled() throws {
        let tests = (1...9).map { "  it(\"t\($0)\", function() end)" }.joined(separator: "\n")
        let dir = try project(["order_test.lua": "describe(\"d\", function()\n\(tests)\nend)\n"])
        let file = dir.appendingPathComponent("tests/order_test.lua")
        func order(root: URL) -> [String] {
            var options = FlowTestOptions()
            options.shuffleSeed = 2
            return FlowTestRunner(options: options).listed([file], root: root)
        }
        let fromApp = order(root: dir)
        #expect(fromApp != (1...9).map { "d t\($0)" }, "shuffled")
        #expect(order(root: dir.deletingLastPathComponent()) == fromApp, "from the folder above")
        #expect(order(root: dir.appendingPathComponent("tests")) == fromApp, "from the tests folder")
        #expect(order(root: URL(fileURLWithPath: "/nonexistent")) == fromApp, "as an absolute path")
    }

    @Test func verboseNamesEachFlowTestsPlaceBeforeItsLine() throws {
        let dir = try project(["v_test.lua": "describe(\"d\", function()\n  it(\"a\", function() end)\n  pending(\"b\")\nend)\n"])
        let (_, lines) = try run(dir) { $0.verbose = true }
        #expect(lines == ["# tests/v_test.lua:2: d a", "ok 1 - d a", "# tests/v_test.lua:3: d b", "ok 2 - d b # SKIP pending",
                          "1..2", "1 passed, 0 failed, 1 skipped"])
    }
}

extension FlowTestRunner {
    /// The names `--list` gives for `files` from `root`, in order.
    func listed(_ files: [URL], root: URL) -> [String] {
        var names: [String] = []
        list(files, root: root) { line in names.append(String(line.split(separator: ": ", maxSplits: 1).last ?? "")) }
        return names
    }
}
