import Foundation
import Testing
@testable import OKitLua

/// The rest of busted's vocabulary in flow tests: `finally`, `assert.near`, the type assertions, `unique`,
/// `error_matches`, busted's spellings, and `#tags`, the shuffle and the listing of `T.run`/`T.list` (testing.md).
@Suite struct FlowTestBustedVocabularyTests {
    @Test func finallyRunsAfterTheTestAlsoWhenItFailed() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: """
            log = {}
            describe("d", function()
              after_each(function() log[#log + 1] = "after_each" end)
              it("fails", function()
                finally(function() log[#log + 1] = "first" end)
                finally(function() log[#log + 1] = "second" end)
                assert.equal(1, 2)
              end)
              it("cleanup fails", function()
                finally(function() error("cleanup broke") end)
              end)
              it("pending still cleans up", function()
                finally(function() log[#log + 1] = "pending cleanup" end)
                pending("later")
              end)
            end)
            it("outside a block", function() end)
            """)
        #expect(results.map(\.status) == ["fail", "fail", "pending", "ok"])
        #expect(counts == [1, 2, 1])
        #expect(results.first?.location == "/tmp/x_test.lua:7")
        #expect(results[1].message == "/tmp/x_test.lua:10: cleanup broke")
        #expect(try h.string("table.concat(log, ',')") == "second,first,after_each,after_each,pending cleanup,after_each")
    }

    @Test func finallyOutsideATestIsAnErrorAtItsLine() throws {
        let h = try FlowFrameworkHarness()
        #expect(throws: (any Error).self) { try h.load("finally(function() end)") }
        let e = try? h.lua.evaluate("return select(2, pcall(finally, function() end))")
        #expect(e == .string("finally(fn) can only be called while a test runs (in it or before_each)"))
    }

    struct Case: Sendable {
        var pass: String
        var fail: String
        var message: String
    }

    static let cases: [Case] = [
        Case(pass: "assert.near(1, 1.05, 0.1)", fail: "assert.near(1, 1.5, 0.1)", message: "assert.near failed\nexpected: 1 ± 0.1\n  actual: 1.5"),
        Case(pass: "assert.is_not.near(1, 2, 0.5)", fail: "assert.is_not.near(1, 1, 0)",
             message: "assert.not_near failed\nexpected: farther than 0 from 1\n  actual: 1"),
        Case(pass: "assert.near('10', 10, 0, 'm')", fail: "assert.near('one', 1, 0)",
             message: "assert.near failed\nexpected, actual and tolerance must be numbers (or texts of numbers), got \"one\", 1, 0"),
        Case(pass: "assert.is_string('x')", fail: "assert.is_string(1)", message: "assert.is_string failed\nexpected: a string\n  actual: 1 (number)"),
        Case(pass: "assert.is_number(1.5)", fail: "assert.is_table('t')", message: "assert.is_table failed\nexpected: a table\n  actual: \"t\" (string)"),
        Case(pass: "assert.is_function(print)", fail: "assert.is_not_boolean(false)", message: "assert.is_not_boolean failed\nexpected: not a boolean\n  actual: false"),
        Case(pass: "assert.unique({ 1, 2, { 1 }, { 1 } })", fail: "assert.unique({ { 1 }, { 1 } }, true)",
             message: "assert.unique failed\nitems 1 and 2 are the same: {1}\n  actual: {{1}, {1}}"),
        Case(pass: "assert.error_matches(function() error('code 42') end, 'code %d+')",
             fail: "assert.error_matches(function() error('code x', 0) end, 'code %d+')",
             message: "assert.error_matches failed\nexpected: an error matching \"code %d+\"\n  actual: \"code x\""),
        Case(pass: "assert.has_no.errors(function() end)", fail: "assert.has.errors(function() end)",
             message: "assert.has_error failed\nexpected: an error\n  actual: no error"),
        Case(pass: "assert.has_no_error(function() end)", fail: "assert.has_no_errors(function() error('x', 0) end)",
             message: "assert.has_no_error failed\nexpected: no error\n  actual: \"x\""),
        Case(pass: "assert.True(true); assert.is.False(false); assert.is_not.True(1)", fail: "assert.is_not.True(true)",
             message: "assert.is_not_true failed\nexpected: not true\n  actual: true"),
        Case(pass: "assert.Not.equal(1, 2); assert.are_not.same({}, { 1 })", fail: "assert.is.Not.equals(1, 1)",
             message: "assert.not_equal failed\nexpected: not 1\n  actual: 1"),
        Case(pass: "assert.are.same({ a = 1 }, { a = 1 })", fail: "assert.no.errors(function() error('y', 0) end)",
             message: "assert.has_no_error failed\nexpected: no error\n  actual: \"y\""),
    ]

    @Test func assertionsPassAndFailWithTheirMessages() throws {
        let h = try FlowFrameworkHarness()
        let pass = Self.cases.enumerated().map { "it(\"case \($0.offset + 1)\", function() \($0.element.pass) end)" }.joined(separator: "\n")
        let (passed, _) = try h.results(of: pass)
        for (r, c) in zip(passed, Self.cases) { #expect(r.status == "ok", "\(c.pass): \(r.message ?? "")") }
        let fail = Self.cases.enumerated().map { "it(\"case \($0.offset + 1)\", function() \($0.element.fail) end)" }.joined(separator: "\n")
        let (failed, counts) = try h.results(of: fail)
        #expect(counts == [0, Int64(Self.cases.count), 0])
        for (i, (r, c)) in zip(failed, Self.cases).enumerated() {
            #expect(r.message == c.message, "\(c.fail)")
            #expect(r.location == "/tmp/x_test.lua:\(i + 1)", "\(c.fail)")
        }
    }

    static let tagged = """
    describe("shop", function()
      it("adds", function() end)
      it("imports #slow", function() end)
      describe("#network", function()
        it("syncs", function() end)
        it("syncs a lot #slow", function() end)
      end)
      pending("sells #slow")
    end)
    """

    /// `T.list(opts)`: the names in order.
    func listed(_ h: FlowFrameworkHarness, _ opts: String) throws -> [String] {
        let v = try h.lua.evaluate("local names = {} for _, t in ipairs(T.list(\(opts))) do names[#names + 1] = t.name end return names")
        return FlowFrameworkHarness.items(v).compactMap(FlowFrameworkHarness.text)
    }

    @Test func tagsSelectTheTestsWhoseFullNameHasThem() throws {
        let h = try FlowFrameworkHarness()
        try h.load(Self.tagged)
        #expect(try listed(h, "{ tags = { 'slow' } }") == ["shop imports #slow", "shop #network syncs a lot #slow", "shop sells #slow"])
        #expect(try listed(h, "{ excludeTags = { 'slow', 'network' } }") == ["shop adds"])
        #expect(try listed(h, "{ tags = { 'network' }, excludeTags = { 'slow' } }") == ["shop #network syncs"])
        #expect(try listed(h, "{ tags = { 'slo' } }") == [])
        let v = try h.lua.evaluate("local p, f, s = T.run { tags = { 'slow' } } return { p, f, s }")
        #expect(v == .array([.int(2), .int(0), .int(1)]))
    }

    @Test func aSeedShufflesWithinEachBlockTheSameWayEveryTime() throws {
        let h = try FlowFrameworkHarness()
        try h.load((1...3).map { b in
            "describe(\"b\(b)\", function()\n" + (1...8).map { "  it(\"t\($0)\", function() end)\n" }.joined() + "end)\n"
        }.joined())
        let declared = try listed(h, "{}")
        let once = try listed(h, "{ seed = 7 }")
        #expect(try listed(h, "{ seed = 7 }") == once)
        #expect(once != declared && Set(once) == Set(declared))
        #expect(try listed(h, "{ seed = 8 }") != once)
        let v = try h.lua.evaluate("local names = {} T.run { seed = 7, report = function(r) names[#names + 1] = r.name end } return names")
        #expect(FlowFrameworkHarness.items(v).compactMap(FlowFrameworkHarness.text) == once, "the run's order is the listed one")
        let blocks = once.map { $0.split(separator: " ")[0] }
        #expect(blocks.indices.allSatisfy { $0 % 8 == 0 || blocks[$0] == blocks[$0 - 1] }, "blocks stay whole: \(once)")
    }

    @Test func listGivesWhereEachTestIsDeclared() throws {
        let h = try FlowFrameworkHarness()
        try h.load(Self.tagged)
        let v = try h.lua.evaluate("local t = T.list()[5] return { t.name, t.where, t.pending }")
        #expect(v == .array([.string("shop sells #slow"), .string("/tmp/x_test.lua:8"), .bool(true)]))
    }
}
