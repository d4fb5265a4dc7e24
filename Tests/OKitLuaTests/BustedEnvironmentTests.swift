import Foundation
import Testing
import OKitTestSupport

/// A spec's own environment, as busted 2.1.1 gives each spec file (testing.md, "Execution"): busted's words and
/// luassert's `assert` are the spec's, the modules it requires see `_G` with Lua's `assert` and none of the spec's
/// globals; a global a spec assigns lasts in the context that assigned it. Also what busted runs that okit refused:
/// names that are numbers, and Lua's own words for a module, spec file or `.busted` that does not parse. Each
/// expectation is what `busted` itself gave for the same files.
@Suite struct BustedEnvironmentTests {
    func project(_ files: [String: String]) throws -> TempFolder {
        let folder = try TempFolder()
        for (name, text) in files { try folder.put(name, text) }
        return folder
    }

    func run(_ folder: TempFolder, _ args: [String] = []) throws -> ChildResult {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        return try OKitRun.run(["test", "-C", folder.path] + BustedTAP.arguments(args, root: folder.url))
    }

    @Test func aModuleKeepsLuasAssertAndItsErrorIsAnErrorWhereItWasRaised() throws {
        let folder = try project([
            "src/checker.lua": """
            local M = {}
            function M.check(v) return assert(v, "checker: value required") end
            function M.assert_type() return type(assert) end
            return M
            """,
            "spec/checker_spec.lua": """
            local checker = require("checker")
            describe("checker", function()
              it("passes a value through", function() assert.equal(5, checker.check(5)) end)
              it("raises Lua's assert error from the module", function() checker.check(nil) end)
              it("sees Lua's assert function", function() assert.equal("function", checker.assert_type()) end)
              it("fails with luassert's assert", function() assert(false, "spec says no") end)
            end)
            """])
        let r = try run(folder, ["-o", "plainTerminal"])
        #expect(r.out.contains("2 successes / 1 failure / 1 error / 0 pending"), "\(r.out)")
        #expect(r.out.contains("Error -> spec/checker_spec.lua @ 4\nchecker raises Lua's assert error from the module\n"
            + "./src/checker.lua:2: checker: value required"), "\(r.out)")
        #expect(r.out.contains("Failure -> spec/checker_spec.lua @ 6\nchecker fails with luassert's assert\n"
            + "spec/checker_spec.lua:6: spec says no"), "\(r.out)")
    }

    @Test func aSpecsGlobalsStayInItsContextsAndOutOfG() throws {
        let folder = try project([
            "reader.lua": "return function() return FOO end\n",
            "spec/g_spec.lua": """
            FOO = "set by spec"
            local reader = require("reader")
            describe("d", function()
              INBLOCK = 2
              setup(function() SETUPG = 0 end)
              before_each(function() OBJ = (OBJ or 0) + 1 end)
              it("a module does not see them", function() assert.is_nil(reader()) end)
              it("not in _G", function()
                assert.is_nil(rawget(_G, "FOO"))
                assert.is_nil(rawget(_G, "describe"))
                assert.is_nil(rawget(_G, "it"))
                assert.is_true(_G.assert ~= assert)
                assert.equal("function", type(_G.assert))
                assert.is_false(_ENV == _G)
                INTEST = 3
              end)
              it("a test's last for that test", function()
                assert.is_nil(INTEST)
                assert.equal(3, OBJ)
                assert.equal(0, SETUPG)
                assert.equal(2, INBLOCK)
                assert.equal("set by spec", FOO)
              end)
            end)
            describe("e", function()
              it("a block's stay in it", function() assert.is_nil(INBLOCK); assert.is_nil(OBJ) end)
            end)
            """])
        let r = try run(folder)
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(r.out.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 4, "\(r.out)")
    }

    @Test func theHelperAndRequiredModulesRunInG() throws {
        let folder = try project([
            "helper.lua": "HELPERG = type(assert) .. \" \" .. type(describe)\n",
            "spec/h_spec.lua": """
            it("sees the helper's globals", function() assert.equal("function nil", HELPERG) end)
            """])
        let r = try run(folder, ["--helper", "helper.lua"])
        #expect(r.code == 0, "\(r.out)\(r.err)")
    }

    @Test func namesThatAreNumbersRunUnderTheirText() throws {
        let folder = try project(["spec/names_spec.lua": """
            describe("sizes", function()
              for _, n in ipairs({ 1, 2 }) do
                it(n, function() assert.is_number(n) end)
              end
            end)
            describe(2024, function()
              it("is a year", function() end)
            end)
            """])
        let r = try run(folder)
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("ok 1 - sizes 1\nok 2 - sizes 2\nok 3 - 2024 is a year\n1..3"), "\(r.out)")
    }

    @Test func whatDoesNotParseSaysItInLuasWords() throws {
        let folder = try project([
            "badsyn.lua": "local x = = 1\n",
            "spec/req_spec.lua": """
            it("requires", function()
              local ok, err = pcall(require, "badsyn")
              assert.equal("error loading module 'badsyn' from file './badsyn.lua':\\n\\t./badsyn.lua:1: unexpected symbol near '='", err)
            end)
            """,
            "spec2/s_spec.lua": "describe(\"x\", function()\n  it(\"y\", function() local a = = 1 end)\nend)\n"])
        let r = try run(folder)
        #expect(r.code == 0, "\(r.out)\(r.err)")
        let s = try run(folder, ["spec2"])
        #expect(s.out.contains("# Failure message: spec2/s_spec.lua:2: unexpected symbol near '='"), "\(s.out)")
        try folder.put(".busted", "return { default = { ROOT = = 1 } }\n")
        let b = try run(folder)
        #expect(b.code == 1 && b.err.contains(".busted:1: unexpected symbol near '='"), "\(b.err)")
    }

    @Test func aFileThatDoesNotLoadIsPlacedWhereTheErrorWasRaised() throws {
        let folder = try project([
            "badmod.lua": "error(\"boom\")\n",
            "spec/f_spec.lua": "-- loads a module that raises\nlocal m = require(\"badmod\")\nit(\"x\", function() end)\n"])
        let r = try run(folder)
        #expect(r.out.contains("not ok 1 - suite spec/f_spec.lua\n# ./badmod.lua @ 1\n"), "\(r.out)")
        let h = try run(folder, ["--helper", "missing.lua"])
        #expect(h.code == 1 && h.out.isEmpty, "\(h.out)")
        #expect(h.err.contains("okit-run test: cannot read the helper missing.lua (.busted or --helper): no such file"), "\(h.err)")
    }

    @Test func errorValuesThatAreNoTextArePrintedAsBustedPrintsThem() throws {
        let folder = try project(["spec/e_spec.lua": """
            describe("errors", function()
              it("a table error", function() error({ code = 1, "first", nested = { ["a b"] = true } }) end)
              it("error() without a value", function() error() end)
              it("assert with a number message", function() assert(false, 12) end)
            end)
            """])
        let r = try run(folder, ["-o", "plainTerminal"])
        #expect(r.out.contains("""
            Failure -> spec/e_spec.lua @ 4
            errors assert with a number message
            spec/e_spec.lua:4: {
              message = 12
            }
            """), "\(r.out)")
        #expect(r.out.contains("""
            errors a table error
            spec/e_spec.lua:2: {
              "first",
              code = 1,
              nested = {
                ["a b"] = true
              }
            }
            """), "\(r.out)")
        #expect(r.out.contains("errors error() without a value\nspec/e_spec.lua:3: Nil error"), "\(r.out)")
    }
}
