import Foundation
import Testing
@testable import OKitLua

/// A Lua state with the whole standard library and the flow-test framework installed: `T` is the framework
/// table, the globals are set. Test files load as `@/tmp/<name>`, so positions read `/tmp/x_test.lua:3`.
struct FlowFrameworkHarness {
    /// One reported result.
    struct Result: Equatable {
        var name: String
        var status: String
        var message: String?
        var location: String?
        var seconds: Double?
    }

    let lua: LuaState

    init() throws {
        lua = try runtimeTestState { $0.policy = .unsafe }
        try lua.load(source: FlowTestFramework.source, chunkName: "=okit.test.framework")
        try lua.pcall(nargs: 0, nresults: 1)
        lua.setGlobal("T")
        try lua.run(source: "T.install()", chunkName: "=install")
    }

    /// Runs a chunk as the test file `/tmp/<file>`.
    func load(_ source: String, file: String = "x_test.lua") throws(LuaError) {
        try lua.run(source: source, chunkName: "@/tmp/\(file)")
    }

    /// `T.run { filter = filter, report = … }`: the reported results in order and the returned counts.
    func run(filter: String? = nil) throws -> (results: [Result], counts: [Int64]) {
        lua.push(filter.map(LuaValue.string) ?? .nil)
        lua.setGlobal("__filter")
        let value = try lua.evaluate("""
            local results = {}
            local p, f, s = T.run { filter = __filter, report = function(r) results[#results + 1] = r end }
            return { results = results, counts = { p, f, s } }
            """)
        let results = Self.items(Self.field(value, "results")).map { r in
            Result(name: Self.text(Self.field(r, "name")) ?? "?", status: Self.text(Self.field(r, "status")) ?? "?",
                   message: Self.text(Self.field(r, "message")), location: Self.text(Self.field(r, "where")),
                   seconds: Self.number(Self.field(r, "seconds")))
        }
        let counts: [Int64] = Self.items(Self.field(value, "counts")).map { if case .int(let i) = $0 { i } else { -1 } }
        return (results, counts)
    }

    /// `T.reset()`, loads `source` as the test file, runs it.
    func results(of source: String, filter: String? = nil, file: String = "x_test.lua") throws -> (results: [Result], counts: [Int64]) {
        try lua.run(source: "T.reset()", chunkName: "=reset")
        try load(source, file: file)
        return try run(filter: filter)
    }

    /// The first result of a file with one test whose body is `body` on line 2.
    func outcome(_ body: String) throws -> Result {
        let (results, _) = try results(of: "it(\"t\", function()\n\(body)\nend)\n")
        return results.first ?? Result(name: "none", status: "none")
    }

    /// A Lua expression's value, as a string when it is one.
    func string(_ expression: String) throws -> String? {
        Self.text(try lua.evaluate("return " + expression))
    }

    static func field(_ v: LuaValue, _ key: String) -> LuaValue {
        if case .table(_, let hash) = v { return hash[.string(key)] ?? .nil }
        return .nil
    }

    static func items(_ v: LuaValue) -> [LuaValue] {
        if case .table(let array, _) = v { return array }
        return []
    }

    static func text(_ v: LuaValue) -> String? {
        if case .string(let s) = v { return s }
        return nil
    }

