import Foundation
import Testing
@testable import OKitLua

/// The framework's assertions (pass, fail, message, the test file's line), the chained forms, deep comparison
/// with the path of the first difference, and the pretty printer (testing.md).
@Suite struct FlowTestFrameworkAssertionTests {
    /// An assertion that passes, the same one failing, and the failure's whole message.
    struct Case {
        var pass: String
        var fail: String
        var message: String
    }

    static let cases: [Case] = [
        Case(pass: "assert.equal(2, 2.0)", fail: "assert.equal(1, 2)", message: "assert.equal failed\nexpected: 1\n  actual: 2"),
        Case(pass: "assert.equal('a', 'a', 'why')", fail: "assert.equal('a', 'b', 'the title')",
             message: "assert.equal failed\nthe title\nexpected: \"a\"\n  actual: \"b\""),
        Case(pass: "local t = {} assert.equal(t, t)", fail: "assert.equal({ 1 }, { 1 })",
             message: "assert.equal failed\nexpected: {1}\n  actual: {1}\n(two different tables with the same contents: use assert.same)"),
        Case(pass: "assert.same({ 1, { a = 2 } }, { 1.0, { a = 2 } })", fail: "assert.same({ 1, { a = 1 } }, { 1, { a = 2 } })",
             message: "assert.same failed\nat [2].a: expected 1, got 2\nexpected: {1, {a = 1}}\n  actual: {1, {a = 2}}"),
        Case(pass: "assert.is_true(true)", fail: "assert.is_true(1)", message: "assert.is_true failed\nexpected: true\n  actual: 1"),
        Case(pass: "assert.is_false(false)", fail: "assert.is_false(nil)", message: "assert.is_false failed\nexpected: false\n  actual: nil"),
        Case(pass: "assert.is_nil(nil)", fail: "assert.is_nil(0)", message: "assert.is_nil failed\nexpected: nil\n  actual: 0"),
        Case(pass: "assert.is_not_nil(false)", fail: "assert.is_not_nil(nil)", message: "assert.is_not_nil failed\nexpected: not nil\n  actual: nil"),
        Case(pass: "assert.truthy(0)", fail: "assert.truthy(false)", message: "assert.truthy failed\nexpected: a truthy value\n  actual: false"),
        Case(pass: "assert.falsy(nil)", fail: "assert.falsy('')", message: "assert.falsy failed\nexpected: nil or false\n  actual: \"\""),
        Case(pass: "assert.has_error(function() error('x') end)", fail: "assert.has_error(function() end)",
             message: "assert.has_error failed\nexpected: an error\n  actual: no error"),
        Case(pass: "assert.has_error(function() error('boom!') end, 'boom')", fail: "assert.has_error(function() error('boom!') end, 'bam')",
             message: "assert.has_error failed\nexpected: an error containing \"bam\"\n  actual: \"/tmp/x_test.lua:12: boom!\""),
        Case(pass: "assert.matches('^%d+$', '123')", fail: "assert.matches('^%d+$', '12a')",
             message: "assert.matches failed\nexpected: a string matching \"^%d+$\"\n  actual: \"12a\""),
        Case(pass: "assert.not_equal(1, '1')", fail: "assert.not_equal(2, 2.0)", message: "assert.not_equal failed\nexpected: not 2\n  actual: 2.0"),
        Case(pass: "assert.not_same({ 1 }, { 2 })", fail: "assert.not_same({ 1 }, { 1 })", message: "assert.not_same failed\nexpected: not {1}\n  actual: {1}"),
        Case(pass: "assert.contains({ a = { 1 } }, { a = { 1, 2 }, b = 3 })", fail: "assert.contains({ a = { 1, 2 } }, { a = { 1, 3 } })",
             message: "assert.contains failed\nat .a[2]: expected 2, got 3\nexpected: containing {a = {1, 2}}\n  actual: {a = {1, 3}}"),
        // busted's chained forms
        Case(pass: "assert.are.equal(1, 1)", fail: "assert.are.equal(1, 2)", message: "assert.equal failed\nexpected: 1\n  actual: 2"),
        Case(pass: "assert.are.same({ x = 1 }, { x = 1 })", fail: "assert.are.same({ x = 1 }, {})",
             message: "assert.same failed\nat .x: expected 1, got nil\nexpected: {x = 1}\n  actual: {}"),
        Case(pass: "assert.is.truthy(1)", fail: "assert.is.truthy(nil)", message: "assert.truthy failed\nexpected: a truthy value\n  actual: nil"),
        Case(pass: "assert.are_not.equal(1, 2)", fail: "assert.are_not.equal(1, 1)", message: "assert.not_equal failed\nexpected: not 1\n  actual: 1"),
        Case(pass: "assert.is_not.same({}, { 1 })", fail: "assert.is_not.same({}, {})", message: "assert.not_same failed\nexpected: not {}\n  actual: {}"),
        Case(pass: "assert.has_no.errors(function() end)", fail: "assert.has_no.errors(function() error('oops', 0) end)",
             message: "assert.has_no_error failed\nexpected: no error\n  actual: \"oops\""),
        Case(pass: "assert.is_not.contains({ a = 1 }, { a = 2 })", fail: "assert.is_not.contains({ a = 1 }, { a = 1, b = 2 })",
             message: "assert.not_contains failed\nexpected: not containing {a = 1}\n  actual: {a = 1, b = 2}"),
        Case(pass: "assert.is_not.is_nil(0)", fail: "assert.is_not.is_nil(nil)", message: "assert.is_not_nil failed\nexpected: not nil\n  actual: nil"),
        Case(pass: "assert.is_not.matches('^a', 'ba')", fail: "assert.is_not.matches('^a', 'ab')",
             message: "assert.does_not_match failed\nexpected: a string not matching \"^a\"\n  actual: \"ab\""),
        Case(pass: "assert.is_not.is_true(1)", fail: "assert.is_not.is_true(true)", message: "assert.is_not_true failed\nexpected: not true\n  actual: true"),
        Case(pass: "assert.is_not.falsy(1)", fail: "assert.is_not.falsy(nil)", message: "assert.truthy failed\nexpected: a truthy value\n  actual: nil"),
        Case(pass: "assert.are_not_equal(1, 2)", fail: "assert.has_error(function() end, 'x', 'said so')",
             message: "assert.has_error failed\nsaid so\nexpected: an error containing \"x\"\n  actual: no error"),
    ]

