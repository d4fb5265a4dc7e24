import Foundation
import Testing
import OKitTestSupport

/// Where an app author's comparison of `okit-run test` with busted 2.1.1 found them apart (testing.md, "Busted
/// projects"): an assertion given too few arguments fails with luassert's words, and a teardown's error is busted's
/// own entry, counted as an error. Each expectation is what `busted` printed on the same files (the place of the
/// argument message aside: busted's is luassert's own file, `/usr/share/lua/5.4/luassert/assertions.lua:115`).
@Suite struct BustedArgumentParityTests: BustedProjectSuite {
    static let arguments = ["spec/b_spec.lua": """
        describe("cmp", function()
          it("equal(nil)", function() local v; assert.equal(v) end)
          it("is_nil()", function() assert.is_nil() end)
          it("falsy()", function() assert.falsy() end)
          it("not_equal one arg", function() assert.not_equal(1) end)
          it("same", function() assert.same(nil) end)
          it("near", function() assert.near(1, 2) end)
          it("matches", function() assert.matches("x") end)
          it("error_matches", function() assert.error_matches(function() error("x") end) end)
          it("not truthy", function() assert.is_not.truthy() end)
          it("message", function() assert.message("hi").equal(1) end)
        end)
        """]

    @Test func anAssertionGivenTooFewArgumentsFailsWithLuassertsWords() throws {
        let folder = try project(Self.arguments)
        let r = try run(folder, ["-o", "json"])
        #expect(r.code == 1, "\(r.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        func entries(_ key: String) -> [[String: Any]] { object[key] as? [[String: Any]] ?? [] }
        #expect(entries("successes").compactMap { $0["name"] as? String } == ["cmp is_nil()"])
        #expect(entries("errors").isEmpty, "failures, as luassert's are under busted")
        var messages: [String: String] = [:]
        for e in entries("failures") { messages[e["name"] as? String ?? "?"] = e["message"] as? String }
        func minimum(_ line: Int, _ name: String, _ n: Int, _ got: Int) -> String {
            "spec/b_spec.lua:\(line): the '\(name)' function requires a minimum of \(n) arguments, got: \(got)"
        }
        #expect(messages == [
            "cmp equal(nil)": minimum(2, "equals", 2, 1), "cmp falsy()": minimum(4, "falsy", 1, 0),
            "cmp not_equal one arg": minimum(5, "equals", 2, 1), "cmp same": minimum(6, "same", 2, 1),
            "cmp near": minimum(7, "near", 3, 2), "cmp matches": minimum(8, "matches", 2, 1),
            "cmp error_matches": minimum(9, "error_matches", 2, 1), "cmp not truthy": minimum(10, "truthy", 1, 0),
            "cmp message": minimum(11, "equals", 2, 1),      // assert.message adds nothing to it, as under luassert
        ])
    }

    static let teardowns = ["spec/t_spec.lua": """
        describe("outer", function()
          it("one", function() end)
          teardown(function() error("teardown broke") end)
          describe("inner", function()
            it("two", function() end)
            lazy_teardown(function() error("lazy broke") end)
          end)
          it("three", function() assert.equal(1, 2) end)
        end)
        teardown(function() error("top broke") end)
        """]

    @Test func aTeardownsErrorIsAnErrorOfItsOwnAsBustedReportsIt() throws {
        let folder = try project(Self.teardowns)
        let tap = try run(folder, ["-o", "TAP"])
        #expect(tap.code == 1)
        let lines = tap.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") } == [
            "ok 1 - outer one", "ok 2 - outer inner two", "not ok 3 - outer inner lazy_teardown", "not ok 4 - outer three",
            "not ok 5 - outer teardown", "not ok 6 - teardown",
        ], "\(tap.out)")
        #expect(tap.out.contains("not ok 5 - outer teardown\n# spec/t_spec.lua @ 3\n# Failure message: spec/t_spec.lua:3: teardown broke\n"))
        #expect(lines.last == "1..6")
        // busted: `2 successes / 1 failure / 3 errors / 0 pending`, no mark for a hook's error
        let terminal = try run(folder, ["-o", "plainTerminal"])
        #expect(terminal.out.hasPrefix("++-\n2 successes / 1 failure / 3 errors / 0 pending : "), "\(terminal.out)")
        #expect(terminal.out.contains("Error -> spec/t_spec.lua @ 6\nouter inner lazy_teardown\nspec/t_spec.lua:6: lazy broke\n"))
        let junit = try run(folder, ["-o", "junit"])
        #expect(junit.out.contains("tests=\"3\" failures=\"1\" errors=\"3\""), "\(junit.out)")
        let json = try run(folder, ["-o", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let errors = object["errors"] as? [[String: Any]] ?? []
        #expect(errors.map { ($0["element"] as? [String: Any])?["descriptor"] as? String } == ["lazy_teardown", "strict_teardown", "strict_teardown"])
        #expect(errors.map { ($0["trace"] as? [String: Any])?["currentline"] as? Int } == [6, 3, 10])
    }
}
