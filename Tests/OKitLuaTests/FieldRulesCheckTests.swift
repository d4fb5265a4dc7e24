import Foundation
@testable import OKitLua
import Testing

/// `okit-run check` of validation rules: a rule on a field type it cannot apply to, a `min` above its `max`, a
/// malformed pattern — each at the line and column of the rule's value.
@Suite struct FieldRulesCheckTests {
    static let planted = """
    local okit = require "okit"
    okit.entity("Book", {
      name   = { "string", min = 1 },
      price  = { "double", min = 10, max = 5 },
      flag   = { "bool", maxLength = 3 },
      code   = { "string", pattern = "^[A-Z" },
      ok     = { "string", required = true, pattern = "^%u+$", maxLength = 4 },
      tags   = { "[string]", required = true },
      ref    = { "int", pattern = "(%d" },
    })
    okit.entity("Shop", { books = "[Book]" })
    shop = okit.model("Shop")
    """

    @Test func eachPlantedRuleMistakeIsFoundAtItsValue() throws {
        let result = try CheckFindingsTests.check(FieldRulesCheckTests.planted)
        let expected = [
            "app.lua:3:30: entity Book, field name: min applies to int and double fields, not to string fields (use maxLength for a string's length)",
            "app.lua:4:30: entity Book, field price: min 10 is greater than max 5: no value is valid",
            "app.lua:5:34: entity Book, field flag: maxLength applies to string fields, not to bool fields",
            "app.lua:6:35: entity Book, field code: pattern \"^[A-Z\" is malformed: malformed pattern (missing ']')",
            "app.lua:8:37: entity Book, field tags: required does not apply to [string] fields (it checks a value, not a collection)",
            "app.lua:9:32: entity Book, field ref: pattern applies to string fields, not to int fields",
            "app.lua:9:32: entity Book, field ref: pattern \"(%d\" is malformed: unfinished capture",
        ]
        #expect(result.problems == expected, "\(result.problems.joined(separator: "\n"))")
    }

    @Test func luaPatternSyntaxFollowsLuasMatcher() {
        #expect(LuaPatternSyntax.problem(in: "^%u%u%d+$") == nil)
        #expect(LuaPatternSyntax.problem(in: "[]]") == nil, "a ] right after [ is a member")
        #expect(LuaPatternSyntax.problem(in: "%b()") == nil)
        #expect(LuaPatternSyntax.problem(in: "%f[%w]%w+") == nil)
        #expect(LuaPatternSyntax.problem(in: "(a)%1") == nil)
        #expect(LuaPatternSyntax.problem(in: "a%") == "malformed pattern (ends with '%')")
        #expect(LuaPatternSyntax.problem(in: "[a") == "malformed pattern (missing ']')")
        #expect(LuaPatternSyntax.problem(in: "[a%") == "malformed pattern (missing ']')")
        #expect(LuaPatternSyntax.problem(in: "%b(") == "malformed pattern (missing arguments to '%b')")
        #expect(LuaPatternSyntax.problem(in: "%fa") == "missing '[' after '%f' in pattern")
        #expect(LuaPatternSyntax.problem(in: "a)") == "invalid pattern capture")
        #expect(LuaPatternSyntax.problem(in: "(a") == "unfinished capture")
        #expect(LuaPatternSyntax.problem(in: "(a%1)") == "invalid capture index %1")
    }
}
