import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// A screen's `onAppear` or `onDisappear` hook that fails fails the command that moved there, and the command leaves
/// everything as it was (screens.md "Commands"): the person stays where they were, and the error names the hook
/// and the screen. It used to answer `ok: false` with the new screen open.
@Suite struct FailingScreenHookTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Root", { name = "string", visits = "int" })
    root = okit.model("Root", {})
    okit.detail("home", { titlePath = "#Home", sections = { { okit.cell.table { path = "#x", segue = "d" },
      okit.cell.table { path = "#y", segue = "calm" } } },
      onDisappear = function() if LEAVE_FAILS then error("cannot leave") end end,
      onAppear = function() HOME_APPEARED = (HOME_APPEARED or 0) + 1 end })
    okit.detail("d", { titlePath = "#D", sections = { { okit.cell.table { path = "#z" } } },
      onAppear = function() root.visits = root.visits + 1; error("boom") end })
    okit.detail("calm", { titlePath = "#Calm", sections = { { okit.cell.table { path = "#w" } } },
      onDisappear = function() if BACK_FAILS then error("stay") end end })
    okit.app { home = "home" }
    """

    func where_(_ app: LuaApp) throws -> (String, Int) {
        let snap = try app.shell.snapshot()
        return (snap.screen.id, snap.app.depth)
    }

    @Test func aFailingOnAppearLeavesThePersonWhereTheyWereAndNamesTheHook() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        guard case .int(let appearedBefore) = try app.lua.evaluate("return HOME_APPEARED") else { Issue.record("home did not appear"); return }
        #expect(throws: (any Error).self) { try app.driver.run("tap", ["row": .string("x")]) }
        do { try app.driver.run("tap", ["row": .string("x")]) } catch {
            #expect("\(error)".contains("onAppear hook of screen d failed:"), "\(error)")
            #expect("\(error)".contains("boom"), "\(error)")
        }
        #expect(try where_(app) == ("home", 1))
        // The hook's own write is undone with it; the screen left shows again (its onAppear ran once more each time).
        #expect(try app.lua.evaluate("return root.visits") == .int(0))
        #expect(try app.lua.evaluate("return HOME_APPEARED") == .int(appearedBefore + 2))
    }

    @Test func aFailingOnDisappearKeepsTheScreenShown() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        try app.run("LEAVE_FAILS = true")
        do { try app.driver.run("tap", ["row": .string("y")]); Issue.record("no error") } catch {
            #expect("\(error)".contains("onDisappear hook of screen home failed:") && "\(error)".contains("cannot leave"), "\(error)")
        }
        #expect(try where_(app) == ("home", 1))
        try app.run("LEAVE_FAILS = false; BACK_FAILS = true")
        try app.driver.run("tap", ["row": .string("y")])
        #expect(try where_(app) == ("calm", 2))
        do { try app.driver.run("back", [:]); Issue.record("no error") } catch {
            #expect("\(error)".contains("onDisappear hook of screen calm failed:"), "\(error)")
        }
        #expect(try where_(app) == ("calm", 2), "back was undone")
        try app.run("BACK_FAILS = false")
        try app.driver.run("back", [:])
        #expect(try where_(app) == ("home", 1))
    }
}
