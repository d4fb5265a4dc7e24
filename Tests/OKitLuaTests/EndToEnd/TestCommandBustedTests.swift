import Foundation
import Testing
import OKitTestSupport

/// `okit-run test` with busted's options and vocabulary, as a person runs it: `--tags`, `--exclude-tags`,
/// `--shuffle [--seed N]`, `--list`, a failing spy assertion's TAP lines and a `finally` after a failure
/// (testing.md).
@Suite struct TestCommandBustedTests {
    /// A folder with the given test files; removed with it.
    func tests(_ files: [String: String]) throws -> TempFolder {
        let folder = try TempFolder()
        for (name, source) in files { try folder.put("tests/\(name)", source) }
        return folder
    }

    func run(_ args: [String], in folder: TempFolder) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        return try OKitRun.run(["test", folder.url.appendingPathComponent("tests").path] + args)
    }

    /// The TAP lines `ok N - name` without their numbers: the names in running order.
    func names(_ out: String) -> [String] {
        out.split(separator: "\n").compactMap { line in
            guard let dash = line.range(of: " - "), line.hasPrefix("ok ") || line.hasPrefix("not ok ") else { return nil }
            return String(line[dash.upperBound...])
        }
    }

    static let tagged = """
    describe("shop", function()
      it("adds a book", function() end)
      it("imports a catalogue #slow", function() end)
      describe("#network", function()
        it("syncs", function() end)
        it("syncs a big shop #slow", function() end)
      end)
    end)
    """

    @Test func tagsSelectAndExcludeTestsByTheirHashWords() throws {
        let folder = try tests(["tags_test.lua": Self.tagged])
        let slow = try run(["--tags", "slow"], in: folder)
        #expect(names(slow.out) == ["shop imports a catalogue #slow", "shop #network syncs a big shop #slow"], "\(slow.out)")
        let some = try run(["--tags", "#network,nothing"], in: folder)
        #expect(names(some.out) == ["shop #network syncs", "shop #network syncs a big shop #slow"], "\(some.out)")
        let fast = try run(["--exclude-tags", "slow", "--exclude-tags", "network"], in: folder)
        #expect(names(fast.out) == ["shop adds a book"], "\(fast.out)")
        #expect(fast.out.hasSuffix("1 passed, 0 failed\n"))
        let none = try run(["--tags", "slo"], in: folder)
        #expect(names(none.out).isEmpty, "a tag is a whole word: \(none.out)")
    }

    @Test func aCModuleASpecTakesUnderPcallIsRefusedWithAWordOnce() throws {
        // lua_cliargs' spec: `local hasyaml = pcall(require, "yaml")` declares its yaml test only with the module.
        let folder = try TempFolder()
        try folder.put("native.so", "not loaded")
        for name in ["a_spec.lua", "b_spec.lua"] {
            try folder.put("spec/\(name)", """
            describe("optional", function()
              local has = pcall(require, "native")
              if has then it("needs native", function() end) end
              it("runs without it", function() assert.is_false(has) end)
            end)
            """)
        }
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let r = try OKitRun.run(["test", "-C", folder.path, "-o", "TAP"])
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(names(r.out) == ["optional runs without it", "optional runs without it"], "\(r.out)")
        let said = r.err.components(separatedBy: "\n").filter { $0.contains("okit-run test: note: require \"native\" found the C module ./native.so") }
        #expect(said.count == 1, "said once for the run: \(r.err)")
    }

    @Test func anAppGivenAsATestFileGetsANoteSayingWhatToRun() throws {
        let folder = try TempFolder()
        let app = try folder.put("shop/app.lua", "local okit = require \"okit\"\nokit.entity(\"A\", { n = \"string\" })\nokit.model(\"A\")\nokit.app {}\n")
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let r = try OKitRun.run(["test", app.path])
        #expect(r.err.contains("okit-run test: note: \(app.path) is an app, not a test file (*_test.lua, *_spec.lua)"), "\(r.err)")
        #expect(r.err.contains("run its tests with okit-run test"), "\(r.err)")
    }

    static let many = (1...3).map { b in
        "describe(\"block \(b)\", function()\n" + (1...6).map { "  it(\"test \($0)\", function() end)\n" }.joined() + "end)\n"
    }.joined()

    @Test func shuffleWithASeedRepeatsItsOrderAndWithoutOnePrintsTheSeed() throws {
        let folder = try tests(["a_test.lua": Self.many, "b_test.lua": Self.many.replacingOccurrences(of: "block", with: "group")])
        let plain = names(try run([], in: folder).out)
        let first = try run(["--shuffle", "--seed", "42"], in: folder)
        let again = try run(["--seed", "42"], in: folder)
        #expect(first.code == 0)
        #expect(first.out.hasPrefix("# shuffled with --seed 42\n"))
        #expect(names(first.out) == names(again.out))
        #expect(names(first.out) != plain)
        #expect(Set(names(first.out)) == Set(plain), "every test runs once")
        // tests stay inside their describe block
        let blocks = names(first.out).map { $0.components(separatedBy: " test ")[0] }
        #expect(blocks.count == 36 && Set(blocks).count == 6)
        for b in Set(blocks) {
            let at = blocks.indices.filter { blocks[$0] == b }
            #expect(at.last! - at.first! == 5, "block \(b) runs in one piece: \(blocks)")
        }
        let random = try run(["--shuffle"], in: folder)
        let seedLine = try #require(random.out.split(separator: "\n").first.map(String.init))
        let seed = try #require(seedLine.split(separator: " ").last.map(String.init))
        #expect(seedLine == "# shuffled with --seed \(seed)")
        #expect(names(try run(["--seed", seed], in: folder).out) == names(random.out), "the printed seed repeats the run")
    }

    @Test func listNamesTheTestsWithoutRunningThem() throws {
        let folder = try tests(["list_test.lua": """
        describe("shop", function()
          it("adds a book #slow", function() error("ran") end)
          it("deletes a book", function() error("ran") end)
          pending("sells a book")
        end)
        """])
        let all = try run(["--list"], in: folder)
        #expect(all.code == 0, "\(all.err)")
        let lines = all.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(all.out)")
        #expect(lines[0].hasSuffix("tests/list_test.lua:2: shop adds a book #slow"), "\(lines)")
        #expect(lines[1].hasSuffix("tests/list_test.lua:3: shop deletes a book"))
        #expect(lines[2].hasSuffix("tests/list_test.lua:4: shop sells a book # pending"))
        #expect(!all.out.contains("passed"), "nothing ran")
        let slow = try run(["--list", "--tags", "slow"], in: folder)
        #expect(slow.out.split(separator: "\n").count == 1 && slow.out.contains("adds a book #slow"))
        let shuffled = try run(["--list", "--seed", "5"], in: folder)
        #expect(shuffled.out.hasPrefix("# shuffled with --seed 5\n"), "\(shuffled.out)")
        #expect(shuffled.out.split(separator: "\n").count == 4)
        let filtered = try run(["--list", "--filter", "deletes"], in: folder)
        #expect(filtered.out.split(separator: "\n").count == 1 && filtered.out.contains("deletes a book"))
    }

    @Test func aFailingSpyAssertionAndAFinallyAfterAFailureShowInTAP() throws {
        let folder = try tests(["spy_test.lua": """
        local shop = { save = function(self, name) return true end }
        describe("shop", function()
          it("saves the book", function()
            local save = spy.on(shop, "save")
            shop:save("Emma")
            assert.spy(save).was.called_with(shop, "Dune")
          end)
          it("cleans up after a failure", function()
            finally(function() print("cleaned up") end)
            assert.is_true(false)
          end)
        end)
        """])
        let r = try run([], in: folder)
        #expect(r.code == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("not ok 1 - shop saves the book"), "\(r.out)")
        #expect(lines.contains { $0.hasPrefix("# ") && $0.hasSuffix("tests/spy_test.lua:6") }, "\(r.out)")
        #expect(lines.contains("# assert.called_with failed"))
        #expect(lines.contains("# expected: a call with ({save = spy(save)}, \"Dune\")"), "\(r.out)")
        #expect(lines.contains("#   actual: 1 call: ({save = spy(save)}, \"Emma\")"), "\(r.out)")
        #expect(lines.contains("not ok 2 - shop cleans up after a failure"))
        #expect(r.err.contains("# cleaned up"), "finally ran: \(r.err)")
        #expect(lines.last == "0 passed, 2 failed")
    }

    @Test func wrongOptionsExitWith2AndAFileThatDoesNotLoadFailsTheList() throws {
        let folder = try tests(["x_test.lua": "it('x', function() end)", "y_test.lua": "it('y', function()\n"])
        #expect(try run(["--seed", "minus one"], in: folder).code == 2)
        let negative = try run(["--seed", "-3"], in: folder)
        #expect(negative.code == 2)
        #expect(negative.err.contains("--seed must be a non-negative integer"), "\(negative.err)")
        for option in ["--tags", "--exclude-tags"] {
            let noTag = try run([option, ",,#"], in: folder)
            #expect(noTag.code == 2)
            #expect(noTag.err.contains("\(option) names no tag"), "\(noTag.err)")
        }
        let broken = try run(["--list"], in: folder)
        #expect(broken.code == 1)
        #expect(broken.out.contains("tests/x_test.lua:1: x"), "\(broken.out)")
        #expect(broken.out.contains("tests/y_test.lua: cannot list its tests: "), "\(broken.out)")
    }
}
