import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// The web as a person expects it (issue 36 item 15): a row's swipe actions behind one row menu, Delete shown in
/// edit mode only (and not when edit mode selects many), text fields saved by the script without a Save button,
/// Escape's buttons, no positive tab order.
@Suite struct RowMenuAndKeyboardTests {
    func page(_ s: Snapshot, _ c: PageContext = Fixtures.context()) -> String { PageRenderer.renderString(s, c) }

    static func editing(_ s: Snapshot) -> Snapshot {
        var s = s
        s.screen.editing = true
        return s
    }

    @Test func outsideEditModeARowsActionsAreBehindOneNamedMenu() throws {
        let html = page(Fixtures.list())
        #expect(Fixtures.count("<details class=\"okit-row-menu\">", in: html) == 1, "one menu: only Dune has actions")
        let start = try #require(html.range(of: "<details class=\"okit-row-menu\"><summary aria-label=\"Actions: Dune\" title=\"Actions\">⋯</summary>"))
        let menu = String(html[start.lowerBound...].prefix { _ in true }).components(separatedBy: "</details>")[0]
        for command in ["quick", "more", "delete"] {
            #expect(menu.contains("value=\"\(command)\"><input type=\"hidden\" name=\"row\" value=\"id-dune\">"), "\(command) in the menu")
        }
        #expect(!html.contains("okit-button okit-delete"), "no red Delete outside edit mode")
        #expect(html.contains("<div class=\"okit-row-actions\"><form"), "the accessory stays on the row")
        #expect(html.contains(">Mark</button>"))
    }

    /// The menu's name in French: a no-break space before the colon, as French typesetting has it (a French
    /// tester's page said `Actions: Loyer`).
    @Test func theRowMenusNameFollowsFrenchTypography() {
        var context = Fixtures.context()
        context.words = BuiltInWords(language: "fr")
        let html = page(Fixtures.list(), context)
        #expect(html.contains("<summary aria-label=\"Actions\u{A0}: Dune\" title=\"Actions\">"), "\(html)")
        context.words = BuiltInWords(language: "de")
        #expect(page(Fixtures.list(), context).contains("<summary aria-label=\"Aktionen: Dune\" title=\"Aktionen\">"))
    }

    @Test func inEditModeEachDeletableRowShowsItsDelete() {
        let html = page(Self.editing(Fixtures.list()))
        #expect(html.contains("<button type=\"submit\" class=\"okit-button okit-delete\">Delete</button>"))
        #expect(!html.contains("okit-menu-delete"), "Delete is not also in the menu")
        #expect(html.contains("class=\"okit-row-menu\""), "quick and More stay in the menu")
    }

    @Test func editModeThatSelectsManyRowsShowsNoDelete() {
        var context = Fixtures.context()
        context.selectableInEdit = true
        let html = page(Self.editing(Fixtures.list()), context)
        #expect(!html.contains("value=\"delete\""), "\(html)")
        #expect(html.contains("class=\"okit-button okit-select\""))
    }

    @Test func textFieldsSaveWithTheScriptAndShowSaveWithoutIt() {
        let html = page(Fixtures.detail())
        // The text, multiline and secure cells: forms the script sends on Enter and on change; Save is okit-nojs.
        #expect(Fixtures.count("class=\"okit-form okit-control okit-auto okit-text-save\"", in: html) == 3)
        #expect(html.contains("<textarea id=\"control-1-3\""))
        #expect(html.contains("<button type=\"submit\" class=\"okit-button okit-nojs\">Save</button>"))
        #expect(Stylesheet.css.contains(".okit-js .okit-auto .okit-nojs { display: none; }"))
        #expect(Script.js.contains("okit-text-save") && Script.js.contains("\"Escape\""))
    }

    @Test func escapePressesAnAlertsCancelOrAPresentedScreensClose() {
        let prompt = page(Fixtures.prompt())
        #expect(prompt.contains("name=\"action\" value=\"2\" class=\"okit-button okit-escape\">Cancel</button>"))
        #expect(Fixtures.count("okit-escape", in: prompt) == 1)
        var german = Fixtures.list()
        german.alert = AlertSnapshot(kind: "alert", title: "Löschen bestätigen", message: nil, actions: ["Ja", "Nein"])
        var de = Fixtures.context()
        de.words = BuiltInWords(language: "de")
        #expect(page(german, de).contains("value=\"2\" class=\"okit-button okit-escape\">Nein</button>"))
        #expect(page(Fixtures.selection()).contains("class=\"okit-button okit-escape\">Close</button>"), "presented")
        var pushed = Fixtures.selection()
        pushed.app.presented = false
        #expect(!page(pushed).contains("okit-escape"), "a pushed screen's Close is no Escape")
    }

    @Test func noPageSetsItsOwnTabOrder() throws {
        let positive = try Regex("tabindex=\"[1-9]")
        for s in Fixtures.all + [Self.editing(Fixtures.list())] {
            #expect(page(s).firstMatch(of: positive) == nil)
        }
        #expect(Stylesheet.css.contains(":focus-visible { outline: 2px solid var(--okit-tint-color)"))
    }
}
