import Foundation
import Testing
import OKitTestSupport

/// Where an outside comparison of `okit-run test` with busted 2.1.1 on the same projects found them apart (testing.md,
/// "Busted projects"): `--filter` as a Lua pattern only, applied as busted applies it; busted's shuffled order for a
/// seed; `arg`; a declaration while a test runs. Each expectation is what `busted` printed on the same files.
@Suite struct BustedProbeParityTests: BustedProjectSuite {
    /// The TAP lines' names in running order (`# SKIP name` for a pending test, as busted prints it).
    func names(_ out: String) -> [String] {
        out.split(separator: "\n").compactMap { line in line.firstMatch(of: /^(?:ok|not ok) \d+ - (.*)$/).map { String($0.1) } }
    }

    static let calc = ["spec/f_spec.lua": """
        describe("calc", function()
          it("f(x) works", function() end)
          it("fx works", function() end)
          it("100% done", function() end)
        end)
        """]

    @Test func filtersAreLuaPatternsOnlyAsBustedMatchesThem() throws {
        let folder = try project(Self.calc)
        let pattern = try run(folder, ["--filter", "f(x)"])
        #expect(pattern.code == 0 && names(pattern.out) == ["calc fx works"], "not the plain text: \(pattern.out)")
        let percent = try run(folder, ["--filter", "100% done"])
        #expect(percent.code == 0 && percent.out == "1..0\n", "\(percent.out)")
        let out = try run(folder, ["--filter-out", "f(x)"])
        #expect(names(out.out) == ["calc f(x) works", "calc 100% done"], "\(out.out)")
        let special = try run(folder, ["--filter", "f%(x%)"])
        #expect(names(special.out) == ["calc f(x) works"], "\(special.out)")
    }

