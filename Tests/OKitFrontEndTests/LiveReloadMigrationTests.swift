import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// A live reload that changes a field's type (web.md "Live reload": "`okit.version` and its migrations run as at any
/// load"): with the next version and a migration the values are converted in memory, wherever the file declares the
/// version; without one the reload is refused with the load's advice (it was refused either way, without advice).
@Suite struct LiveReloadMigrationTests {
    /// The tasks app with the seeded task's priority (5) shown on its detail.
    static let priorityCell = ", okit.cell.text { path = \"%Priority\", detailPath = \"priority\" }"

    /// Version 2 of the app: `priority` a string, converted by `okit.migrate(1, …)` declared after the model.
    static func version2(migrate: Bool, version: Int = 2) -> String {
        var source = LiveReloadTests.app(taskFields: "priority = \"string\",", detailCells: priorityCell)
            .replacingOccurrences(of: "okit.app { id = \"reload\",", with: "okit.app { id = \"reload\", version = \(version),")
        if migrate {
            source += """

            okit.migrate(1, function(model, raw)
              for i, t in ipairs(model.tasks) do t.priority = "P" .. tostring(raw.tasks[i].priority) end
            end)
            """
        }
        return source
    }

    @Test func theNextVersionsMigrationConvertsTheModelKeptInMemory() async throws {
        let s = try await LiveReloadTests.serve(LiveReloadTests.app(detailCells: Self.priorityCell))
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        let seeded = try #require(LiveReloadTests.rowLink(b, "Seeded"))
        try s.write(Self.version2(migrate: true))
        let reloaded = await s.web.reload(s.make)
        let error = await s.web.reloadError ?? ""
        #expect(reloaded, "\(error)")
        _ = await b.get(seeded)
        #expect(b.page.contains(">P5<"), Comment(rawValue: b.page))
    }

    @Test func aChangedTypeWithoutAMigrationIsRefusedWithTheLoadsAdvice() async throws {
        let s = try await LiveReloadTests.serve(LiveReloadTests.app(detailCells: Self.priorityCell))
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        try s.write(Self.version2(migrate: false, version: 1))
        #expect(await s.web.reload(s.make) == false)
        let error = await s.web.reloadError ?? ""
        #expect(error.contains("field \"priority\" of Task holds a number (5)")
                && error.contains("give the app the next version (okit.app { version = 2 })"), "\(error)")
        _ = await b.get("/tasks")
        #expect(b.page.contains("okit-dev-error") && b.page.contains(">Seeded<"), "the last app keeps serving")
    }
}
