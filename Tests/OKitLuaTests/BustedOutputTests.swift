import Foundation
import Testing
import OKitTestSupport

/// `okit-run test` in a busted project as a person runs it from the project's root (`-C`): busted's TAP lines, the
/// gtest, json, junit and terminal outputs, a spec file that does not load, `--seed`, `--filter-out`, `--repeat`,
/// `--clock`, and what is refused (coverage, `--lua`) (testing.md, "Busted projects").
@Suite struct BustedOutputTests {
    /// A project: a spec file that does not load, one with a pass, a failure, an error and two pending tests.
    static let files: [String: String] = [
        "spec/a_broken_spec.lua": "local x = nil .. 1\n",
        "spec/b_spec.lua": """
        describe("b", function()
          it("passes", function() assert.is_true(true) end)
          it("fails", function() assert.are.equal(3, 2) end)
          it("errors", function() error("boom", 0) end)
          pending("later")
          it("waits", function() pending("a reason") end)
        end)
        """,
    ]

    func project(_ extra: [String: String] = [:]) throws -> TempFolder {
        let folder = try TempFolder()
        for (name, text) in Self.files.merging(extra, uniquingKeysWith: { $1 }) { try folder.put(name, text) }
        return folder
    }

    func run(_ folder: TempFolder, _ args: [String]) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        return try OKitRun.run(["test", "-C", folder.path] + BustedTAP.arguments(args, root: folder.url))
    }

    @Test func specsPrintBustedsTAPAndOkitsOwnLinesGoToStderr() throws {
        let r = try run(try project(), ["--seed", "5"])
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(r.code == 1)
        #expect(Array(lines.prefix(2)) == ["not ok 1 - suite spec/a_broken_spec.lua", "# spec/a_broken_spec.lua @ 1"], "\(r.out)")
        #expect(lines.count > 2 && lines[2].hasPrefix("# Failure message: spec/a_broken_spec.lua:1: attempt to concatenate"))
        #expect(lines.contains("ok 2 - b passes"))
        #expect(lines.contains("not ok 3 - b fails"))
        #expect(lines.contains("# spec/b_spec.lua @ 3"), "where the test is declared: \(r.out)")
        #expect(lines.contains("# Failure message: spec/b_spec.lua:3: assert.equal failed"))
        #expect(lines.contains("# Failure message: spec/b_spec.lua:4: boom"), "an error's position: \(r.out)")
        #expect(lines.contains("ok 5 - # SKIP b later"))
        #expect(lines.contains("ok 6 - # SKIP spec/b_spec.lua:6: a reason"), "\(r.out)")
        #expect(r.out.hasSuffix("1..6\n"), "busted's TAP ends with the plan: \(r.out)")
        #expect(!r.out.contains("passed,") && !r.out.contains("random seed"))
        #expect(r.err.contains("# random seed 5") && r.err.contains("1 passed, 3 failed, 2 skipped"), "\(r.err)")
    }

    @Test func gtestFromTheBustedFileNamesEachTestWithItsPlaceAndTime() throws {
        let r = try run(try project([".busted": "return { default = { output = 'gtest', verbose = true } }"]), [])
        let out = r.out
        #expect(r.code == 1)
        #expect(out.hasPrefix("[==========] Running tests from scanned files.\n[----------] Global test environment setup.\n"), "\(out)")
        #expect(out.contains("[----------] Running tests from spec/a_broken_spec.lua\nspec/a_broken_spec.lua:1: attempt"))
        #expect(out.contains("[----------] 0 tests from spec/a_broken_spec.lua ("))
        #expect(out.contains("[ RUN      ] spec/b_spec.lua @ 2: b passes\n[       OK ] spec/b_spec.lua @ 2: b passes ("))
        #expect(out.contains("[ RUN      ] spec/b_spec.lua @ 3: b fails\nspec/b_spec.lua:3: assert.equal failed\n"))
        #expect(out.contains("[  FAILED  ] spec/b_spec.lua @ 3: b fails ("))
        #expect(out.contains("[  ERROR   ] spec/b_spec.lua @ 4: b errors ("))
        #expect(out.contains("[ SKIPPED  ] spec/b_spec.lua @ 5: b later ("))
        #expect(out.range(of: #"\[       OK \] spec/b_spec.lua @ 2: b passes \(\d+\.\d\d ms\)"#, options: .regularExpression) != nil)
        #expect(out.contains("[==========] 5 tests from 2 test files ran. ("), "a file that does not load is no test: \(out)")
        #expect(out.contains("[  PASSED  ] 1 test.\n[ SKIPPED  ] 2 tests, listed below:\n"))
        #expect(out.contains("[  ERROR   ] 2 errors, listed below:\n[  ERROR   ] spec/a_broken_spec.lua @ 1: suite spec/a_broken_spec.lua\n"))
        #expect(out.hasSuffix("\n 2 SKIPPED TESTS\n 1 FAILED TEST\n 2 ERRORS\n"), "\(out)")
    }

    @Test func jsonIsOneObjectOfBustedsLists() throws {
        let r = try run(try project(), ["-o", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], "\(r.out)")
        func names(_ key: String) -> [String] { ((object[key] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String } }
        #expect(names("successes") == ["b passes"])
        #expect(names("failures") == ["b fails"])
        #expect(names("errors") == ["suite spec/a_broken_spec.lua", "b errors"])
        #expect(names("pendings") == ["b later", "b waits"])
        #expect(object["duration"] is Double)
        let failure = try #require((object["failures"] as? [[String: Any]])?.first)
        #expect((failure["message"] as? String)?.hasPrefix("spec/b_spec.lua:3: assert.equal failed") == true)
        let trace = failure["trace"] as? [String: Any]
        #expect(trace?["short_src"] as? String == "spec/b_spec.lua" && trace?["currentline"] as? Int == 3)
        #expect((object["errors"] as? [[String: Any]])?.first?["isError"] as? Bool == true)
        #expect(r.out.split(separator: "\n").count == 1)
    }

    @Test func junitAndTheTerminalSummaryCountErrorsApart() throws {
        let folder = try project()
        let junit = try run(folder, ["-o", "junit"])
        #expect(junit.out.hasPrefix("<?xml"), "nothing before the XML: \(junit.out)")
        // as busted's: a file that does not load is an error of its suite, no test
        #expect(junit.out.contains("tests=\"5\" failures=\"1\" errors=\"2\" skip=\"2\""), "\(junit.out)")
        #expect(junit.out.contains("<testsuite name=\"spec/a_broken_spec.lua\" tests=\"0\" failures=\"0\" errors=\"1\""))
        #expect(junit.out.contains("    <error message=\"") && !junit.out.contains("name=\"suite spec/a_broken_spec.lua\""), "\(junit.out)")
        #expect(junit.out.contains("<testcase classname=\"spec/b_spec.lua:3\" name=\"b fails\""), "busted's classname: where it is declared")
        let terminal = try run(folder, ["-o", "plainTerminal"])
        #expect(terminal.out.hasPrefix("*+-*..\n1 success / 1 failure / 2 errors / 2 pending : "), "\(terminal.out)")
    }

    @Test func seedSeedsRandomOnlyAndFilterOutAndRepeatWork() throws {
        let folder = try project(["spec/c_spec.lua": """
        describe("c", function()
          it("draws " .. math.random(1000000), function() end)
          it("second", function() end)
          it("third", function() end)
        end)
        """])
        let one = try run(folder, ["--seed", "42", "--filter", "^c", "--exclude-pattern", "broken"])
        let two = try run(folder, ["--seed", "42", "--filter", "^c", "--exclude-pattern", "broken"])
        #expect(one.out == two.out, "the same seed draws the same number")
        #expect(one.out.contains("ok 2 - c second\nok 3 - c third\n"), "--seed alone does not shuffle: \(one.out)")
        let out = try run(folder, ["--filter-out", "second", "--filter-out", "^b", "--exclude-pattern", "broken"])
        #expect(out.out.contains("ok 2 - c third\n1..2\n"), "\(out.out)")
        let twice = try run(folder, ["--filter", "third", "--repeat", "2", "--exclude-pattern", "broken"])
        #expect(twice.out == "ok 1 - c third\n1..1\nok 1 - c third\n1..1\n", "\(twice.out)")
    }

    @Test func specsRunOnTheRealClockUnlessVirtual() throws {
        let folder = try project(["spec/c_spec.lua": "it('year ' .. os.date('!%Y'), function() end)\n"])
        let virtual = try run(folder, ["--filter", "year", "--clock", "virtual", "--exclude-pattern", "broken"])
        #expect(virtual.out == "ok 1 - year 2019\n1..1\n", "\(virtual.out)")
        #expect(!virtual.err.contains("random seed"))
        let real = try run(folder, ["--filter", "year", "--exclude-pattern", "broken"])
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).year!
        #expect(real.out == "ok 1 - year \(year)\n1..1\n", "\(real.out)")
    }

    @Test func coverageAndAnotherLuaAreRefusedWithTheirOptionNamed() throws {
        let folder = try project([".busted": "return { default = { coverage = true } }"])
        let refused = try run(folder, [])
        #expect(refused.code == 1)
        #expect(refused.err.contains("coverage is not supported") && refused.err.contains("--no-coverage"), "\(refused.err)")
        #expect(try run(folder, ["--no-coverage"]).out.contains("ok 2 - b passes"))
        let lua = try run(folder, ["--no-coverage", "--lua", "luajit"])
        #expect(lua.code == 1 && lua.err.contains("--lua luajit is not supported"), "\(lua.err)")
        // a command line busted refuses exits 1 in a busted project, as busted's (2 elsewhere)
        let wrong = try run(folder, ["-o", "sound"])
        #expect(wrong.code == 1 && wrong.err.contains("gtest or json"), "\(wrong.err)")
    }
}