    @Test func aWrongFilterPatternFailsWhereBustedDeclaresTheTest() throws {
        let folder = try project(Self.calc.merging(["spec/g_spec.lua": "it(\"top\", function() end)\n"]) { $1 })
        let r = try run(folder, ["--filter", "("])
        // busted: `not ok 1 - calc`, `# spec/f_spec.lua @ 1`, its message placed in its own filter_loader.lua:51
        #expect(r.code == 1, "\(r.err)")
        #expect(r.out.hasPrefix("not ok 1 - calc\n# spec/f_spec.lua @ 1\n# Failure message: spec/f_spec.lua:2: unfinished capture\n"),
                "\(r.out)")
        #expect(r.out.contains("not ok 2 - suite spec/g_spec.lua\n# spec/g_spec.lua @ 1\n# Failure message: spec/g_spec.lua:1: unfinished capture\n"),
                "a test at a file's top level fails the file: \(r.out)")
        let malformed = try run(folder, ["--filter-out", "%"])
        #expect(malformed.code == 1 && malformed.out.contains("# Failure message: spec/f_spec.lua:1: malformed pattern (ends with '%')"),
                "--filter-out is matched against blocks too: \(malformed.out)")
    }

    static let shuffled = [
        "spec/a_spec.lua": """
        describe("a", function()
          setup(function() end)
          before_each(function() end)
          for i = 1, 6 do it("t" .. i, function() end) end
          describe("inner", function()
            after_each(function() end)
            it("x", function() end)
            it("y", function() end)
            pending("z")
          end)
        end)
        """,
        "spec/b_spec.lua": "for i = 1, 4 do it(\"b\" .. i, function() end) end\n",
        "spec/c_spec.lua": "describe(\"c\", function() randomize(3); for i = 1, 5 do it(\"r\" .. i, function() end) end end)\n",
        "spec/d_spec.lua": "it(\"d\", function() end)\n",
    ]

    @Test func aSeedShufflesFilesAndTestsIntoBustedsOrder() throws {
        let folder = try project(Self.shuffled)
        let both = try run(folder, ["--shuffle", "--seed", "42"])
        #expect(names(both.out) == ["a t5", "a t3", "a t1", "a t6", "a inner y", "# SKIP a inner z", "a inner x", "a t2", "a t4",
                                    "c r3", "c r4", "c r1", "c r5", "c r2", "d", "b1", "b3", "b4", "b2"], "\(both.out)")
        let files = try run(folder, ["--shuffle-files", "--seed", "9"])
        #expect(names(files.out) == ["c r3", "c r4", "c r1", "c r5", "c r2", "b1", "b2", "b3", "b4", "a t1", "a t2", "a t3", "a t4",
                                     "a t5", "a t6", "a inner x", "a inner y", "# SKIP a inner z", "d"], "\(files.out)")
        let filtered = try run(folder, ["--shuffle", "--seed", "42", "--filter", "t[135]"])
        #expect(names(filtered.out) == ["a t1", "a t5", "a t3"], "a test left out takes no place: \(filtered.out)")
        let listed = try run(folder, ["-l", "--shuffle", "--seed", "42"])
        let order = listed.out.split(separator: "\n").map { $0.replacingOccurrences(of: #"^spec[^ ]*: "#, with: "", options: .regularExpression) }
        let expected = names(both.out).map { $0.replacingOccurrences(of: "# SKIP ", with: "") + ($0.hasPrefix("# SKIP") ? " # pending" : "") }
        #expect(order == expected, "--list in the same order: \(listed.out)")
        let configured = try project(Self.shuffled.merging([".busted": "return { default = { shuffle = true, seed = 42 } }"]) { $1 })
        #expect(names(try run(configured, []).out) == names(both.out), ".busted's shuffle and seed")
    }

    @Test func randomizeDrawsAndSortingAreBusteds() throws {
        let folder = try project(Self.shuffled.merging(["spec/r_spec.lua": """
            describe("d", function()
              it("a", function() print("a", math.random(1000)) end)
              it("b", function() print("b", math.random(1000)) end)
              describe("e", function() it("c", function() print("c", math.random(1000)) end) end)
            end)
            """]) { $1 })
        let plain = try run(folder, ["spec/c_spec.lua"])
        #expect(names(plain.out) == ["c r3", "c r4", "c r1", "c r5", "c r2"], "randomize(3): \(plain.out)")
        let draws = try run(folder, ["spec/r_spec.lua", "--shuffle", "--seed", "5"])
        #expect(draws.out == "a\t424\nok 1 - d a\nb\t510\nok 2 - d b\nc\t843\nok 3 - d e c\n1..3\n",
                "math.random after busted's math.randomseed: \(draws.out)")
    }

    @Test func argIsBustedsWithTheCommandLineAfterTest() throws {
        let folder = try project(["spec/arg_spec.lua": """
            it("arg", function()
              local t = {}
              for i = -1, #arg do t[#t+1] = i .. "=" .. tostring(arg[i]) end
              print(table.concat(t, " "))
            end)
            """])
        let r = try run(folder, ["-o", "TAP", "--filter", "arg"])
        // busted: -1=lua 0=/usr/bin/busted 1=-o 2=TAP 3=--filter 4=arg (after -C DIR here)
        #expect(r.out.hasPrefix("-1=lua 0=busted 1=-C 2=\(folder.path) 3=-o 4=TAP 5=--filter 6=arg\n"), "\(r.out)")
    }

    @Test func declaringWhileATestRunsSaysBustedsWords() throws {
        let folder = try project(["spec/n_spec.lua": """
            it("outer", function()
              it("inner", function() end)
            end)
            it("block", function() context("x", function() end) end)
            it("hook", function() lazy_setup(function() end) end)
            it("order", function() randomize() end)
            """])
        let r = try run(folder, [])
        #expect(r.out.hasPrefix("not ok 1 - outer\n# spec/n_spec.lua @ 1\n# Failure message: spec/n_spec.lua:2: 'it' not supported inside current context block\n"),
                "\(r.out)")
        for (line, word) in [(4, "context"), (5, "lazy_setup"), (6, "randomize")] {
            #expect(r.out.contains("# Failure message: spec/n_spec.lua:\(line): '\(word)' not supported inside current context block\n"), "\(r.out)")
        }
    }
}
