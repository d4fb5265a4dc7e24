import Foundation
import Testing
import OKitTestSupport

/// busted 2.1.1's options in `okit-run test` (testing.md, "busted's options"): each done as busted does it, or
/// refused with a line naming it; the same tag selected and left out; `-o json`'s traces and names, a pending
/// test's place, `--list` of a block that breaks and `--repeat` in the terminal output, as busted printed them.
@Suite struct BustedOptionTests {
    static let spec = ["spec/a_spec.lua": """
        describe("zeta", function()
          it("b passes", function() end)
          it("a fails", function() assert.equal(1, 2) end)
          it("c pending", function() pending("later") end)
          pending("d declared")
        end)
        describe("alpha", function()
          it("y", function() end)
          it("x", function() end)
        end)
        """, "spec/b_spec.lua": "it(\"b one\", function() end)\n"]

    func run(_ args: [String], _ files: [String: String] = spec) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try TempFolder()
        for (name, text) in files { try folder.put(name, text) }
        return try OKitRun.run(["test", "-C", folder.path] + BustedTAP.arguments(args.map { $0.replacingOccurrences(of: "$ROOT", with: folder.path) }, root: folder.url))
    }

    func names(_ out: String) -> [String] {
        out.split(separator: "\n").compactMap { line in line.firstMatch(of: /^(?:not )?ok \d+ - (.*)$/).map { String($0.1) } }
    }

    @Test func theSameTagSelectedAndLeftOutStopsTheRun() throws {
        for args in [["--tags", "x", "--exclude-tags", "x"], ["-t", "a,b", "--exclude-tags=c,#b"]] {
            let r = try run(args)
            #expect(r.code == 1 && r.out.isEmpty, "\(r.out)")
            #expect(r.err.hasPrefix("okit-run test: cannot use --tags and --exclude-tags for the same tags ("), "\(r.err)")
        }
        let busted = try run(["--tags", "slow"], Self.spec.merging([".busted": "return { default = { ['exclude-tags'] = 'slow' } }"]) { $1 })
        #expect(busted.code == 1 && busted.err.contains("for the same tags (slow)"), "\(busted.err)")
    }

    @Test func orderKeepGoingAndPendingOptionsDoAsBustedDoes() throws {
        let sorted = try run(["--sort-tests"])
        #expect(names(sorted.out) == ["alpha x", "alpha y", "zeta a fails", "zeta b passes", "# SKIP spec/a_spec.lua:4: later",
                                      "# SKIP zeta d declared", "b one"], "\(sorted.out)")
        #expect(names(try run(["--sort"]).out) == names(sorted.out))
        let configured = Self.spec.merging([".busted": "return { default = { ['sort-tests'] = true, ['keep-going'] = false } }"]) { $1 }
        #expect(names(try run([], configured).out) == ["alpha x", "alpha y", "zeta a fails"], ".busted's flags")
        let stop = try run(["--no-keep-going"])
        #expect(names(stop.out) == ["zeta b passes", "zeta a fails"] && stop.out.hasSuffix("1..2\n"), "\(stop.out)")
        #expect(names(try run(["-k"]).out).count == 7)
        let quiet = try run(["--suppress-pending"])
        #expect(names(quiet.out) == ["zeta b passes", "zeta a fails", "alpha y", "alpha x", "b one"], "\(quiet.out)")
        #expect(quiet.err.contains("4 passed, 1 failed\n"), "\(quiet.err)")
        let files = try run(["--shuffle-files", "--seed", "3"])
        #expect(names(files.out).filter { $0 != "b one" } == names(try run([]).out).filter { $0 != "b one" },
                "the tests of a file keep their order: \(files.out)")
        #expect(files.err.contains("# shuffled with --seed 3"), "\(files.err)")
        let accepted = try run(["--no-verbose", "--no-shuffle", "--no-auto-insulate", "--lazy", "-R", "--ignore-lua",
                                "--lang", "en", "--loaders", "lua", "--no-enable-sound", "--sort-files"])
        #expect(accepted.code == 1 && names(accepted.out).count == 7, "\(accepted.err)")
    }

    @Test func deferPrintLeavesTheMarksAndPutsGtestsMessagesLast() throws {
        let terminal = try run(["-o", "plainTerminal", "--defer-print"])
        #expect(terminal.out.hasPrefix("\n4 successes / 1 failure / 0 errors / 2 pending"), "\(terminal.out)")
        let gtest = try run(["-o", "gtest", "--defer-print"])
        #expect(gtest.out.contains("[ RUN      ] spec/a_spec.lua @ 3: zeta a fails\n[  FAILED  ]"), "\(gtest.out)")
        #expect(gtest.out.contains("[  FAILED  ] spec/a_spec.lua @ 3: zeta a fails\nspec/a_spec.lua:3: assert.equal failed"))
        #expect(gtest.out.contains("[ SKIPPED  ] spec/a_spec.lua @ 4: zeta c pending\nspec/a_spec.lua:4: later\n"))
    }

    @Test func statementsConfigFilesPathsAndHelperOptionsAreBustedsOwn() throws {
        let files = ["spec/e_spec.lua": "it('sees', function() assert.equal('set', SET); assert.equal('a b', HELPER) end)\n",
                     "spec/deeper/d_spec.lua": "it('deeper', function() end)\n",
                     "h.lua": "HELPER = table.concat(arg, ' ')\n", "conf.lua": "return { default = { helper = 'h.lua' } }",
                     "native/mod.so": "not loaded", "spec/c_spec.lua": "it('c', function() require('mod') end)\n"]
        let r = try run(["-e", "SET = 'set'", "-f", "$ROOT/conf.lua", "-Xhelper", "a,b", "--no-recursive", "--cpath", "./native/?.so"], files)
        #expect(names(r.out) == ["c", "sees"], "\(r.out) \(r.err)")
        #expect(r.out.contains("C module (./native/mod.so)"), "--cpath names where the refused module is: \(r.out)")
        let missing = try run(["-f", "$ROOT/nope.lua"], files)
        #expect(missing.code == 1 && missing.err.contains("--config-file ") && missing.err.contains("nope.lua: no such file"),
                "busted's exit code: \(missing.err)")
        let version = try run(["--version"])
        #expect(version.code == 0 && version.out.hasPrefix("okit-run test (okit ") && version.out.split(separator: "\n").count == 1)
    }

    @Test func junitXoutputWritesTheFileAndTheRestIsRefusedByName() throws {
        let folder = try TempFolder()
        let junit = try run(["-o", "junit", "-Xoutput", folder.path + "/report.xml"])
        #expect(junit.out.isEmpty, "busted's junit writes the file only: \(junit.out)")
        #expect(try String(contentsOfFile: folder.path + "/report.xml", encoding: .utf8).contains("<testsuites"))
        #expect(try run(["-o", "utfTerminal", "-Xoutput", "--plain"]).code == 1)
        let refused: [([String], String)] = [
            (["--lang", "de"], "--lang de is not supported"), (["--loaders", "moonscript"], "--loaders moonscript is not supported"),
            (["-s"], "-s/--enable-sound is not supported"), (["--coverage-config-file", "c"], "--coverage-config-file is not supported"),
            (["-o", "gtest", "-Xoutput", "--color"], "-Xoutput --color is not supported"),
            (["-Xoutput", "x.xml"], "-Xoutput x.xml is not read by this output"),
        ]
        for (args, message) in refused {
            let r = try run(args)
            #expect(r.code == 1 && r.err.hasPrefix("okit-run test: " + message) && r.err.split(separator: "\n").count == 1, "\(args): \(r.err)")
        }
    }

    @Test func jsonTracesPendingPlacesBrokenListsAndRepeatsAreBusteds() throws {
        let files = ["spec/j_spec.lua": """
            describe("outer", function()
              it("fails later", function()
                local x = 1
                assert.equal(2, x)
              end)
              it("stops at pending", function()
                pending("later")
              end)
            end)
            """]
        let json = try run(["-o", "json"], files)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let failure = try #require((object["failures"] as? [Any])?.first as? [String: Any])
        #expect((failure["trace"] as? [String: Any])?["currentline"] as? Int == 4, "the failing line: \(json.out)")
        let element = try #require(failure["element"] as? [String: Any])
        #expect(element["name"] as? String == "fails later" && (element["trace"] as? [String: Any])?["currentline"] as? Int == 2)
        let pending = try #require((object["pendings"] as? [Any])?.first as? [String: Any])
        #expect((pending["trace"] as? [String: Any])?["currentline"] as? Int == 7, "the pending() call: \(json.out)")
        let terminal = try run(["-o", "plainTerminal", "--repeat", "2"], files)
        #expect(terminal.out.hasPrefix("\nRepeating all tests (run 1 of 2) . . .\n\n-.\n"), "\(terminal.out)")
        #expect(terminal.out.contains("\nPending -> spec/j_spec.lua @ 7\nouter stops at pending\n"), "\(terminal.out)")
        let list = try run(["-l"], ["spec/l_spec.lua": """
            describe("broken block", function()
              it("before break", function() end)
              local x = nil
              x.y = 1
            end)
            describe("fine", function() it("listed", function() end) end)
            """])
        #expect(list.code == 1, "\(list.out)")
        #expect(list.out.contains("spec/l_spec.lua:1: broken block: cannot list its tests: spec/l_spec.lua:4: attempt to index"))
        #expect(list.out.contains("spec/l_spec.lua:6: fine listed") && !list.out.contains("before break"), "\(list.out)")
    }
}
