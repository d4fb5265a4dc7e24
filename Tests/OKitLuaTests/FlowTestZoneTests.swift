import Foundation
import Testing
@testable import OKitLua

/// A spec's `os.date` is in the time zone of the app it launched (testing.md), not UTC: a Turkish author's
/// `os.date("%H:%M")` in a spec said 10:00 where the app said 13:00.
@Suite struct FlowTestZoneTests {
    @Test func aSpecReadsTheLaunchedAppsZone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-zone-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tests"), withIntermediateDirectories: true)
        try """
        local okit = require "okit"
        okit.locale { language = "tr", region = "TR", timeZone = "Europe/Istanbul" }
        okit.entity("Notes", { text = "string" })
        okit.model("Notes")
        okit.detail("notes", { titlePath = "#Notes" })
        okit.app { id = "zone", home = "notes" }
        """.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        try """
        local launch = require("okit.test").launch
        it("is in the app's zone", function()
          assert.equal("10:00 UTC", os.date("!%H:%M UTC"))
          local app = launch("../app.lua")
          assert.equal("13:00 +03", os.date("%H:%M %Z"))
        end)
        """.write(to: dir.appendingPathComponent("tests/zone_test.lua"), atomically: true, encoding: .utf8)
        var options = FlowTestOptions()
        options.scratch = dir.appendingPathComponent("scratch")
        options.print = { _ in }
        let runner = FlowTestRunner(options: options)
        var lines: [String] = []
        let totals = runner.run(try FlowTestRunner.discover([], root: dir), root: dir) { lines.append($0) }
        #expect(totals == (1, 0, 0), "\(lines)")
    }
}
