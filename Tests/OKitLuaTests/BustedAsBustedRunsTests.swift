import Foundation
import Testing
import OKitTestSupport

/// What a Lua developer's probe of real busted projects found (testing.md, "Busted projects"): the output a bare run
/// chooses, `require 'busted.runner'()`, `-v`'s comment before what a test prints, junit under `--repeat` and its
/// pending reasons, class names and time, the exit codes of refusals, a number as a test's name in json and an
/// unknown assertion named as written.
@Suite struct BustedAsBustedRunsTests: BustedProjectSuite {
    /// `okit-run test` exactly as given (no `-o TAP` added).
    func bare(_ folder: TempFolder, _ args: [String]) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        return try OKitRun.run(["test", "-C", folder.path] + args)
    }

    @Test func aBareRunPrintsBustedsPlainTerminalWhenPipedAndFlowTestsKeepTAP() throws {
        let folder = try project(["spec/a_spec.lua": "it('passes', function() end)\nit('fails', function() assert.is_true(false) end)\n"])
        let r = try bare(folder, [])
        #expect(r.code == 1)
        #expect(r.out.hasPrefix("+-\n1 success / 1 failure / 0 errors / 0 pending : "), "busted's plainTerminal on a pipe: \(r.out)")
        #expect(r.out.contains("\nFailure -> spec/a_spec.lua @ 2\nfails\n"), "\(r.out)")
        let configured = try bare(try project(["spec/a_spec.lua": "it('passes', function() end)\n",
                                               ".busted": "return { default = { output = 'TAP' } }"]), [])
        #expect(configured.out == "ok 1 - passes\n1..1\n", ".busted's output wins: \(configured.out)")
        let mixed = try bare(try project(["spec/a_spec.lua": "it('s', function() end)\n", "tests/f_test.lua": "it('f', function() end)\n"]), [])
        #expect(mixed.out.contains("ok 1 - s\n") && mixed.out.hasSuffix("2 passed, 0 failed\n"), "flow tests keep TAP: \(mixed.out)")
    }

    @Test func bustedRunnerCalledAtASpecsTopDoesNothing() throws {
        let folder = try project(["spec/r_spec.lua": "require 'busted.runner'()\nit('works', function() assert.is_true(true) end)\n"])
        let r = try run(folder, [])
        #expect(r.code == 0 && r.out == "ok 1 - works\n1..1\n", "\(r.out) \(r.err)")
    }

    @Test func verboseSaysWhereATestIsBeforeWhatItPrints() throws {
        let folder = try project(["spec/p_spec.lua": "describe('d', function()\n  it('prints', function() print('output of the test') end)\n"
                                  + "  pending('later')\nend)\n"])
        let r = try run(folder, ["-v"])
        #expect(r.out == "# spec/p_spec.lua @ 2: d prints\noutput of the test\nok 1 - d prints\n"
                + "# spec/p_spec.lua @ 3: d later\nok 2 - # SKIP d later\n1..2\n", "\(r.out)")
    }

    @Test func junitOfARepeatedRunIsOneReportOfEveryRun() throws {
        let folder = try TempFolder()
        let marker = folder.url.appendingPathComponent("marker").path
        try folder.put("spec/flaky_spec.lua", """
            it("flaky", function()
              local f = io.open("\(marker)")
              if f then f:close(); return end
              io.open("\(marker)", "w"):close()
              assert.is_true(false)
            end)
            """)
        let out = try run(folder, ["--repeat", "2", "-o", "junit"])
        #expect(out.code == 1)
        #expect(out.out.components(separatedBy: "<?xml").count == 2, "one document: \(out.out)")
        #expect(out.out.contains("<testsuites name=\"okit\" tests=\"2\" failures=\"1\" errors=\"0\" skip=\"0\" time=\""), "\(out.out)")
        #expect(out.out.contains("<testsuite name=\"spec/flaky_spec.lua (run 1 of 2)\" tests=\"1\" failures=\"1\""), "\(out.out)")
        #expect(out.out.contains("<testsuite name=\"spec/flaky_spec.lua (run 2 of 2)\" tests=\"1\" failures=\"0\""), "\(out.out)")
        try FileManager.default.removeItem(atPath: marker)
        let file = try run(folder, ["--repeat", "2", "-o", "junit", "-Xoutput", "report.xml"])
        let xml = try String(contentsOf: folder.url.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(file.code == 1 && xml.contains("failures=\"1\"") && xml.contains("(run 2 of 2)"), "\(xml)")
    }

    @Test func junitWritesPendingReasonsTableErrorsClassNamesAndTheRunsTime() throws {
        let folder = try project(["spec/p_spec.lua": """
            it("waits", function() pending("needs the v2 API") end)
            pending("declared")
            it("table error", function() error({code = 1}) end)
            """])
        let r = try run(folder, ["-o", "junit"])
        #expect(r.out.contains("<testcase classname=\"spec/p_spec.lua:1\" name=\"waits\" time=\"") , "\(r.out)")
        #expect(r.out.contains("><skipped>spec/p_spec.lua:1: needs the v2 API</skipped></testcase>"), "\(r.out)")
        #expect(r.out.contains("name=\"declared\" time=\"0.000\"><skipped/></testcase>"), "\(r.out)")
        #expect(r.out.contains("<error message=\"{ code = 1 }\">"), "a table's message whole: \(r.out)")
        #expect(r.out.contains("<testsuites name=\"okit\" tests=\"3\" failures=\"0\" errors=\"1\" skip=\"2\" time=\""), "\(r.out)")
    }

    @Test func refusalsInABustedProjectExit1AsBustedDoes() throws {
        let folder = try project(["spec/a_spec.lua": "it('a', function() end)\n"])
        for args in [["--helper", "missing.lua"], ["--lua", "luajit"], ["-c"], ["-s"]] {
            let r = try run(folder, args)
            #expect(r.code == 1 && r.err.hasPrefix("okit-run test: "), "\(args): \(r.code) \(r.err)")
        }
        let coverage = try run(try project(["spec/a_spec.lua": "it('a', function() end)\n", ".busted": "return { default = { coverage = true } }"]), [])
        #expect(coverage.code == 1 && coverage.err.contains("coverage is not supported"), "\(coverage.err)")
        let flow = try bare(try project(["tests/f_test.lua": "it('f', function() end)\n"]), ["--lua", "luajit"])
        #expect(flow.code == 2, "outside a busted project okit-run's usage error: \(flow.err)")
        let sound = try run(folder, ["-o", "sound"])
        #expect(sound.code == 1 && sound.err.contains("Usage: okit-run test "), "\(sound.err)")
    }

    @Test func jsonKeepsANumberNameAndAnUnknownAssertionIsNamedAsWritten() throws {
        let folder = try project(["spec/n_spec.lua": "describe(2024, function() it(1.5, function() end) it(3, function() end) end)\n",
                                  "spec/u_spec.lua": "it('u', function() assert.is_not.even(3) end)\n"])
        let json = try run(folder, ["-o", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let names = (object["successes"] as? [[String: Any]] ?? []).compactMap { ($0["element"] as? [String: Any])?["name"] as? NSNumber }
        #expect(names.map(\.doubleValue) == [1.5, 3], "\(json.out)")
        let tap = try run(folder, ["spec/u_spec.lua"])
        #expect(tap.out.contains("# Failure message: spec/u_spec.lua:1: luassert: unknown modifier/assertion: 'is_not_even'\n"), "\(tap.out)")
        let flow = try FlowFrameworkHarness().outcome("assert.is_not.banana(1)")
        #expect(flow.message?.hasPrefix("/tmp/x_test.lua:2: assert.is_not_banana: no such assertion") == true, "\(flow.message ?? "")")
    }
}