    /// A file with one test per case, each on its own line (test i on line i).
    static func file(_ body: (Case) -> String) -> String {
        cases.enumerated().map { "it(\"case \($0.offset + 1)\", function() \(body($0.element)) end)" }.joined(separator: "\n")
    }

    @Test func everyAssertionPasses() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: Self.file(\.pass))
        for (r, c) in zip(results, Self.cases) {
            #expect(r.status == "ok", "\(c.pass): \(r.message ?? "")")
        }
        #expect(counts == [Int64(Self.cases.count), 0, 0])
    }

    @Test func everyAssertionFailsWithItsMessageAndTheTestFileLine() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: Self.file(\.fail))
        #expect(counts == [0, Int64(Self.cases.count), 0])
        for (i, (r, c)) in zip(results, Self.cases).enumerated() {
            #expect(r.status == "fail", "\(c.fail)")
            #expect(r.location == "/tmp/x_test.lua:\(i + 1)", "\(c.fail)")
            #expect(r.message == c.message, "\(c.fail)")
        }
    }

    @Test func hasErrorMatchesAPlainSubstringWithOrWithoutThePosition() throws {
        let h = try FlowFrameworkHarness()
        let (results, _) = try h.results(of: """
            it("matches", function()
              assert.has_error(function() error("50% off (today)") end, "50% off (today)")
              assert.has_error(function() error("boom") end, "/tmp/x_test.lua:3: boom")
              assert.has_error(function() error("boom", 0) end, "/tmp/x_test.lua:4: boom")
              assert.has_error(function() error({ code = 7 }) end, { code = 7 })
              assert.has_error(function() assert.equal(1, 2) end, "assert.equal failed")
              assert.has.errors(function() local t = nil; return t.x end, "attempt to index a nil value")
            end)
            it("needs a function", function() assert.has_error(42) end)
            """)
        #expect(results.first?.status == "ok", "\(results.first?.message ?? "")")
        #expect(results.last?.message == "assert.has_error failed\nthe first argument must be a function, got number")
        #expect(results.last?.location == "/tmp/x_test.lua:9")
    }

    @Test func anUnknownAssertionSaysSo() throws {
        let h = try FlowFrameworkHarness()
        let r = try h.outcome("assert.is_banana('x')")
        #expect(r.location == "/tmp/x_test.lua:2")
        #expect(r.message?.hasPrefix("/tmp/x_test.lua:2: assert.is_banana: no such assertion") == true)
    }

    @Test func sameAndContainsGiveThePathOfTheFirstDifference() throws {
        let h = try FlowFrameworkHarness()
        try h.lua.run(source: """
            screen = { title = "Books", sections = { { rows = { { text = "Dune" }, { text = "Emma", detail = "2" } } } } }
            a = { name = "a" }; a.self = a
            b = { name = "a" }; b.self = b
            """, chunkName: "=data")
        func check(_ call: String) throws -> LuaValue {
            try h.lua.evaluate("return { T.\(call) }")
        }
        #expect(try check("same(2, 2.0)") == .array([.bool(true)]))
        #expect(try check("same({ 1, 2 }, { 1, 2, 3 })") == .array([.bool(false), .string("at [3]: expected nil, got 3")]))
        #expect(try check("same('a', { 'a' })") == .array([.bool(false), .string("at the top: expected \"a\", got {\"a\"}")]))
        #expect(try check("same(a, b)") == .array([.bool(true)]), "cycles compare")
        #expect(try check("same({ sections = { { rows = { { text = 'Dune' }, { text = 'Dune' } } } } }, screen)")
                == .array([.bool(false), .string("at .sections[1].rows[2].text: expected \"Dune\", got \"Emma\"")]))
        #expect(try check("same({ title = 'Books', sections = { { rows = { { text = 'Dune' }, { text = 'Emma' } } } } }, screen)")
                == .array([.bool(false), .string("at .sections[1].rows[2].detail: expected nil, got \"2\"")]), "a key only in actual")
        #expect(try check("contains({ sections = { { rows = { { text = 'Dune' }, { text = 'Dune' } } } } }, screen)")
                == .array([.bool(false), .string("at .sections[1].rows[2].text: expected \"Dune\", got \"Emma\"")]))
        #expect(try check("contains({ title = 'Books', sections = { { rows = { [2] = { text = 'Emma' } } } } }, screen)")
                == .array([.bool(true)]), "a subset; arrays compare by position")
        #expect(try check("contains({ 'b' }, { 'a', 'b' })") == .array([.bool(false), .string("at [1]: expected \"b\", got \"a\"")]))
        #expect(try check("contains({ ['a b'] = { [true] = 1 } }, { ['a b'] = {} })")
                == .array([.bool(false), .string("at [\"a b\"][true]: expected 1, got nil")]))
        #expect(try check("contains({}, 5)") == .array([.bool(false), .string("at the top: expected {}, got 5")]))
        // NaN stays unequal (as luassert), and the message says why "expected nan, got nan" failed.
        #expect(try h.lua.evaluate("""
            local ok, why = T.same({ 0/0 }, { 0/0 })
            return { ok, why:sub(1, 14), why:find("(NaN is never equal to anything, not even NaN)", 1, true) ~= nil }
            """) == .array([.bool(false), .string("at [1]: expect"), .bool(true)]))
    }

    @Test func thePrettyPrinterIsReadable() throws {
        let h = try FlowFrameworkHarness()
        let cases: [(String, String)] = [
            ("nil", "nil"), ("2", "2"), ("2.0", "2.0"), ("true", "true"),
            ("'Dune'", "\"Dune\""), ("'a\\nb\\t\"c\"'", "\"a\\nb\\9\\\"c\\\"\""),
            ("{}", "{}"), ("{ 1, 2 }", "{1, 2}"), ("{ b = 1, a = { 1, 'x' } }", "{a = {1, \"x\"}, b = 1}"),
            ("{ 1, 2, x = 3 }", "{1, 2, x = 3}"), ("{ [1] = 'a', [3] = 'c' }", "{\"a\", [3] = \"c\"}"),
            ("{ ['a b'] = 1, [true] = 2, [1.5] = 3 }", "{[1.5] = 3, [\"a b\"] = 1, [true] = 2}"),
            ("{ a = { b = { c = { d = { e = 1 } } } } }", "{a = {b = {c = {d = {…}}}}}"),
            ("(function() local t = { name = 'loop' }; t.self = t; return t end)()", "{name = \"loop\", self = <cycle>}"),
            ("(function() local s = {}; return { s, s } end)()", "{{}, {}}"),
            ("(function() local t = {}; for i = 1, 15 do t[i] = i end; return t end)()",
             "{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, … (3 more)}"),
            ("setmetatable({}, { __tostring = function() return 'Book(1)' end })", "Book(1)"),
            // What prints like a space or like nothing is shown as the escape a test can write (a German amount).
            ("'3,90\\u{A0}€'", "\"3,90\\u{A0}€\""), ("'10:00\\u{202F}AM'", "\"10:00\\u{202F}AM\""),
            ("'a\\u{200B}b'", "\"a\\u{200B}b\""), ("'3,90 €'", "\"3,90 €\""),
        ]
        for (expression, text) in cases {
            #expect(try h.string("T.describe_value(\(expression))") == text, "\(expression)")
        }
        let long = try h.string("T.describe_value((function() local t = {} for i = 1, 12 do t[i] = { ('é'):rep(40) } end return { t, t, t } end)())")
        #expect(long.map { $0.utf8.count <= 2003 && $0.hasSuffix("…") } == true, "a huge value is cut, on a character boundary")
    }
}
