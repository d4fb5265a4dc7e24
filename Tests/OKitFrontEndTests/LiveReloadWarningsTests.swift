import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// Development mode lists the warnings the serving app loaded with on every page (web.md "Live reload",
/// "Warnings"): a cell's misspelled property saved in the editor was said on stderr only, and the page just showed
/// an empty cell that refused what was typed.
@Suite struct LiveReloadWarningsTests {
    @Test func aMisspelledPropertySavedDuringDevelopmentIsListedOnThePage() async throws {
        let s = try await LiveReloadTests.serve()
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        #expect(!b.page.contains("okit-dev-warnings"), "a clean app shows no box")
        let typo = ", okit.cell.text { path = \"%Priority\", textPth = \"priority\" }"
        try s.write(LiveReloadTests.app(detailCells: typo))
        #expect(await s.web.reload(s.make))
        _ = await b.get("/tasks")
        #expect(b.page.contains("id=\"okit-dev-warnings\"") && b.page.contains("The app loaded with 1 warning<"), "\(b.page)")
        #expect(b.page.contains("textPth") && b.page.contains("textPath"), "the name and the one it meant: \(b.page)")
        try s.write(LiveReloadTests.app())
        #expect(await s.web.reload(s.make))
        _ = await b.get("/tasks")
        #expect(!b.page.contains("okit-dev-warnings"), "fixed: the box goes")
    }
}
