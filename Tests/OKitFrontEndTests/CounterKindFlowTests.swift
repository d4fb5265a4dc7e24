import Foundation
import Testing
import OKitTestSupport
import OKitEngine
import OKitLua
@testable import okit_run

/// A kind of one's own beyond the session: flow tests launch apps that declare it and drive its commands through
/// `app:`, okit-run registers it in one place for every subcommand and for `okit-run test`, its snapshot fills the
/// shared sections and buttons, and a command named as one of the driver's own is refused when it is registered
/// (docs/engine.md "Where to put a new screen kind").
@Suite struct CounterKindFlowTests {
    static let app = """
        local okit = require "okit"
        okit.entity("Shop", { count = "int" })
        shop = okit.model("Shop")
        okit.counter("tally", { titlePath = "%Tally", valuePath = "count" })
        okit.app { id = "tally", home = "tally" }
        """

    static let test = """
        local launch = require("okit.test").launch
        describe("the tally", function()
          it("bumps and resets", function()
            local app = launch("../app.lua")
            local s = app:bump(2)
            assert.equal("counter", s.screen.kind)
            assert.equal(2, s.screen.counter.value)
            assert.equal(0, app:reset().screen.counter.value)
          end)
        end)
        """

    /// Runs the test files of `folder` with `kinds`: (passed, failed, the TAP lines).
    static func run(_ folder: TempFolder, kinds: ScreenKinds) throws -> (passed: Int, failed: Int, lines: [String]) {
        var options = FlowTestOptions()
        options.scratch = folder.url.appendingPathComponent("scratch", isDirectory: true)
        options.print = { _ in }
        options.screenKinds = kinds
        let runner = FlowTestRunner(options: options)
        var lines: [String] = []
        let totals = runner.run(try FlowTestRunner.discover([], root: folder.url), root: folder.url) { lines.append($0) }
        return (totals.0, totals.1, lines)
    }

    @Test func aFlowTestLaunchesAnAppOfAKindOfItsOwnAndDrivesItsCommands() throws {
        let folder = try TempFolder()
        try folder.put("app.lua", Self.app)
        try folder.put("tests/tally_test.lua", Self.test)
        var kinds = ScreenKinds.builtIn
        try kinds.register(.counter)
        let done = try Self.run(folder, kinds: kinds)
        #expect(done.passed == 1 && done.failed == 0, "\(done.lines)")
        // without the kind, the app does not load: the test fails, and the failure says so
        let without = try Self.run(folder, kinds: .builtIn)
        #expect(without.failed == 1, "\(without.lines)")
        #expect(without.lines.joined(separator: "\n").contains("counter"), "\(without.lines)")
    }

    @Test func okitRunGivesEveryAppAndEveryFlowTestTheKindsItRegistersOnce() throws {
        #expect(AppLoader.screenKinds.names == ScreenKinds.builtIn.names)
        let folder = try TempFolder()
        try folder.put("app.lua", "local okit = require 'okit'\nokit.entity('Shop', {})\nokit.model('Shop')\n"
            + "okit.list('l', { dataPath = '', titlePath = '%L' })\nokit.app { id = 'a', home = 'l' }\n")
        let app = try AppLoader.check.load(folder.url.appendingPathComponent("app.lua"), dataFolder: folder.url.appendingPathComponent("data"))
        #expect(app.shell.kinds.names == AppLoader.screenKinds.names)
    }

    @Test func aKindFillsTheSharedSectionsAndButtonsOfItsSnapshot() throws {
        let session = try Fixture.session(home: ["tally"])
        let screen = CounterScreen(declaration: CounterDeclaration(id: "tally"), engine: session.engine,
                                   context: session.engine.model(named: "default")?.root)
        let s = try screen.snapshotWithRows([1, 3])
        let json = Snapshot(app: AppSnapshot(), screen: s).json
        #expect(json.contains(#""buttons":[{"id":"reset","title":"Reset","enabled":true}]"#), "\(json)")
        #expect(json.contains(#""header":"History""#) && json.contains(#""text":"3""#), "\(json)")
    }

    @Test func aKindsCommandNamedAsOneOfTheDriversOwnIsRefusedAtRegistration() throws {
        var kinds = ScreenKinds.builtIn
        let shadow = ScreenKind(name: "shadow", commands: [.on(CommandDescription("advance")) { (_: CounterScreen, _) in }])
        #expect(throws: ScreenKindError.self) { try kinds.register(shadow) }
        #expect(kinds["shadow"] == nil)
        do { try kinds.register(shadow) } catch {
            #expect("\(error)".hasPrefix("screen kind shadow: its command advance has the name of a command the driver runs itself, so it could never run; rename it (the names kept: screen, open,"))
        }
        // the names kept are the driver's own commands, neither more nor fewer
        let own = Driver.builtIn.filter { !$0.isScreenCommand }.map(\.description.name)
        #expect(Set(ScreenKinds.reservedCommandNames) == Set(own))
        #expect(AppSession().engine.warnings.isEmpty)
    }
}
