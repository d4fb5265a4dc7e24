import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// OKit's `ModelApplicationContoller` inspectables a port keeps in `okit.app` (docs/migration.md): the home and menu
/// by OKit's names, the ones without a headless meaning ignored with their bindings compiled.
@Suite struct OKitAppNamesTests {
    static let app = """
    okit.entity("Shop", { title = "string", books = "[Book]" })
    okit.entity("Book", { name = "string" })
    shop = okit.model("Shop")
    okit.list("books", { dataPath = "books", titlePath = "#Books" })
    okit.menu("side", { dataPath = "books" })
    """

    @Test func homeAndMenuByOKitsNamesAndTheInertOnes() throws {
        let t = try TempApp(["app.lua": Self.app + """

        okit.app { homeIdentifier = "books", menuIdentifier = "side", storyboardName = "Main",
                   popGesture = "#true", menuHideStatusBar = "#false" }
        """])
        let app = try t.launch()
        #expect(try app.shell.snapshot().screen.id == "books")
        #expect(app.appEntryPoints.home == ["books"] && app.appEntryPoints.menu == "side")
    }

    @Test func aClashOrABadBindingIsRefusedAtTheCall() throws {
        let clash = try DeclarationTypoTests.loadError(Self.app + "\nokit.app { home = \"books\", homeIdentifier = \"side\" }")
        #expect(clash?.contains("okit.app: home and OKit's homeIdentifier name different screens (\"books\", \"side\"); keep home only") == true, "\(clash ?? "loaded")")
        let bad = try DeclarationTypoTests.loadError(Self.app + "\nokit.app { home = \"books\", popGesture = \"books[0\" }")
        #expect(bad?.contains("okit.app, popGesture:") == true, "\(bad ?? "loaded")")
        #expect(try DeclarationTypoTests.loadError(Self.app + "\nokit.app { home = \"books\", homeIdentifier = \"books\" }") == nil)
    }
}
