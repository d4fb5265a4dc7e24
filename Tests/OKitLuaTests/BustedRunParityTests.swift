import Foundation
import Testing
import OKitTestSupport

/// Where `okit-run test` differed from busted 2.1.1 run on the same specs (testing.md, "Busted projects"): okit's
/// closing line after busted's own summary, a `-p` that finds nothing named, `.busted`'s `seed`, `repeat` and
/// `Xoutput` read as busted reads them, and the files given run in busted's order (one given twice runs twice).
/// Each expectation is what `busted` printed on the same files.
@Suite struct BustedRunParityTests {
    static let files = [
        "spec/a_spec.lua": """
        describe("a", function()
          it("passes", function() end)
          it("fails", function() assert.equal(1, 2) end)
        end)
        """,
        "spec/b_spec.lua": "it(\"b one\", function() end)\n",
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

    /// stdout and stderr in one stream, in the order they were written (as a terminal shows them).
    func runMerged(_ folder: TempFolder, _ args: [String]) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        return try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>&1", OKitRun.binary.path, "test", "-C", folder.path] + BustedTAP.arguments(args, root: folder.url))
    }

    /// The TAP lines `ok N - name` / `not ok N - name` as `ok name` / `not ok name`.
    func statuses(_ out: String) -> [String] {
        out.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^(ok|not ok) \d+ - (.*)$/).map { "\($0.1) \($0.2)" }
        }
    }

    @Test func okitsClosingLineComesAfterBustedsSummary() throws {
        let folder = try project()
        for output in ["plainTerminal", "utfTerminal", "gtest", "TAP"] {
            let r = try runMerged(folder, ["--seed", "1", "-o", output])
            #expect(r.code == 1 && r.out.hasPrefix("# random seed 1 "), "\(output): \(r.out)")
            #expect(r.out.hasSuffix("\n2 passed, 1 failed\n"), "okit's line last, after busted's output: \(output): \(r.out)")
            #expect(r.out.components(separatedBy: "2 passed, 1 failed").count == 2, "\(r.out)")
        }
        let terminal = try runMerged(folder, ["--seed", "1", "-o", "plainTerminal"]).out
        #expect(terminal.contains("2 successes / 1 failure / 0 errors / 0 pending : "), "\(terminal)")
        #expect(terminal.contains("spec/a_spec.lua:3: assert.equal failed"), "\(terminal)")
    }

    @Test func aPatternThatFindsNothingIsNamed() throws {
        let folder = try project()
        let r = try run(folder, ["spec", "-p", "nomatch"])
        #expect(r.code == 1, "\(r.out)")
        #expect(r.err.contains("found in spec (spec files: .lua files whose name matches the Lua pattern \"nomatch\"; "), "\(r.err)")
        #expect(!r.err.contains("spec/**/*_spec.lua") && r.err.hasSuffix(")\n0 passed, 1 failed\n"), "\(r.err)")
        #expect(r.out == "not ok 1 - \n# Failure message: No test files found matching Lua pattern: nomatch\n1..1\n", "busted's error: \(r.out)")
        let two = try run(folder, ["-p", "x_spec", "--pattern", "y_spec", "--exclude-pattern", "z"])
        #expect(two.err.contains("in spec (spec files: .lua files whose name matches the Lua pattern \"x_spec\" or \"y_spec\" and not \"z\""),
                "\(two.err)")
        let configured = try run(try project([".busted": "return { default = { pattern = 'nomatch' } }"]), [])
        #expect(configured.code == 1 && configured.err.contains("the Lua pattern \"nomatch\""), "\(configured.err)")
        let none = try run(try TempFolder(), [])
        #expect(none.code == 1 && none.err == "okit-run test: no *_test.lua or spec files (spec/**/*_spec.lua) found\n", "\(none.err)")
    }

    @Test func bustedFilesSeedRepeatAndXoutputAreRead() throws {
        let random = ["spec/r_spec.lua": "it(\"draws\", function() print('drew ' .. math.random(1000000)) end)\n"]
        let given = try run(try project(random), ["--seed", "7"])
        let configured = try run(try project(random.merging([".busted": "return { default = { seed = 7 } }"]) { $1 }), [])
        #expect(configured.code == 1 && configured.out == given.out, "the same draws as --seed 7: \(configured.out)")
        #expect(configured.err.contains("# random seed 7 ") && !configured.err.contains("warning"), "\(configured.err)")
        let text = try run(try project(random.merging([".busted": "return { default = { seed = '7' } }"]) { $1 }), [])
        #expect(text.out == given.out, "busted's tonumber: \(text.err)")
        let wins = try run(try project(random.merging([".busted": "return { default = { seed = 7 } }"]) { $1 }), ["--seed", "8"])
        #expect(wins.err.contains("# random seed 8 "), "the command line wins: \(wins.err)")

        let twice = try run(try project([".busted": "return { default = { ['repeat'] = 2 } }"]), [])
        #expect(statuses(twice.out) == ["ok a passes", "not ok a fails", "ok b one", "ok a passes", "not ok a fails", "ok b one"],
                "\(twice.out)")
        #expect(twice.err.contains("2 passed, 1 failed\n") && !twice.err.contains("warning"), "\(twice.err)")
        let once = try run(try project([".busted": "return { default = { ['repeat'] = 2 } }"]), ["--repeat", "1"])
        #expect(statuses(once.out).count == 3, "the command line wins: \(once.out)")

        let report = try project([".busted": "return { default = { output = 'junit', Xoutput = 'report.xml' } }"])
        let junit = try run(report, [])
        #expect(junit.code == 1 && junit.out.isEmpty, "busted's junit writes the file only: \(junit.out) \(junit.err)")
        #expect(try String(contentsOf: report.url.appendingPathComponent("report.xml"), encoding: .utf8).contains("<testsuites"))
        let plain = try run(try project([".busted": "return { default = { output = 'gtest', Xoutput = { '--plain' } } }"]), [])
        #expect(plain.code == 1 && plain.out.hasPrefix("[==========]"), "\(plain.err)")
        let refused = try run(try project([".busted": "return { default = { Xoutput = 'x.xml' } }"]), [])
        #expect(refused.code == 1 && refused.err.hasPrefix("okit-run test: .busted's Xoutput x.xml is not read by this output: "),
                "\(refused.err)")
    }

    @Test func wrongSeedsAndRepeatsInBustedStopTheRun() throws {
        let seed = try run(try project([".busted": "return { default = { seed = -1 } }"]), [])
        #expect(seed.code == 1 && seed.err.contains(".busted, task \"default\": seed must be a non-negative integer such as seed = 42, got number -1"),
                "\(seed.err)")
        let rounds = try run(try project([".busted": "return { default = { ['repeat'] = 'twice' } }"]), [])
        #expect(rounds.code == 1 && rounds.err.contains("repeat must be 1 or more, such as [\"repeat\"] = 3, got \"twice\""), "\(rounds.err)")
    }

    @Test func filesGivenRunInBustedsOrderAndOneGivenTwiceRunsTwice() throws {
        let folder = try project()
        let twice = try run(folder, ["spec/b_spec.lua", "spec/b_spec.lua"])
        #expect(statuses(twice.out) == ["ok b one", "ok b one"] && twice.out.hasSuffix("1..2\n"), "\(twice.out)")
        let order = try run(folder, ["spec/b_spec.lua", "spec/a_spec.lua"])
        #expect(statuses(order.out) == ["ok b one", "ok a passes", "not ok a fails"], "as given: \(order.out)")
        let overlap = try run(folder, ["spec/b_spec.lua", "spec"])
        #expect(statuses(overlap.out) == ["ok b one", "ok a passes", "not ok a fails", "ok b one"], "\(overlap.out)")
        let sorted = try run(folder, ["--sort-files", "spec/b_spec.lua", "spec/a_spec.lua", "spec/b_spec.lua"])
        #expect(statuses(sorted.out) == ["ok a passes", "not ok a fails", "ok b one", "ok b one"], "\(sorted.out)")
        let listed = try run(folder, ["-l", "spec/b_spec.lua", "spec/a_spec.lua"])
        #expect(listed.out == "spec/b_spec.lua:1: b one\nspec/a_spec.lua:2: a passes\nspec/a_spec.lua:3: a fails\n", "\(listed.out)")
    }

    @Test func aFailureInAShuffledBlockSaysTheSeed() throws {
        let folder = try project()
        let tap = try run(folder, ["--shuffle", "--seed", "5"])
        #expect(tap.out.contains("not ok 2 - a fails\n# spec/a_spec.lua @ 3\n# Random seed: 5\n# Failure message: spec/a_spec.lua:3: "),
                "\(tap.out)")
        let terminal = try run(folder, ["-o", "plainTerminal", "--shuffle-tests", "--seed", "5"])
        #expect(terminal.out.contains("Failure -> spec/a_spec.lua @ 3\na fails\nRandom seed: 5\nspec/a_spec.lua:3: "), "\(terminal.out)")
        let gtest = try run(folder, ["-o", "gtest", "--shuffle", "--seed", "5"])
        #expect(gtest.out.contains("[ RUN      ] spec/a_spec.lua @ 3: a fails\nRandom seed: 5\nspec/a_spec.lua:3: "), "\(gtest.out)")
        for args in [["--shuffle-files", "--seed", "5"], ["--shuffle", "--sort-tests", "--seed", "5"], []] {
            let r = try run(folder, args)
            #expect(r.code == 1 && !r.out.contains("Random seed"), "busted shows none: \(args): \(r.out)")
        }
        let file = try TempFolder()
        try file.put("spec/r_spec.lua", "randomize(3)\nit(\"a\", function() assert.equal(1, 2) end)\nit(\"b\", function() end)\n")
        let top = try run(file, [])
        #expect(top.out.contains(" - a\n# spec/r_spec.lua @ 2\n# Random seed: 3\n# Failure message: "),
                "randomize() in a file, as busted takes it: \(top.out) \(top.err)")
        #expect(top.code == 1 && top.out.hasSuffix("1..2\n"), "\(top.out)")
    }
}
