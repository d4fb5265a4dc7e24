import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Lua patterns beside the sandbox's limits (lua-api.md "Sandbox and limits"): a plain find is linear and has no
/// limit; a field's `pattern` rule is answered exactly under a real step budget; test files run plain Lua 5.4.
@Suite struct LuaPatternTests {
    @Test func aPlainFindHasNoSubjectLimitAndAnswersAsLua() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("local s = string.rep('a', 300 * 1024) .. 'b' return (s:find('b', 1, true))") == .int(300 * 1024 + 1))
        let refused = try s.evaluate("return select(2, pcall(string.find, string.rep('a', 300 * 1024), 'a+', 1))")
        #expect("\(refused)".contains("pattern functions refuse subjects over 256 KiB"), "a pattern find keeps the limit: \(refused)")
        // Lua's own results for init, an empty text, a text past the end
        let cases: [(String, String)] = [
            ("('hello'):find('l', 1, true)", "3,3"), ("('hello'):find('l', -2, true)", "4,4"),
            ("('hello'):find('', 10, true)", "nil"), ("('hello'):find('', 6, true)", "6,5"),
            ("('hello'):find('', -100, true)", "1,0"), ("('a.b'):find('.', 1, true)", "2,2"),
            ("('hello'):find('hellos', 1, true)", "nil"), ("('hello'):find('lo', 0, true)", "4,5"),
        ]
        for (call, want) in cases {
            let got = try s.evaluate("local a, b = \(call) return a and (a .. ',' .. b) or 'nil'")
            #expect(got == .string(want), "\(call): \(got)")
        }
    }

    /// The exact matcher against Lua's own `string.find` (a state whose pattern functions are Lua's).
    @Test func theRuleMatcherAnswersAsLuasFind() throws {
        let lua = try runtimeTestState()
        try LuaSandbox.unguardPatterns(in: lua)
        let subjects = ["", "a", "abc", "hello world", "x@example.org", "a.b-c_d@host.co", "  padded  ", "(a(b)c)", "THE (quick) fox",
                        "aaa", "abab", "a1b2c3", "key=value", "\n", "ümlaut"]
        let patterns = ["", "^", "$", "^$", "a", "^a", "c$", "^a.-c$", "%w+", "^[%w%.%-_]+@[%w%.%-_]+%.%a+$", "^%s*(.-)%s*$",
                        "%b()", "%f[%w]%w+", "(a)%1", "(a*)b%1", "[^%s]+", "[a-c]+$", "a?b", "a-b", "^(%w+)=(%w+)$", "()",
                        "%d%a", "[%]]", "^%u", "[]]", "%.", "x*$", "^(h)(e)(l)", "%f[%z]", "[^]]"]
        for subject in subjects {
            for pattern in patterns {
                lua.push(subject)
                lua.setGlobal("S")
                lua.push(pattern)
                lua.setGlobal("P")
                let want = try lua.evaluate("return (string.find(S, P)) ~= nil")
                let got = LuaPattern.find(subject, pattern)
                #expect(got == (want == .bool(true) ? .found : .notFound), "find(\"\(subject)\", \"\(pattern)\"): Lua says \(want)")
            }
        }
        #expect(LuaPattern.find("abc", "[a") == .malformed("malformed pattern (missing ']')"))
        #expect(LuaPattern.find("abc", "a%") == .malformed("malformed pattern (ends with '%')"))
        #expect(LuaPattern.find("abc", "a)") == .malformed("invalid pattern capture"))
    }

    @Test func aRuleMatcherOutOfStepsSaysSo() {
        let subject = String(repeating: "a", count: 5000)
        let pattern = String(repeating: "a*", count: 30) + "b"
        #expect(LuaPattern.find(subject, pattern, steps: 1_000_000) == .tooCostly(steps: 1_000_000))
        // a valid address far longer than the bound the sandbox computes beforehand allows
        let address = String(repeating: "a", count: 400) + "@example.org"
        #expect(LuaPattern.find(address, "^[%w%.%-_]+@[%w%.%-_]+%.%a+$") == .found)
        #expect(LuaPattern.find(String(repeating: "a", count: 300 * 1024) + "b", "a+b") == .found, "no subject limit")
    }

    static let emailApp = """
    local okit = require "okit"
    okit.entity("Note", {
      title = { "string", default = "note@example.org", pattern = "^[%w%.%-_]+@[%w%.%-_]+%.%a+$", message = "Title must be an email" },
      slow = { "string?", pattern = "^(a*)(a*)(a*)(a*)(a*)(a*)(a*)(a*)(a*)(a*)(a*)(a*)b$", message = "Slow must end in b" },
    })
    notes = okit.model("Note", {})
    okit.detail("note", { sections = { {
      okit.cell.text { path = "%Title", textPath = "title" },
      okit.cell.text { path = "%Slow", textPath = "slow" },
    } } })
    okit.app { home = "note" }
    """

    @Test func aFieldPatternAcceptsLongValidValuesAndNeverShowsLuaInternals() throws {
        let t = try TempApp(["app.lua": Self.emailApp])
        let app = try t.launch()
        app.installAppGlobal()
        try app.run("""
        app:edit(true)
        local address = string.rep("a", 400) .. "@example.org"
        app:set("Title", address)
        assert(notes.title == address, "a valid 412-character address is taken")
        local ok, err = pcall(app.set, app, "Title", "not an address")
        assert(not ok and err == "Title must be an email", tostring(err))
        ok, err = pcall(app.set, app, "Slow", string.rep("a", 60))
        assert(not ok and err == "Slow must end in b", "out of steps: the rule's message, got " .. tostring(err))
        """)
        #expect(app.engine.warnings.contains { $0.contains("matcher steps") && $0.contains("backtracks less") }, "\(app.engine.warnings)")
    }
}
