import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua
/// A picker's option named by a number (screens.md "Cells": name, id, then position): the built-in protection
/// timeouts have ids "0", "1", "5", "10"; `set Timeout 1` took position 1 (Immediately: the app locked at once)
/// and `set Timeout 5` was refused.
@Suite struct PickerNumberTests {
    @Test func aNumberIsTheOptionsNameOrIdBeforeItsPosition() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Notes", { text = "string" })
        okit.model("Notes")
        okit.model(okit.Settings, { name = "settings" })
        okit.settings("prefs", { contextPath = "settings>/", editAlways = "#true", sections = { {
          okit.cell.picker { path = "#Timeout", id = "Timeout", dataPath = "timeouts", namePath = "name", selectionPath = "protectionTimeout" } } } })
        okit.app { home = "prefs" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        func chosen() throws -> String? {
            let s = try app.shell.snapshot()
            return s.screen.sections.first?.rows.first?.detail
        }
        for (given, shown) in [(Value.int(1), "1 Minute"), (.int(5), "5 Minutes"), (.string("10"), "10 Minutes"), (.int(0), "Immediately")] {
            try app.driver.run("set", ["cell": .string("Timeout"), "value": given])
            #expect(try chosen() == shown, "\(given)")
        }
        // A number that is no name nor id is a position.
        try app.driver.run("set", ["cell": .string("Timeout"), "value": .int(3)])
        #expect(try chosen() == "5 Minutes")
    }
}
