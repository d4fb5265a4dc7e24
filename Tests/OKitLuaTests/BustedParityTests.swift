import Foundation
import Testing
import OKitTestSupport

/// What an outside comparison of 18 real projects under busted 2.1.1 and okit found (testing.md, "Busted
/// projects"): several `--filter`s, registered assertions named with a modifier word and luassert's formatting of
/// their messages, luassert's `same`, `matches`, `has_error` and `error_matches`, a plain `assert` failing (not
/// erroring) in a spec, and `print` and `io.write` on stdout in order. Each expectation is what `busted` printed.
@Suite struct BustedParityTests {
    func run(_ files: [String: String], _ args: [String] = []) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try TempFolder()
        for (name, text) in files { try folder.put(name, text) }
        return try OKitRun.run(["test", "-C", folder.path, "--seed", "1"] + BustedTAP.arguments(args, root: folder.url))
    }

    /// The TAP lines `ok N - name` / `not ok N - name` as `ok name` / `not ok name`.
    func statuses(_ out: String) -> [String] {
        out.split(separator: "\n").compactMap { line in
            guard let m = line.firstMatch(of: /^(ok|not ok) \d+ - (.*)$/) else { return nil }
            return "\(m.1) \(m.2)"
        }
    }

    static let greek = ["spec/f_spec.lua": """
        describe("f", function()
          it("alpha #x", function() end)
          it("beta #y", function() end)
          it("gamma #z", function() end)
        end)
        """]

    @Test func everyFilterGivenSelectsAsBustedsDo() throws {
        let twice = try run(Self.greek, ["--filter", "alpha", "--filter", "beta"])
        #expect(statuses(twice.out) == ["ok f alpha #x", "ok f beta #y"], "\(twice.out)")
        let busted = try run(Self.greek.merging([".busted": "return { default = { filter = { 'alpha', 'gamma' } } }"]) { $1 })
        #expect(statuses(busted.out) == ["ok f alpha #x", "ok f gamma #z"], "\(busted.out)")
        let out = try run(Self.greek, ["--filter", "a", "--filter-out", "beta", "--filter-out", "gamma"])
        #expect(statuses(out.out) == ["ok f alpha #x"], "\(out.out)")
        let tags = try run(Self.greek, ["--tags", "x,y", "--exclude-tags", "z"])
        #expect(statuses(tags.out) == ["ok f alpha #x", "ok f beta #y"], "\(tags.out)")
    }

    @Test func assertionsRegisteredWithAModifierWordAreFoundAndSayLuassertsMessage() throws {
        let r = try run(["spec/r_spec.lua": """
            local say = require("say")
            say:set("assertion.is_even.positive", "Expected %s to be even")
            say:set("assertion.is_even.negative", "Expected %s to not be even")
            say:set("assertion.never.positive", "Got %s and %s and %s")
            assert:register("assertion", "is_even", function(state, args) return args[1] % 2 == 0 end,
              "assertion.is_even.positive", "assertion.is_even.negative")
            assert:register("assertion", "has_prop", function(state, args) return args[1][args[2]] ~= nil end,
              "assertion.is_even.positive", "assertion.is_even.negative")
            assert:register("assertion", "never", function() return false end, "assertion.never.positive", "x")
            describe("r", function()
              it("finds them", function()
                assert.is_even(2); assert.is.even(2); assert.is_not.is_even(3); assert.has_prop({ a = 1 }, "a")
              end)
              it("odd", function() assert.is_even(3) end)
              it("values", function() assert.never("s", 1.0, { 1, k = { true } }) end)
              it("formatter", function()
                assert:add_formatter(function(v) if v == 7 then return "seven" end end)
                assert.is_even(7)
              end)
            end)
            """])
        #expect(statuses(r.out) == ["ok r finds them", "not ok r odd", "not ok r values", "not ok r formatter"], "\(r.out)")
        #expect(r.out.contains("# Failure message: spec/r_spec.lua:14: Expected (number) 3 to be even\n"), "\(r.out)")
        let table = #/# Failure message: spec/r_spec.lua:15: Got \(string\) 's' and \(number\) 1\.0 and \(table: 0x[0-9a-f]+\) \{\n#   \[1\] = 1\n#   \[k\] = \{\n#     \[1\] = true \} \}\n/#
        #expect(r.out.contains(table), "luassert's table layout: \(r.out)")
        #expect(r.out.contains("spec/r_spec.lua:18: Expected seven to be even"), "\(r.out)")
    }

    @Test func assertionsFollowLuassertsSemantics() throws {
        let r = try run(["spec/s_spec.lua": """
            local mt = { __eq = function() return true end }
            local E = setmetatable({}, { __tostring = function() return "custom error" end })
            describe("fail", function()
              it("same ignores __eq", function() assert.same(setmetatable({ 1 }, mt), setmetatable({ 2 }, mt)) end)
              it("matches init", function() assert.matches("b", "abc", 3) end)
              it("matches plain", function() assert.matches("a.c", "abc", 1, true) end)
              it("has_error types", function() assert.has_error(function() error(42) end, "42") end)
              it("error_matches table", function() assert.error_matches(function() error({}) end, ".*") end)
              it("match.matches init", function()
                local s = spy.new(function() end); s("abc")
                assert.spy(s).was.called_with(match.matches("b", 3))
              end)
            end)
            describe("pass", function()
              it("same inside uses __eq", function() assert.same({ setmetatable({ 1 }, mt) }, { setmetatable({ 2 }, mt) }) end)
              it("matches init plain message", function()
                assert.matches("b", "abc", 2); assert.matches("a.c", "xa.c", 1, true); assert.matches("b", "abc", "why")
              end)
              it("has_error", function()
                assert.has_error(function() error("42") end, "42")
                assert.has_error(function() error("42", 0) end, 42)
                assert.has_error(function() error(E) end, "custom error")
              end)
              it("error_matches", function()
                assert.error_matches(function() error(42) end, "^4")
                assert.error_matches(function() error(E) end, "^custom")
                assert.error_matches(function() error("a.b", 0) end, ".", 2, true)
              end)
              it("match.matches plain", function()
                local s = spy.new(function() end); s("a.c")
                assert.spy(s).was.called_with(match.matches(".", 2, true))
              end)
            end)
            """])
        #expect(statuses(r.out) == ["not ok fail same ignores __eq", "not ok fail matches init", "not ok fail matches plain",
                                    "not ok fail has_error types", "not ok fail error_matches table", "not ok fail match.matches init",
                                    "ok pass same inside uses __eq", "ok pass matches init plain message", "ok pass has_error",
                                    "ok pass error_matches", "ok pass match.matches plain"], "\(r.out)")
        #expect(r.out.contains("# expected: \"42\"\n#   actual: 42"), "the types show: \(r.out)")
    }

    static let plainAssert = ["spec/a_spec.lua": """
        describe("plain assert", function()
          it("with a message", function() assert(false, "lua assert msg") end)
          it("without one", function() assert(nil) end)
        end)
        """]

    @Test func aPlainAssertInASpecIsAFailureInEveryOutput() throws {
        let terminal = try run(Self.plainAssert, ["-o", "plainTerminal"])
        #expect(terminal.out.hasPrefix("--\n0 successes / 2 failures / 0 errors / 0 pending"), "\(terminal.out)")
        #expect(terminal.out.contains("Failure -> spec/a_spec.lua @ 2\nplain assert with a message\nspec/a_spec.lua:2: lua assert msg\n"))
        #expect(terminal.out.contains("spec/a_spec.lua:3: assertion failed!\n"))
        let json = try run(Self.plainAssert, ["-o", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect((object["failures"] as? [Any])?.count == 2 && (object["errors"] as? [Any])?.isEmpty == true, "\(json.out)")
        let junit = try run(Self.plainAssert, ["-o", "junit"])
        #expect(junit.out.contains("failures=\"2\" errors=\"0\""), "\(junit.out)")
        let gtest = try run(Self.plainAssert, ["-o", "gtest"])
        #expect(gtest.out.contains("[  FAILED  ] 2 tests, listed below:") && !gtest.out.contains("ERROR"), "\(gtest.out)")
        // a flow test keeps Lua's assert: an error
        let flow = try run(["tests/a_test.lua": "it('asserts', function() assert(false, 'no') end)\n"], ["tests", "-o", "junit"])
        #expect(flow.out.contains("failures=\"0\" errors=\"1\""), "\(flow.out)")
    }

    @Test func printAndIoWriteGoToStdoutAsTheSpecRuns() throws {
        let r = try run(["spec/o_spec.lua": """
            describe("output", function()
              it("writes", function() io.write("raw line\\n"); print("printed", 2) end)
              it("second", function() io.write("no newline") end)
            end)
            """, "tests/p_test.lua": "it('prints', function() print('flow line') end)\n"], ["spec/o_spec.lua"])
        #expect(r.out == "raw line\nprinted\t2\nok 1 - output writes\nno newlineok 2 - output second\n1..2\n", "\(r.out)")
        let terminal = try run(["spec/o_spec.lua": """
            it("one", function() end)
            it("two", function() print("between") end)
            """], ["-o", "plainTerminal"])
        #expect(terminal.out.hasPrefix("+between\n+\n2 successes / 0 failures"), "marks as the tests end: \(terminal.out)")
        let gtest = try run(["spec/o_spec.lua": "it('one', function() end)\nit('two', function() print('between') end)\n"], ["-o", "gtest"])
        #expect(gtest.out.contains("[ RUN      ] spec/o_spec.lua @ 2: two\nbetween\n[       OK ] spec/o_spec.lua @ 2: two ("),
                "gtest's lines as the tests run: \(gtest.out)")
        let flow = try run(["tests/p_test.lua": "it('prints', function() print('flow line') end)\n"], ["tests"])
        #expect(flow.err.contains("# flow line") && !flow.out.contains("flow line"), "a flow test's print: \(flow.out)")
    }
}
