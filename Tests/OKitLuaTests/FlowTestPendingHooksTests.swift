import Foundation
import Testing
@testable import OKitLua

/// Edge cases of hooks around a pending test (testing.md "Structure").
@Suite struct FlowTestPendingHooksTests {
    @Test func anAfterEachErrorFailsAPendingTestAsAFinallyErrorDoes() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: """
            describe("d", function()
              after_each(function() error("after_each broke") end)
              it("pending", function() pending("later") end)
            end)
            describe("e", function()
              it("pending", function()
                finally(function() error("finally broke") end)
                pending("later")
              end)
            end)
            """)
        #expect(results.map(\.status) == ["fail", "fail"])
        #expect(counts == [0, 2, 0])
        #expect(results.first?.message == "after_each of the test at /tmp/x_test.lua:3 failed: /tmp/x_test.lua:2: after_each broke")
    }
}
