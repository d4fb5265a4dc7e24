import Foundation
import Testing
import OKitTestSupport

/// What real projects' specs met that busted 2.1.1 does and okit did not (found by running 14 projects' suites under
/// both): `-p` matched against the whole file name, luassert's composite matchers and the assertions named after
/// busted's aliases, a spy on a field not there yet, `require`'s message without an empty line, and the terminal
/// outputs line for line. Each expectation here is what `busted` itself printed for the same files.
@Suite struct BustedCompatibilityTests: BustedProjectSuite {
    func tapNames(_ out: String) -> [String] {
        out.split(separator: "\n").compactMap { $0.hasPrefix("ok ") ? String($0.split(separator: "-", maxSplits: 1)[1].dropFirst()) : nil }
    }

    @Test func aPatternIsMatchedAgainstTheWholeFileNameAsBustedMatchesIt() throws {
        let folder = try project(["checks/a.lua": "it(\"works a\", function() end)\n",
                                  "checks/b_spec.lua": "it(\"works b\", function() end)\n"])
        #expect(tapNames(try run(folder, ["-p", ".lua", "checks"]).out) == ["works a", "works b"], "`.lua` is part of the name")
        #expect(tapNames(try run(folder, ["-p", "a", "checks"]).out) == ["works a", "works b"], "b_spec.lua has an a")
        #expect(tapNames(try run(folder, ["-p", "^a", "checks"]).out) == ["works a"])
        #expect(tapNames(try run(folder, ["-p", ".", "--exclude-pattern", "^b", "checks"]).out) == ["works a"])
        #expect(tapNames(try run(folder, ["-p", ".", "--exclude-pattern", "", "checks"]).out) == ["works a", "works b"],
                "an empty exclude pattern leaves nothing out")
    }

    @Test func luassertsCompositesAliasesAndSpiesOnAFieldNotThereYetPass() throws {
        let folder = try project(["spec/m_spec.lua": """
        describe("m", function()
          it("composites", function()
            local s = spy.new(function() end)
            s("text", 5)
            assert.spy(s).was.called_with(match.all_of(match.is_string(), match.matches("^te")), match.any_of(match.is_string(), match.is_number()))
            assert.spy(s).was.called_with(match.none_of(match.is_number()), match._)
            assert.spy(s).was_not.called_with(match.all_of(match.is_string(), match.is_number()), match._)
          end)
          it("aliases and arguments", function()
            assert.matches_error(function() error("bad thing") end, "bad")
            assert.has.match_error(function() error("bad thing") end, "thing$")
            assert.returned_arguments(2, 1, 2)
            assert.is_not.returned_arguments(1, 1, 2)
            assert.near("1", 1.05, 0.1)
          end)
          it("spies on a field not there yet", function()
            local t = {}
            local s = spy.on(t, "later")
            t.later(3)
            assert.spy(s).was.called_with(3)
          end)
          it("needs a module", function()
            local ok, err = pcall(require, "nowhere_module")
            assert.is_false(ok)
            assert.is_nil(err:find("\\n\\t\\n", 1, true))
          end)
        end)
        """])
        let r = try run(folder, [])
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(tapNames(r.out) == ["m composites", "m aliases and arguments", "m spies on a field not there yet", "m needs a module"])
    }

    @Test func aCompositeOfSomethingElseThanMatchersIsAnErrorNamingIt() throws {
        let folder = try project(["spec/c_spec.lua": """
        it("wrong", function() local m = match.all_of(match.is_string(), "text") end)
        """])
        let r = try run(folder, [])
        #expect(r.code == 1 && r.out.contains("match.all_of: argument 2 must be a matcher"), "\(r.out)")
    }

    static let terminalSpec = """
    describe("d", function()
      it("fails", function()
        assert.is_true(false)
      end)
      it("waits", function() pending("soon") end)
    end)
    """

    @Test func theTerminalOutputsAreBustedsLineForLine() throws {
        let folder = try project(["spec/t_spec.lua": Self.terminalSpec])
        let plain = try run(folder, ["-o", "plainTerminal"]).out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(plain.count > 9, "\(plain)")
        #expect(plain[0] == "-.")
        #expect(plain[1].hasPrefix("0 successes / 1 failure / 0 errors / 1 pending : ") && plain[1].hasSuffix(" seconds"))
        #expect(Array(plain[2...5]) == ["", "Pending -> spec/t_spec.lua @ 5", "d waits", "spec/t_spec.lua:5: soon"], "\(plain)")
        #expect(Array(plain[6...9]) == ["", "Failure -> spec/t_spec.lua @ 2", "d fails", "spec/t_spec.lua:3: assert.is_true failed"], "\(plain)")
        #expect(!plain.contains { $0.contains("passed,") }, "busted's summary only, on stdout")
        let utf = try run(folder, ["-o", "utfTerminal"]).out
        #expect(utf.hasPrefix("◼◌\n0 successes / 1 failure") && utf.contains("\nPending → spec/t_spec.lua @ 5\n")
                && utf.contains("\nFailure → spec/t_spec.lua @ 2\n"), "\(utf)")
    }
}
