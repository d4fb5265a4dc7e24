import Foundation
import Testing
@testable import OKitLua

/// busted's spies, stubs, mocks and matchers in flow tests, and their assertions: what passes, each failure's
/// message and the test file's line, and spies reverted when their test ends (testing.md).
@Suite struct FlowTestSpyTests {
    @Test func spiesRecordCallsAndReturnsAndCallThrough() throws {
        let h = try FlowFrameworkHarness()
        let r = try h.outcome("""
            local shop = { save = function(self, name) return "saved " .. tostring(name), 2 end }
            local s = spy.on(shop, "save")
            assert.equal("saved Dune", shop:save("Dune"))
            local t = { 1 }
            s(t); t[1] = 99                                  -- recorded as it was at the call
            assert.spy(s).was.called(2)
            assert.spy(s).was.called()
            assert.spy(s).was_called_with(shop, "Dune")
            assert.spy(s).was.called_with({ 1 })
            assert.spy(s).was.called_with({ 99 })            -- or as it is now
            assert.spy(s).was.called_with(match.is_ref(t))
            assert.spy(s).was_not.called_with({ 2 })
            assert.spy(s).was.called_with(match._, match.is_string())
            assert.spy(s).was.called_with(match.is._, match.is_string())
            assert.spy(s).was_not.called_with(match.is_not._, match._)   -- the negated wildcard matches nothing
            assert.spy(s).was_not.called_with(shop, "Emma")
            assert.spy(s).was.returned_with("saved Dune", 2)
            assert.spy(s).was.called_at_least(2); assert.spy(s).was.called_at_most(2)
            assert.spy(s).was.called_more_than(1); assert.spy(s).was.called_less_than(3)
            assert.stub(s).was_not.called(3)
            assert.equal(s.calls[1].refs[2], "Dune")
            assert.is_true(s:called_with(shop, "Dune"))
            s:clear(); assert.spy(s).was_not.called()
            local anonymous = spy.new(function(x) return x * 2 end)
            assert.equal(6, anonymous(3))
            assert.spy(anonymous).was.returned_with(6)
            local nothing = spy()
            nothing(nil)
            assert.spy(nothing).was.called_with(nil)
            assert.spy(nothing).was_not.called_with()        -- the number of arguments counts
            """)
        #expect(r.status == "ok", "\(r.message ?? "")")
    }

    @Test func stubsReturnWhatTheyAreToldAndMocksWrapEveryFunction() throws {
        let h = try FlowFrameworkHarness()
        let r = try h.outcome("""
            local shop = { save = function() error("the real save") end, price = function() return 1 end }
            local s = stub(shop, "save", "stubbed")
            assert.equal("stubbed", shop.save("x"))
            s.returns(1, 2); assert.same({ 1, 2 }, { shop.save() })
            s:returns(5); assert.equal(5, shop.save())
            s.on_call_with("magic").returns("abracadabra")
            assert.equal("abracadabra", shop.save("magic")); assert.equal(5, shop.save("other"))
            s:invokes(function(a) return a * 2 end); assert.equal(8, shop.save(4))
            assert.stub(s).was.called(6)
            local fn = stub(shop, "price", function(n) return n + 1 end)
            assert.equal(3, shop.price(2))
            local blank = stub.new()
            assert.is_nil(blank())
            assert.spy(blank).was.called(1)
            local m = mock({ a = function() return 1 end, sub = { b = function() return 2 end } })
            assert.equal(1, m.a()); assert.equal(2, m.sub.b())
            assert.spy(m.a).was.called(1); assert.spy(m.sub.b).was.called(1)
            mock.revert(m); assert.is_false(spy.is_spy(m.a))
            local quiet = mock({ a = function() return 1 end }, true)
            assert.is_nil(quiet.a())
            """)
        #expect(r.status == "ok", "\(r.message ?? "")")
    }

    @Test func spiesOnFieldsAreRevertedWhenTheirTestOrBlockEnds() throws {
        let h = try FlowFrameworkHarness()
        let (results, counts) = try h.results(of: """
            shop = { save = function() return "real" end, load = function() return "real" end }
            describe("a", function()
              setup(function() stub(shop, "load", "stubbed") end)
              before_each(function() spy.on(shop, "save") end)
              it("spies", function()
                stub(shop, "save", "fake")
                assert.equal("fake", shop.save()); assert.equal("stubbed", shop.load())
              end)
              it("fresh", function()
                assert.equal("real", shop.save()); assert.spy(shop.save).was.called(1)
              end)
            end)
            it("after the block", function()
              assert.is_false(spy.is_spy(shop.save)); assert.equal("real", shop.load())
            end)
            """)
        #expect(counts == [3, 0, 0], "\(results.map { $0.message ?? "" })")
    }

