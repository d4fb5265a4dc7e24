import Foundation
import Testing
import OKitTestSupport
@testable import OKitLua

/// A second outside comparison with busted 2.1.1 (testing.md "Busted projects"): tests timed on the wall clock,
/// busted's default C module path in a module's search list, junit's `skip=`, and luassert's API as luassert has it
/// (also apptests/busted/luassert_api).
@Suite struct BustedRoundTwoTests: BustedProjectSuite {
    /// The framework reads a test's seconds from the clock the host gives it (the wall clock), not from `os.clock`
    /// (CPU time, which a test that sleeps or waits hardly uses).
    @Test func aTestsSecondsComeFromTheHostsClock() throws {
        let lua = try runtimeTestState { $0.policy = .unsafe }
        try lua.load(source: FlowTestFramework.source, chunkName: "=okit.test.framework")
        var now = 100.0
        lua.push(function: "clock") { call in
            now += 7
            call.state.push(now)
            return 1
        }
        try lua.pcall(nargs: 1, nresults: 1)
        lua.setGlobal("T")
        let seconds = try lua.evaluate("""
            T.install()
            it("waits", function() end)
            local seconds
            T.run { report = function(r) seconds = r.seconds end }
            return seconds
            """)
        guard case .double(let s) = seconds else { Issue.record("\(seconds)"); return }
        #expect(s >= 7 && s.truncatingRemainder(dividingBy: 7) == 0, "read from the host's clock: \(s)")
    }

    @Test func aMissingModuleListsBustedsCPathAndThisMachinesFolders() throws {
        let folder = try project(["spec/a_spec.lua": "it(\"x\", function() require \"nosuchmod\" end)\n"])
        let r = try run(folder, [])
        #expect(r.out.contains("\tno file './csrc/nosuchmod.so'\n# \tno file './csrc/nosuchmod/nosuchmod.so'\n"), "\(r.out)")
        #if arch(x86_64)
        #expect(!r.out.contains("aarch64"), "\(r.out)")
        #elseif arch(arm64)
        #expect(!r.out.contains("x86_64"), "\(r.out)")
        #endif
        let moved = try run(folder, ["--cpath", "./native/?.so"])
        #expect(moved.out.contains("no file './native/nosuchmod.so'") && !moved.out.contains("csrc"), "--cpath replaces it: \(moved.out)")
    }

    @Test func junitCountsPendingSpecsInSkip() throws {
        let folder = try project(["spec/a_spec.lua": "it(\"x\", function() end)\npending(\"later\")\n"])
        let r = try run(folder, ["-o", "junit"])
        #expect(r.out.contains("errors=\"0\" skip=\"1\" time=") && !r.out.contains("skipped=\""), "as busted writes it: \(r.out)")
    }

    /// apptests/busted/luassert_api: every test passes under busted 2.1.1.
    @Test func luassertsAPIAsLuassertHasIt() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let specs = here.appendingPathComponent("apptests/busted/luassert_api/spec")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: specs.path) where name.hasSuffix(".lua") {
            files["spec/" + name] = try String(contentsOf: specs.appendingPathComponent(name), encoding: .utf8)
        }
        let r = try run(try project(files), [])
        #expect(r.code == 0 && !r.out.contains("not ok"), "\(r.out)")
    }
}
