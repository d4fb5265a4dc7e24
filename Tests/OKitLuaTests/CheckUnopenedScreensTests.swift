import Foundation
@testable import OKitLua
import Testing

/// `okit-run check` on screens nothing in the declarations opens (an app with a home that opens them only from
/// Lua): each is checked on every declared entity type, problems are reported only when it fits none, and the
/// summary names them with the type each was checked on.
@Suite struct CheckUnopenedScreensTests {
    static let model = """
    local okit = require "okit"
    okit.entity("Pet", { name = "string", species = "string", born = "date" })
    okit.entity("Owner", { name = "string", phone = "string", pets = "[Pet]" })
    okit.entity("Clinic", { owners = "[Owner]" })
    clinic = okit.model("Clinic")
    okit.list("owners", { dataPath = "owners", cell = { path = "name" } })

    """

    @Test func aScreenOpenedOnlyFromLuaIsCheckedOnTheTypeItFits() throws {
        let result = try CheckFindingsTests.check(Self.model + """
        okit.list("pets", { dataPath = "pets", cell = { path = "name", detailPath = "species" } })
        okit.detail("pet", { sections = { { okit.cell.date { path = "%Born", datePath = "born" } } } })
        okit.app { home = "owners" }
        function openPets(owner) app:open("pets", owner) end
        """)
        #expect(result.problems == [])
        #expect(result.summary.contains("opened only from Lua, so checked on the type each fits: pets (Owner), pet (Pet)"),
                "\(result.summary)")
    }

    @Test func aScreenThatFitsNoTypeIsReportedOnItsBestFit() throws {
        let result = try CheckFindingsTests.check(Self.model + """
        okit.list("pets", { dataPath = "pets", cell = { path = "name", detailPath = "specis" } })
        okit.app { home = "owners" }
        """)
        #expect(result.problems.count == 1, "\(result.problems)")
        let line = try #require(result.problems.first)
        #expect(line.hasPrefix("app.lua:7:"), "\(line)")
        #expect(line.contains("screen pets, property cell.detailPath") && line.contains("specis") && line.contains("species"), "\(line)")
        #expect(result.summary.contains("pets (Owner, best fit)"), "\(result.summary)")
    }

    @Test func screensTheAppOpensAreNotNamed() throws {
        let result = try CheckFindingsTests.check(Self.model + """
        okit.list("pets", { dataPath = "pets", cell = { path = "name" } })
        okit.list("owners2", { dataPath = "owners", segue = "pets", cell = { path = "name" } })
        okit.app { home = { "owners", "owners2" } }
        """)
        #expect(result.problems == [])
        #expect(!result.summary.contains("opened only from Lua"), "\(result.summary)")
    }
}