    struct Failure: Sendable {
        var code: String
        var message: String
    }

    static let failures: [Failure] = [
        Failure(code: "local s = spy.new() s(1, 'b') s(3) assert.spy(s).was.called_with(1, 'a')",
                message: "assert.called_with failed\nexpected: a call with (1, \"a\")\n  actual: 2 calls: (1, \"b\"), (3)"),
        Failure(code: "local s = spy.new() assert.spy(s).was.called()",
                message: "assert.called failed\nexpected: at least one call\n  actual: never called"),
        Failure(code: "local s = spy.new() s() assert.spy(s).was.called(2, 'twice')",
                message: "assert.called failed\ntwice\nexpected: 2 calls\n  actual: 1 call: ()"),
        Failure(code: "local s = spy.new() s({ x = 1 }) assert.spy(s).was_not.called()",
                message: "assert.not_called failed\nexpected: no call\n  actual: 1 call: ({x = 1})"),
        Failure(code: "local s = spy.new() s('Dune') assert.spy(s).was_not.called_with('Dune')",
                message: "assert.not_called_with failed\nexpected: no call with (\"Dune\")\n  actual: 1 call: (\"Dune\")"),
        Failure(code: "local s = spy.new(function() return 1 end) s() assert.spy(s).was.returned_with(2)",
                message: "assert.returned_with failed\nexpected: a call that returned (2)\n  actual: returned (1)"),
        Failure(code: "local s = spy.new() assert.spy(s).was.called_at_least(1)",
                message: "assert.called_at_least failed\nexpected: at least 1 call\n  actual: never called"),
        Failure(code: "local s = spy.new() s() s() assert.spy(s).was.called_with(match.is_number())",
                message: "assert.called_with failed\nexpected: a call with (match.is_number())\n  actual: 2 calls: (), ()"),
        Failure(code: "local s = spy.new() s(1) assert.spy(s).was.called_with(match.is_not._)",
                message: "assert.called_with failed\nexpected: a call with (match.is_not._)\n  actual: 1 call: (1)"),
        Failure(code: "assert.spy(print).was.called()",
                message: "assert.spy failed\ns must be a spy (spy.new, spy.on, stub or mock), got function (pass the spy that spy.on or stub returned)"),
    ]

    @Test func aFailingSpyAssertionSaysWhatWasExpectedAndWhatTheCallsWere() throws {
        let h = try FlowFrameworkHarness()
        let source = Self.failures.enumerated().map { "it(\"case \($0.offset + 1)\", function() \($0.element.code) end)" }
            .joined(separator: "\n")
        let (results, counts) = try h.results(of: source)
        #expect(counts == [0, Int64(Self.failures.count), 0])
        for (i, (r, f)) in zip(results, Self.failures).enumerated() {
            #expect(r.message == f.message, "\(f.code)")
            #expect(r.location == "/tmp/x_test.lua:\(i + 1)", "\(f.code)")
        }
    }

    @Test func misuseRaisesAtTheTestFileLine() throws {
        let h = try FlowFrameworkHarness()
        let (results, _) = try h.results(of: """
            it("no spy", function() assert.was.called() end)
            it("not a function", function() spy.on({ save = 42 }, "save") end)
            it("not a table", function() stub(42, "x") end)
            it("no matcher", function() local m = match.is_banana() end)
            """)
        #expect(results.map(\.location) == (1...4).map { "/tmp/x_test.lua:\($0)" })
        #expect(results[0].message?.contains("assert.called must follow assert.spy(s)") == true, "\(results[0].message ?? "")")
        #expect(results[1].message?.contains("spy.on(t, \"save\"): t[\"save\"] must be a function, got number") == true)
        #expect(results[2].message?.contains("stub(t, key [, …]): t must be a table, got number") == true)
        #expect(results[3].message?.contains("match.is_banana: no such matcher") == true)
    }
}
