import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import OKitTestSupport
@testable import OKitLua

/// Flow tests over a whole run: session logs that outlive it, `--strict` and the warnings of loading, JUnit that
/// parses as XML 1.0, the test file's clock, apps released when their test ends, `launch` errors at the test
/// file's line, and `print` on stderr (testing.md).
@Suite struct FlowTestLifecycleTests {
    let base = FlowTestRunnerTests()

    static var binary: URL { OKitRun.binary }

    /// Runs okit-run to its end with extra environment variables; returns the exit code, stdout and stderr.
    static func spawn(_ args: [String], environment: [String: String] = [:]) throws -> (code: Int32, out: String, err: String) {
        let r = try OKitRun.run(args, environment: environment.mapValues { Optional($0) })
        return (r.code, r.out, r.err)
    }

    @Test func recordWithoutAPathWritesALogThatOutlivesTheRun() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path))
        let dir = try base.project(["rec_test.lua": """
        local launch = require("okit.test").launch
        it("records", function()
          local app = launch("../app.lua")
          local log = app:record()
          app:add("second")
          local f = assert(io.open(os.getenv("OKIT_FLOW_OUT"), "w"))
          f:write(log)
          f:close()
        end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let pathFile = dir.appendingPathComponent("log-path.txt")
        let (code, out, _) = try Self.spawn(["test", dir.appendingPathComponent("tests").path],
                                            environment: ["TMPDIR": tmp.path, "OKIT_FLOW_OUT": pathFile.path])
        #expect(code == 0, "\(out)")
        let log = try String(contentsOf: pathFile, encoding: .utf8)
        #expect(log.hasSuffix("rec_test-1.session.jsonl"), "\(log)")
        #expect(log.hasPrefix(tmp.path + "/okit-sessions/"), "\(log)")
        let text = try String(contentsOfFile: log, encoding: .utf8)    // still there after the run
        #expect(text.hasPrefix("{\"okit\":\"session\""))
        #expect(text.contains("{\"cmd\":\"add\""))
    }

    @Test func theDefaultSessionLogIsOutsideTheScratchFolder() throws {
        let dir = try base.project(["rec_test.lua": """
        local launch = require("okit.test").launch
        it("records twice", function()
          _G.first = launch("../app.lua"):record()
          _G.second = launch("../app.lua"):record()
          assert.matches("tests%-rec_test%-1%.session%.jsonl$", first)
          assert.matches("tests%-rec_test%-2%.session%.jsonl$", second)
        end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let sessions = dir.appendingPathComponent("sessions")
        let (runner, _, totals) = try base.run(dir) { $0.sessions = sessions }
        #expect(totals == (1, 0, 0), "\(runner.results.map { $0.message ?? "" })")
        #expect(FileManager.default.fileExists(atPath: sessions.appendingPathComponent("tests-rec_test-1.session.jsonl").path))
        #expect(FileManager.default.fileExists(atPath: sessions.appendingPathComponent("tests-rec_test-2.session.jsonl").path))
    }

    @Test func strictCountsTheWarningsOfLoadingTheApp() throws {
        let dir = try base.project(["load_test.lua": """
        local launch = require("okit.test").launch
        it("launches an app that warns while it loads", function()
          local app = launch("../bogus.lua")
          assert.equal(1, #app:warnings())
        end)
        it("launches a clean app", function() launch("../app.lua") end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        local okit = require "okit"
        okit.entity("Note", { text = "string" })
        okit.entity("Notes", { notes = "[Note]" })
        okit.model("Notes", {})
        okit.list("notes", { type = "Note", dataPath = "notes", cell = { path = "text" }, bogusProp = 1 })
        okit.app { id = "notes", home = "notes" }
        """.write(to: dir.appendingPathComponent("bogus.lua"), atomically: true, encoding: .utf8)
        let (_, _, lax) = try base.run(dir)
        #expect(lax == (2, 0, 0))
        let (runner, _, strict) = try base.run(dir) { $0.strict = true }
        #expect(strict == (1, 1, 0))
        let failed = try #require(runner.results.first)
        #expect(failed.status == .fail)
        #expect(failed.message?.contains("unknown property \"bogusProp\"") == true, "\(failed.message ?? "")")
        #expect(runner.results.last?.status == .ok, "the warning belongs to the test that launched the app")
    }

    @Test func junitHasNoCharactersXML10Forbids() throws {
        let dir = try base.project(["x_test.lua": """
        it("control \\1 in a name", function() error("bad \\2 thing\\r\\n\\27[31mred") end)
        it("plain", function() end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (runner, _, totals) = try base.run(dir)
        #expect(totals == (1, 1, 0))
        let xml = runner.junit()
        let forbidden = xml.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" }
        #expect(forbidden.isEmpty)
        #expect(!xml.contains("&#1;") && !xml.contains("&#2;") && !xml.contains("&#27;"))
        #expect(xml.contains("name=\"control \u{FFFD} in a name\""))
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
    }

    @Test func theTestFilesClockFollowsTheAppLaunchedLast() throws {
        let dir = try base.project(["clock_test.lua": """
        local launch = require("okit.test").launch
        local okit = require "okit"
        local EPOCH = 1556704800
        it("follows advance", function()
          assert.equal(EPOCH, os.time())
          local app = launch("../app.lua")
          app:advance(3600)
          assert.equal(EPOCH + 3600, os.time())
          assert.equal("2019-05-01T11:00:00Z", tostring(okit.date.now()))
        end)
        it("follows the app launched last, apps keep their own clocks", function()
          local a = launch("../app.lua")
          local b = launch("../app.lua", { now = "2020-01-01T00:00:00Z" })
          assert.equal(1577836800, os.time())
          a:advance(60)
          assert.equal(1577836800, os.time(), "a's clock moved, not b's")
          b:advance(30)
          assert.equal(1577836830, os.time())
          a:advance(60)
          local c = launch("../app.lua")
          assert.equal(EPOCH, os.time(), "a fresh app starts at the epoch")
        end)
        it("stands at the epoch without an app", function()
          assert.equal(EPOCH, os.time())
        end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (runner, _, totals) = try base.run(dir)
        #expect(totals == (3, 0, 0), "\(runner.results.map { ($0.location ?? "") + " " + ($0.message ?? "") })")
    }

    @Test func appsAreReleasedWhenTheirTestEndsSoTheirDataFolderCanBeReused() throws {
        let dir = try base.project(["reuse_test.lua": """
        local launch = require("okit.test").launch
        local kept
        describe("persistence", function()
          after_each(function() assert.equal(2, #kept.models.default.notes, "after_each still sees the app") end)
          it("adds and stores", function()
            kept = launch("../app.lua", { data = "dd" })
            kept:add("second")
            kept:store()
          end)
          it("sees it after launching again on the same folder", function()
            kept = launch("../app.lua", { data = "dd" })
            assert.equal(2, #kept.models.default.notes)
          end)
        end)
        it("cannot use an app of an ended test", function()
          local ok, err = pcall(function() kept:add("third") end)
          assert.is_false(ok)
          assert.matches("released", err)
        end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (runner, _, totals) = try base.run(dir)
        #expect(totals == (3, 0, 0), "\(runner.results.map { ($0.location ?? "") + " " + ($0.message ?? "") })")
    }

    @Test func launchErrorsPointAtTheTestFilesLine() throws {
        let dir = try base.project(["launch_test.lua": """
        local launch = require("okit.test").launch
        it("catches it", function()
          local ok, err = pcall(function() launch("nope.lua") end)
          assert.is_false(ok)
          assert.matches("^tests/launch_test%.lua:3: launch%(\\"nope%.lua\\"%): no app file at ", err)
          ok, err = pcall(function() launch("../app.lua", { fixtures = "none.json" }) end)
          assert.matches("^tests/launch_test%.lua:6: launch: opts%.fixtures: no file", err)
        end)
        it("fails with it", function()
          launch("nope.lua")
        end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (runner, lines, totals) = try base.run(dir)
        #expect(totals == (1, 1, 0), "\(runner.results.map { ($0.location ?? "") + " " + ($0.message ?? "") })")
        let failed = try #require(runner.results.last)
        #expect(failed.location == "tests/launch_test.lua:10")
        #expect(failed.message?.hasPrefix("tests/launch_test.lua:10: launch(\"nope.lua\"): no app file at ") == true, "\(failed.message ?? "")")
        #expect(!lines.contains { $0.contains("okit.test:") }, "\(lines)")
    }

    @Test func printGoesToStderr() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path))
        let dir = try base.project(["print_test.lua": """
        it("prints", function() print("hello from print", 42) end)
        """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (code, out, err) = try Self.spawn(["test", dir.appendingPathComponent("tests").path])
        #expect(code == 0)
        #expect(out == "ok 1 - prints\n1..1\n1 passed, 0 failed\n", "stdout carries only the test output")
        #expect(err.contains("# hello from print\t42\n"), "\(err)")
    }
}