/// A flow test given by its path stays a flow test in a busted project and outside one: okit's TAP with the closing
/// line on stdout, the virtual clock, no random seed (a recorded test is run this way: `okit-run test tests/x_test.lua`).
@Suite struct FlowTestByPathTests {
    @Test func aFlowTestGivenByPathKeepsOkitsTAP() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try TempFolder()
        try folder.put("tests/clock_test.lua", """
        it("runs on the virtual clock", function() assert.are.equal(1556704800, os.time()) end)
        """)
        try folder.put("spec/x_spec.lua", "it('is a spec', function() end)\n")
        let r = try OKitRun.run(["test", "-C", folder.path, "tests/clock_test.lua"])
        #expect(r.code == 0, "\(r.out) \(r.err)")
        #expect(r.out.contains("ok 1 - runs on the virtual clock") && r.out.contains("1 passed, 0 failed"), "\(r.out)")
        #expect(!r.err.contains("random seed") && !r.out.contains("random seed"), "\(r.err)")
    }
}

/// A `.busted` key okit-run test does not read is named on stderr with the closest key it reads; the run goes on
/// (a real project's `.busted` may set busted options okit does not have).
@Suite struct BustedUnreadKeyTests {
    @Test func anUnreadBustedKeyIsAWarningNamingTheClosestKey() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try TempFolder()
        try folder.put(".busted", "return { default = { ouput = \"TAP\", colours = true } }\n")
        try folder.put("spec/a_spec.lua", "it('passes', function() end)\n")
        let r = try OKitRun.run(["test", "-C", folder.path])
        #expect(r.code == 0, "\(r.out) \(r.err)")
        #expect(r.err.contains("okit-run test: warning: .busted, task \"default\": \"ouput\" is not read by okit-run test (did you mean \"output\"?); it is ignored"), "\(r.err)")
        #expect(r.err.contains("\"colours\" is not read by okit-run test"), "\(r.err)")
    }
}
