import Foundation
import Testing
import OKitTestSupport

/// What busted 2.1.1 reports before any test runs, and how it exits on a command line it refuses (testing.md, "Busted
/// projects"): no spec file found and a spec file that does not compile are errors in every output; an unknown
/// option, a `-f` file or `-r` task that is not there exit 1; an error's json trace is where it was raised. Each
/// expectation is what `busted` printed on the same files (its TAP and gtest outputs stop on these errors; okit's
/// keep a line for them).
@Suite struct BustedLoadParityTests: BustedProjectSuite {
    /// Seconds as busted's terminal output writes them, made `S`.
    func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #": [0-9.]+ seconds"#, with: ": S seconds", options: .regularExpression)
    }

    func json(_ out: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(out)")
    }

    @Test func noSpecFileFoundIsBustedsErrorInEachOutput() throws {
        let folder = try project(["spec/a_spec.lua": "it(\"a\", function() end)\n"])
        let terminal = try run(folder, ["-o", "plainTerminal", "-p", "nomatch"])
        #expect(terminal.code == 1 && timeless(terminal.out)
                == "\n0 successes / 0 failures / 1 error / 0 pending : S seconds\n\nError -> No test files found matching Lua pattern: nomatch\n\n",
                "\(terminal.out)")
        #expect(terminal.err.contains("okit-run test: no *_test.lua or spec files found in spec") && terminal.err.hasSuffix("0 passed, 1 failed\n"))
        let two = try run(folder, ["-o", "utfTerminal", "-p", "nomatch", "-p", "other"])
        #expect(two.out.hasSuffix("\nError → No test files found matching Lua pattern: \n\tnomatch\n\tother\n\n"), "\(two.out)")
        let excluded = try run(folder, ["-o", "plainTerminal", "--exclude-pattern", "."])
        #expect(excluded.code == 1 && excluded.out.contains("Error -> No test files found matching Lua pattern: _spec\n"), "\(excluded.out)")
        let object = try json(try run(folder, ["-o", "json", "-p", "nomatch"]).out)
        let error = try #require((object["errors"] as? [Any])?.first as? [String: Any])
        #expect(error["name"] as? String == "" && error["message"] as? String == "No test files found matching Lua pattern: nomatch")
        #expect(error["isError"] as? Bool == true && (error["trace"] as? [Any])?.isEmpty == true)
        #expect(((error["element"] as? [String: Any])?["trace"] as? [Any])?.isEmpty == true, "\(error)")
        let junit = try run(folder, ["-o", "junit", "-p", "nomatch"])
        #expect(junit.code == 1 && junit.out.contains("tests=\"0\" failures=\"0\" errors=\"1\""), "\(junit.out)")
        #expect(junit.out.contains("<testsuites name=\"okit\" tests=\"0\" failures=\"0\" errors=\"1\" skip=\"0\" time=\""))
        #expect(junit.out.contains("\">\n  <error "
            + "message=\"No test files found matching Lua pattern: nomatch\">No test files found matching Lua pattern: nomatch</error>\n"))
        let gtest = try run(folder, ["-o", "gtest", "-p", "nomatch"])
        #expect(gtest.out.hasPrefix("No test files found matching Lua pattern: nomatch\n[==========] Running tests from scanned files.\n"),
                "\(gtest.out)")
        let tap = try run(folder, ["-p", "nomatch"])
        #expect(tap.out == "not ok 1 - \n# Failure message: No test files found matching Lua pattern: nomatch\n1..1\n", "\(tap.out)")
        let flowProject = try run(try TempFolder(), ["-o", "json"])
        #expect(flowProject.code == 1 && !flowProject.out.contains("No test files"), "no busted project: okit's line only")
    }

    static let broken = [
        "spec/a_spec.lua": "it(\"a ok\", function() end)\n",
        "spec/b_spec.lua": "it(\"b broken\", function() end\n",
        "spec/c_spec.lua": "it(\"c ok\", function() end)\n",
    ]

    @Test func aSpecThatDoesNotCompileIsReportedAsBustedLoadsIt() throws {
        let folder = try project(Self.broken)
        let message = "spec/b_spec.lua:2: ')' expected (to close '(' at line 1) near <eof>"
        let terminal = try run(folder, ["-o", "plainTerminal"])
        #expect(terminal.code == 1 && timeless(terminal.out)
                == "*++\n2 successes / 0 failures / 1 error / 0 pending : S seconds\n\nError -> \(message)\nspec/b_spec.lua\n",
                "before the tests, named by its path: \(terminal.out)")
        let tap = try run(folder, [])
        #expect(tap.out == "not ok 1 - spec/b_spec.lua\n# Failure message: \(message)\nok 2 - a ok\nok 3 - c ok\n1..3\n", "\(tap.out)")
        let junit = try run(folder, ["-o", "junit"])
        #expect(junit.out.contains("errors=\"1\" skip=\"0\" time=\""), "\(junit.out)")
        #expect(junit.out.contains("\">\n  <error message=\"spec/b_spec.lua:2: ')' expected"), "\(junit.out)")
        #expect(!junit.out.contains("<testsuite name=\"spec/b_spec.lua\""), "a top-level error, as busted's: \(junit.out)")
        let object = try json(try run(folder, ["-o", "json"]).out)
        let error = try #require((object["errors"] as? [Any])?.first as? [String: Any])
        #expect(error["name"] as? String == "spec/b_spec.lua" && error["message"] as? String == message)
        let element = try #require(error["element"] as? [String: Any])
        #expect(element["descriptor"] as? String == "file" && element["name"] as? String == "spec/b_spec.lua", "\(element)")
        let gtest = try run(folder, ["-o", "gtest"])
        #expect(gtest.out.hasPrefix("\(message)\n[==========] Running tests from scanned files.\n"), "\(gtest.out)")
        #expect(gtest.out.contains("2 tests from 2 test files ran."), "\(gtest.out)")

        let more = try project(Self.broken.merging(["spec/d_spec.lua": "it(\"d ok\", function() end)\n",
                                                    "spec/e_spec.lua": "it(\"e ok\", function() end)\n",
                                                    "spec/f_spec.lua": "it(\"f ok\", function() end)\n"]) { $1 })
        let shuffled = try json(try run(more, ["-o", "json", "--shuffle", "--seed", "3"]).out)
        let order = (shuffled["successes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(order == ["d ok", "e ok", "a ok", "f ok", "c ok"], "the broken file takes no place in busted's shuffle: \(shuffled)")
    }

    @Test func aCommandLineBustedRefusesExitsOneInABustedProject() throws {
        let folder = try project(["spec/a_spec.lua": "it(\"a\", function() end)\n"])
        let unknown = try run(folder, ["--nosuchopt"])
        #expect(unknown.code == 1 && unknown.err.contains("Unknown option '--nosuchopt'"), "\(unknown.err)")
        let noFile = try run(folder, ["-f", "nofile.lua"])
        #expect(noFile.code == 1 && noFile.err.contains("nofile.lua: no such file"), "\(noFile.err)")
        let noBusted = try run(folder, ["-r", "nosuch"])
        #expect(noBusted.code == 0 && noBusted.out.contains("ok 1 - a"), "no .busted: -r changes nothing: \(noBusted.err)")
        try folder.put(".busted", "return { default = {} }")
        let noTask = try run(folder, ["-r", "nosuch"])
        #expect(noTask.code == 1 && noTask.err.contains("the .busted file has no task \"nosuch\""), "\(noTask.err)")
        let elsewhere = try run(try TempFolder(), ["--nosuchopt"])
        #expect(elsewhere.code == 2, "outside a busted project a wrong argument stays okit-run's usage error")
        let named = try OKitRun.run(["test", folder.path, "--nosuchopt"])
        #expect(named.code == 1, "a busted project named as ROOT decides as -C does: \(named.err)")
    }

    @Test func anErrorsJSONTraceIsWhereItWasRaised() throws {
        let folder = try project([
            "mod.lua": "local M = {}\nfunction M.f() local x = nil; return x.y end\nreturn M\n",
            "spec/e_spec.lua": "local mod = require \"mod\"\nit(\"calls the module\", function()\n  mod.f()\nend)\n",
        ])
        let object = try json(try run(folder, ["-o", "json"]).out)
        let error = try #require((object["errors"] as? [Any])?.first as? [String: Any])
        let trace = try #require(error["trace"] as? [String: Any])
        // busted: ./mod.lua 2 | ./mod.lua:2: attempt to index a nil value (local 'x')
        #expect(trace["short_src"] as? String == "./mod.lua" && trace["currentline"] as? Int == 2, "\(error)")
        #expect(error["message"] as? String == "./mod.lua:2: attempt to index a nil value (local 'x')")
        let element = try #require(error["element"] as? [String: Any])
        #expect((element["trace"] as? [String: Any])?["short_src"] as? String == "spec/e_spec.lua", "the element is where the test is declared")
    }
}