    static func number(_ v: LuaValue) -> Double? {
        switch v {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
}

/// The framework's structure: registration, nesting names, hook order, filter, pending, failure positions, and
/// errors in hooks (testing.md).
@Suite struct FlowTestFrameworkTests {
    @Test func hooksRunInOrderAroundEachTestWithNestedNames() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: """
            log = {}
            local function note(s) return function() log[#log + 1] = s end end
            it("top", note("top"))
            describe("outer", function()
              setup(note("setup outer"))
              teardown(note("teardown outer"))
              before_each(note("before outer"))
              after_each(note("after outer"))
              it("one", note("one"))
              describe("inner", function()
                setup(note("setup inner"))
                teardown(note("teardown inner"))
                before_each(note("before inner"))
                after_each(note("after inner"))
                it("two", note("two"))
                it("three", note("three"))
              end)
              it("four", note("four"))
            end)
            """)
        #expect(results.map(\.name) == ["top", "outer one", "outer inner two", "outer inner three", "outer four"])
        #expect(results.allSatisfy { $0.status == "ok" && $0.message == nil && $0.location == nil })
        #expect(results.allSatisfy { ($0.seconds ?? -1) >= 0 })
        #expect(counts == [5, 0, 0])
        let log = try h.string("table.concat(log, ', ')")
        #expect(log == "top, setup outer, before outer, one, after outer, setup inner, "
            + "before outer, before inner, two, after inner, after outer, "
            + "before outer, before inner, three, after inner, after outer, teardown inner, "
            + "before outer, four, after outer, teardown outer")
    }

    @Test func pendingTestsAreReportedAndCountedAsSkipped() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: """
            describe("later", function()
              pending("no function")
              pending("with a function", function() error("not run") end)
              it("it without a function")
              it("stops itself", function() pending("needs the server") error("not reached") end)
              it("runs", function() end)
            end)
            """)
        #expect(results.map(\.status) == ["pending", "pending", "pending", "pending", "ok"])
        #expect(results[3].message == "needs the server")
        #expect(counts == [1, 0, 4])
    }

    @Test func theFilterSelectsByFullNameAsPatternOrPlainText() throws {
        let h = try FlowFrameworkHarness()
        let file = """
            ran = {}
            describe("books", function()
              setup(function() ran[#ran + 1] = "setup books" end)
              it("adds (one)", function() ran[#ran + 1] = "adds" end)
              it("deletes", function() ran[#ran + 1] = "deletes" end)
            end)
            describe("shops", function()
              setup(function() ran[#ran + 1] = "setup shops" end)
              it("lists", function() ran[#ran + 1] = "lists" end)
            end)
            """
        var (results, counts) = try h.results(of: file, filter: "books adds (one)")
        #expect(results.map(\.name) == ["books adds (one)"], "plain text, even with pattern characters")
        #expect(counts == [1, 0, 0])
        #expect(try h.string("table.concat(ran, ',')") == "setup books,adds", "a block without selected tests never sets up")
        (results, _) = try h.results(of: file, filter: "^%a+ [ld]")
        #expect(results.map(\.name) == ["books deletes", "shops lists"], "a Lua pattern")
        (results, counts) = try h.results(of: file, filter: "[unclosed")
        #expect(results.isEmpty && counts == [0, 0, 0], "a malformed pattern matches as plain text only")
    }

    @Test func resetForgetsTheRegisteredTests() throws {
        let h = try FlowFrameworkHarness()
        try h.load("it('first file', function() end)")
        #expect(try h.run().results.map(\.name) == ["first file"])
        let (results, _) = try h.results(of: "it('second file', function() end)")
        #expect(results.map(\.name) == ["second file"])
    }

    @Test func aFailureNamesTheTestFileLineOfTheAssertion() throws {
        let h = try FlowFrameworkHarness()
        try h.lua.run(source: """
            local helper = {}
            function helper.check(v) assert.equal("expected", v) end
            function helper.crash() local t = nil; return t.field end
            _G.helper = helper
            """, chunkName: "@/tmp/helper.lua")
        let (results, _) = try h.results(of: """
            local helper = helper
            local function localCheck(v)
              assert.is_true(v)
            end
            it("direct", function()
              assert.equal(1, 2)
            end)
            it("in a local function", function() localCheck(false) end)
            it("in a helper module", function()
              helper.check("other")
            end)
            it("a runtime error", function()
              local n = nil
              return n + 1
            end)
            it("an error in a helper module", function()
              helper.crash()
            end)
            it("an error without position", function() error("plain", 0) end)
            it("an error value", function() error({ code = 7 }) end)
            it("chained", function()
              assert.are_not.same({ 1 }, { 1 })
            end)
            """)
        #expect(results.map(\.status).allSatisfy { $0 == "fail" })
        #expect(results.map { $0.location ?? "-" } == [
            "/tmp/x_test.lua:6", "/tmp/x_test.lua:3", "/tmp/x_test.lua:10", "/tmp/x_test.lua:14",
            "/tmp/x_test.lua:17", "/tmp/x_test.lua:19", "/tmp/x_test.lua:20", "/tmp/x_test.lua:22",
        ])
        #expect(results[0].message == "assert.equal failed\nexpected: 1\n  actual: 2")
        #expect(results[3].message == "/tmp/x_test.lua:14: attempt to perform arithmetic on a nil value (local 'n')")
        #expect(results[4].message?.hasPrefix("/tmp/helper.lua:3: attempt to index a nil value") == true,
                "the message keeps the error's own position")
        #expect(results[5].message == "plain")
        #expect(results[6].message == "{code = 7}")
        #expect(results[7].message?.hasPrefix("assert.not_same failed\n") == true)
    }

    @Test func anErrorInBeforeEachFailsTheTestAndAfterEachStillRuns() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: """
            log = {}
            describe("broken", function()
              before_each(function()
                error("no app")
              end)
              after_each(function() log[#log + 1] = "after" end)
              it("one", function() log[#log + 1] = "body" end)
            end)
            describe("cleanup", function()
              after_each(function()
                assert.is_nil("leftover")
              end)
              it("passes, but after_each fails", function() end)
            end)
            """)
        #expect(counts == [0, 2, 0])
        // each says that a hook failed and for which test, placed where the hook failed (testing.md "Structure")
        #expect(results[0].message == "before_each of the test at /tmp/x_test.lua:7 failed: /tmp/x_test.lua:4: no app")
        #expect(results[0].location == "/tmp/x_test.lua:4")
        #expect(try h.string("table.concat(log, ',')") == "after", "the test body did not run; after_each did")
        #expect(results[1].location == "/tmp/x_test.lua:11")
        #expect(results[1].message?.hasPrefix("after_each of the test at /tmp/x_test.lua:13 failed: assert.is_nil failed") == true)
    }

    @Test func anErrorInSetupFailsEveryTestOfItsBlock() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: """
            log = {}
            describe("shop", function()
              setup(function()
                error("cannot open")
              end)
              teardown(function() log[#log + 1] = "teardown" end)
              it("one", function() log[#log + 1] = "one" end)
              describe("nested", function() it("two", function() end) end)
              pending("three")
            end)
            describe("next", function()
              teardown(function() error("teardown broke", 0) end)
              it("still runs", function() end)
            end)
            """)
        #expect(results.map(\.name) == ["shop one", "shop nested two", "shop three", "next still runs", "next (teardown)"])
        #expect(results.map(\.status) == ["fail", "fail", "pending", "ok", "fail"])
        #expect(results[0].message == "setup failed: /tmp/x_test.lua:4: cannot open")
        #expect(results[1].message == results[0].message && results[1].location == "/tmp/x_test.lua:4")
        #expect(results[4].message == "teardown failed: teardown broke")
        #expect(counts == [1, 3, 1])
        #expect(try h.string("table.concat(log, ',')") == "", "neither the tests nor the teardown of a failed setup run")
    }

    @Test func declarationsWithTheWrongArgumentsRaiseClearErrors() throws {
        let h = try FlowFrameworkHarness()
        let cases: [(String, String)] = [
            ("describe('x', 42)", "/tmp/bad_test.lua:1: describe(\"x\", fn): fn must be a function, got number"),
            ("describe(nil, function() end)", "/tmp/bad_test.lua:1: describe(name, fn): name must be a string, got nil"),
            ("it('x', 'body')", "/tmp/bad_test.lua:1: it(\"x\", fn): fn must be a function, got string"),
            ("before_each(nil)", "/tmp/bad_test.lua:1: before_each(fn): fn must be a function, got nil"),
            ("describe('outer', function()\n  teardown(5)\nend)", "/tmp/bad_test.lua:2: teardown(fn): fn must be a function, got number"),
        ]
        for (source, message) in cases {
            do throws(LuaError) {
                try h.load(source, file: "bad_test.lua")
                Issue.record("no error for \(source)")
            } catch {
                #expect(error.message == message)
            }
        }
        let (results, _) = try h.results(of: "it('declares', function()\n  it('inner', function() end)\nend)\n")
        #expect(results.first?.status == "fail" && results.first?.location == "/tmp/x_test.lua:2")
        #expect(results.first?.message?.contains("it() cannot be called while tests run") == true)
    }

    @Test func assertKeepsItsLuaMeaning() throws {
        let h = try FlowFrameworkHarness()
        try h.load("""
            local a, b, c = assert(1, "message", 3)
            returned = a == 1 and b == "message" and c == 3
            local _, e1 = pcall(function() assert(false, "boom") end)
            local _, e2 = pcall(function() assert(nil) end)
            local _, e3 = pcall(function() assert(false, { code = 1 }) end)
            local _, e4 = pcall(assert, false, "from pcall")
            errors = { e1, e2, e3.code, e4 }
            """)
        #expect(try h.lua.evaluate("return returned") == .bool(true))
        #expect(try h.lua.evaluate("return errors") == .array([
            .string("/tmp/x_test.lua:3: boom"), .string("/tmp/x_test.lua:4: assertion failed!"), .int(1),
            .string("from pcall"),
        ]))
        let r = try h.outcome("assert(1 == 2, \"numbers differ\")")
        #expect(r.status == "fail" && r.location == "/tmp/x_test.lua:2")
        #expect(r.message == "/tmp/x_test.lua:2: numbers differ")
    }
}
