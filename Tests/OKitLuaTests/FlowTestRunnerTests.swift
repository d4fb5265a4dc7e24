import Foundation
import Testing
import OKitTestSupport
@testable import OKitLua

/// `okit-run test`: discovery, the framework's assertions and positions, launch isolation, snapshots, TAP and
/// JUnit, and the exit code of a failing run (testing.md).
@Suite final class FlowTestRunnerTests {
    /// The project folders a test made: removed when it ends (one instance per test).
    var created: [URL] = []
    deinit { for dir in created { try? FileManager.default.removeItem(at: dir) } }

    /// A folder with a tiny app and the given test files.
    func project(_ tests: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-flow-\(UUID().uuidString)")
        created.append(dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tests"), withIntermediateDirectories: true)
        let app = """
        local okit = require "okit"
        okit.entity("Note", { text = "string", done = "bool", finish = function(self) self.done = true end })
        okit.entity("Notes", { notes = "[Note]" })
        okit.model("Notes", { seed = function(root) root.notes:append(okit.new("Note", { text = "first" })) end })
        okit.list("notes", { type = "Note", dataPath = "notes", titlePath = "#Notes", cell = { path = "text" }, add = "#true",
                             addName = "text", quickName = "#Done", quickTap = "finish()" })
        okit.app { id = "notes", home = "notes" }
        """
        try app.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        for (name, source) in tests {
            try source.write(to: dir.appendingPathComponent("tests/\(name)"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    func run(_ dir: URL, _ configure: (inout FlowTestOptions) -> Void = { _ in }) throws -> (FlowTestRunner, [String], (Int, Int, Int)) {
        var options = FlowTestOptions()
        options.scratch = dir.appendingPathComponent("scratch")
        options.print = { _ in }
        configure(&options)
        let runner = FlowTestRunner(options: options)
        var lines: [String] = []
        let files = try FlowTestRunner.discover([], root: dir)
        let totals = runner.run(files, root: dir) { lines.append($0) }
        return (runner, lines, totals)
    }

    @Test func passingAndFailingTestsGiveTAPAndTheClosingLine() throws {
        let dir = try project(["notes_test.lua": """
        local launch = require("okit.test").launch
        describe("notes", function()
          local app
          before_each(function() app = launch("../app.lua") end)
          it("shows the seeded note", function()
            app:expectScreen { screen = { title = "Notes", sections = { { rows = { { text = "first" } } } } } }
          end)
          it("fails on purpose", function()
            assert.equal("second", app:screen().screen.sections[1].rows[1].text)
          end)
          pending("later")
        end)
        """])
        let (_, lines, totals) = try run(dir)
        #expect(totals == (1, 1, 1))
        #expect(lines.contains("ok 1 - notes shows the seeded note"))
        #expect(lines.contains("not ok 2 - notes fails on purpose"))
        #expect(lines.contains("# tests/notes_test.lua:9"), "the failing assertion's file:line")
        #expect(lines.contains("# expected: \"second\"") && lines.contains("#   actual: \"first\""))
        #expect(lines.contains("ok 3 - notes later # SKIP pending"))
        #expect(lines.last == "1 passed, 1 failed, 1 skipped")
    }

    @Test func expectScreenReportsThePathOfTheDifference() throws {
        let dir = try project(["screen_test.lua": """
        local app = require("okit.test").launch("../app.lua")
        it("differs", function()
          app:expectScreen { screen = { sections = { { rows = { { text = "other" } } } } } }
        end)
        """])
        let (runner, _, totals) = try run(dir)
        #expect(totals == (0, 1, 0))
        let r = try #require(runner.results.first)
        #expect(r.location == "tests/screen_test.lua:3")
        #expect(r.message?.contains("at .screen.sections[1].rows[1].text: expected \"other\", got \"first\"") == true)
    }

    @Test func launchedAppsAreIsolatedAndEntitiesActInTheirApp() throws {
        let dir = try project(["iso_test.lua": """
        local launch = require("okit.test").launch
        it("isolates", function()
          local a, b = launch("../app.lua"), launch("../app.lua")
          assert.not_equal(a.dataDir, b.dataDir)
          a.models.default.notes[1].text = "changed in a"
          assert.equal("changed in a", a:screen().screen.sections[1].rows[1].text, "the app's screen follows a test's write")
          assert.equal("first", b.models.default.notes[1].text)
          a:advance(60)
          a:add("second")
          assert.equal(2, #a.models.default.notes)
          assert.equal(1, #b.models.default.notes)
        end)
        it("lists exactly the changes of a command", function()
          local app = launch("../app.lua")
          local changes = app:changes(function() app:quick("first") end)
          assert.equal(1, #changes)
          assert.same({ false, true }, { changes[1].old, changes[1].new })
        end)
        """])
        let (runner, _, totals) = try run(dir)
        #expect(totals == (2, 0, 0), "\(runner.results.map { $0.message ?? "" })")
    }

    @Test func snapshotsAreWrittenThenCompared() throws {
        let source = """
        local app = require("okit.test").launch("../app.lua")
        it("matches", function() app:snapshot("start") end)
        """
        let dir = try project(["snap_test.lua": source])
        var (_, _, totals) = try run(dir)
        #expect(totals == (1, 0, 0))
        let file = dir.appendingPathComponent("tests/__snapshots__/snap_test/start.json")
        let stored = try String(contentsOf: file, encoding: .utf8)
        #expect(stored.contains("\"title\": \"Notes\""), "indented JSON")
        (_, _, totals) = try run(dir)
        #expect(totals == (1, 0, 0), "the same snapshot matches")
        try stored.replacingOccurrences(of: "\"first\"", with: "\"changed\"").write(to: file, atomically: true, encoding: .utf8)
        let (runner, _, failed) = try run(dir)
        #expect(failed == (0, 1, 0))
        #expect(runner.results.first?.message?.contains("expected \"changed\", got \"first\"") == true)
        (_, _, totals) = try run(dir) { $0.updateSnapshots = true }
        #expect(totals == (1, 0, 0))
        #expect(try String(contentsOf: file, encoding: .utf8) == stored, "--update-snapshots writes the new one")
    }

    @Test func aFileThatDoesNotLoadIsOneFailure() throws {
        let dir = try project(["broken_test.lua": "describe('x', function()\n  it('y', function() end\nend)\n"])
        let (runner, lines, totals) = try run(dir)
        #expect(totals == (0, 1, 0))
        #expect(runner.results.first?.message?.contains("tests/broken_test.lua:") == true)
        #expect(lines.last == "0 passed, 1 failed")
    }

    @Test func filterSelectsByFullName() throws {
        let dir = try project(["f_test.lua": """
        describe("group", function()
          it("alpha", function() end)
          it("beta", function() error("not run") end)
        end)
        """])
        let (_, lines, totals) = try run(dir) { $0.filters = ["group alpha"] }
        #expect(totals == (1, 0, 0) && lines.first == "ok 1 - group alpha")
    }

    @Test func strictFailsATestWhoseAppLoggedAWarning() throws {
        let dir = try project(["w_test.lua": """
        local launch = require("okit.test").launch
        it("reads a binding that fails", function()
          local app = launch("../app.lua")
          app.models.default.notes[1].text = "x"
          assert.is_nil(app:screen().screen.sections[1].rows[1].detail, "the failing binding shows nothing")
        end)
        """])
        try """
        local okit = require "okit"
        okit.entity("Note", { text = "string", oops = function(self)
          if self.text == "x" then error("broken on purpose") end
          return "fine"
        end })
        okit.entity("Notes", { notes = "[Note]" })
        okit.model("Notes", { seed = function(root) root.notes:append(okit.new("Note", { text = "first" })) end })
        okit.list("notes", { type = "Note", dataPath = "notes", cell = { path = "text", detailPath = "oops()" } })
        okit.app { id = "notes", home = "notes" }
        """.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        let (_, _, lax) = try run(dir)
        #expect(lax == (1, 0, 0), "without --strict a warning does not fail the test")
        let (runner, _, strict) = try run(dir) { $0.strict = true }
        #expect(strict == (0, 1, 0))
        #expect(runner.results.first?.message?.contains("broken on purpose") == true)
    }

    @Test func junitNamesEveryTestAndFailure() throws {
        let dir = try project(["j_test.lua": "it('ok <1>', function() end)\nit('bad', function() assert.is_true(false) end)\n"])
        let (runner, _, _) = try run(dir)
        let xml = runner.junit()
        #expect(xml.contains("<testsuites name=\"okit\" tests=\"2\" failures=\"1\""))
        #expect(xml.contains("name=\"ok &lt;1&gt;\""))
        #expect(xml.contains("<failure message=\"assert.is_true failed\">tests/j_test.lua:2"))
    }

    @Test func theCommandExitsWith1WhenATestFailsAndWritesJUnit() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = try project(["fail_test.lua": "it('fails on purpose', function() assert.equal(1, 2) end)\n"])
        let junit = dir.appendingPathComponent("junit.xml")
        let r = try OKitRun.run(["test", dir.appendingPathComponent("tests").path, "--output", "junit=\(junit.path)"]), (code, out) = (r.code, r.out)
        #expect(code == 1)
        #expect(out.hasSuffix("0 passed, 1 failed\n"))
        #expect(FileManager.default.fileExists(atPath: junit.path))
        let k = try OKitRun.run(["test", dir.appendingPathComponent("tests").path, "--filter", "nothing matches this"]), (ok, okOut) = (k.code, k.out)
        #expect(ok == 0 && okOut.hasSuffix("0 passed, 0 failed\n"))
    }
}
