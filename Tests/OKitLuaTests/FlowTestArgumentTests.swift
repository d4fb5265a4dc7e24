import Foundation
import Testing
@testable import OKitLua

/// Assertions given too few arguments (the expected value forgotten) fail as luassert's do, and a long text that
/// differs says where (testing.md "Assertions").
@Suite struct FlowTestArgumentTests {
    @Test func anAssertionGivenTooFewArgumentsFails() throws {
        let h = try FlowFrameworkHarness()
        func message(_ body: String) throws -> String? {
            let r = try h.outcome(body)
            #expect(r.status == "fail", "\(body) must fail")
            #expect(r.location == "/tmp/x_test.lua:2", "\(body): the test file's line")
            return r.message
        }
        func minimum(_ call: String, _ name: String, _ n: Int, _ got: Int) -> String {
            "assert.\(call) failed\nthe '\(name)' function requires a minimum of \(n) arguments, got: \(got)"
        }
        #expect(try message("local v; assert.equal(v)") == minimum("equal", "equals", 2, 1))
        #expect(try message("assert.equals(nil)") == minimum("equal", "equals", 2, 1))
        #expect(try message("assert.same(nil)") == minimum("same", "same", 2, 1))
        #expect(try message("assert.falsy()") == minimum("falsy", "falsy", 1, 0))
        #expect(try message("assert.truthy()") == minimum("truthy", "truthy", 1, 0))
        #expect(try message("assert.is_not.truthy()") == minimum("not_truthy", "truthy", 1, 0))
        #expect(try message("assert.not_equal(1)") == minimum("not_equal", "equals", 2, 1), "luassert names 'equals'")
        #expect(try message("assert.near(1, 2)") == minimum("near", "near", 3, 2))
        #expect(try message("assert.matches('x')") == minimum("matches", "matches", 2, 1))
        #expect(try message("assert.error_matches(function() error('x') end)") == minimum("error_matches", "error_matches", 2, 1))
        #expect(try message("assert.contains({})") == minimum("contains", "contains", 2, 1))
        #expect(try message("assert.message('hi').equal(1)") == minimum("equal", "equals", 2, 1), "as luassert: no message added")
        // nil given counts, as luassert's `n`; is_nil() passes, as under luassert
        for passing in ["assert.equal(nil, nil)", "assert.same(nil, nil)", "assert.falsy(nil)", "assert.is_nil()", "assert.near(1, 1.5, 1)"] {
            #expect(try h.outcome(passing).status == "ok", "\(passing)")
        }
    }

    @Test func twoLongTextsSayWhereTheyFirstDiffer() throws {
        let h = try FlowFrameworkHarness()
        let r = try h.outcome("assert.equal(string.rep('a', 3000), string.rep('a', 2999) .. 'b')")
        let lines = r.message?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.last == "first difference at byte 3000: expected …\"aaaaaaaaaaaaa\", got …\"aaaaaaaaaaaab\"", "\(lines.last ?? "")")
        let shorter = try h.outcome("assert.same('Müller ' .. string.rep('x', 40), 'Müller ' .. string.rep('x', 39))")
        #expect(shorter.message?.hasSuffix("first difference at byte 48: expected …\"xxxxxxxxxxxxx\", got the end of the text") == true,
                "\(shorter.message ?? "")")
        let short = try h.outcome("assert.equal('abc', 'abd')")
        #expect(short.message == "assert.equal failed\nexpected: \"abc\"\n  actual: \"abd\"", "short texts are read at a glance")
    }
}
