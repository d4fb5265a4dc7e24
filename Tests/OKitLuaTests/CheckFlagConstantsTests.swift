import Foundation
@testable import OKitEngine
@testable import OKitLua
import Testing

/// `okit-run check` names a flag given a constant that is no yes/no word (`groupSort = "#flase"` is always on) on
/// every flag of every screen kind: a list's and its rows', a selection's, a menu's, a detail's and its sections',
/// every cell kind's, bar buttons', the backups screen's and okit.app's. The flags are FlagProperties' sets; a
/// declaration's `#true`/`#false` default that is missing from them fails the first test, a flag in them that the
/// check does not look at fails the second.
@Suite struct CheckFlagConstantsTests {
    /// The names of the `String` properties whose default is `#true` or `#false`, in `value` and the structures and
    /// objects it holds (a detail's storage, a list's row actions, a selection's list).
    static func flagDefaults(_ value: Any) -> Set<String> {
        var out: Set<String> = []
        for child in Mirror(reflecting: value).children {
            if let text = child.value as? String {
                if text == "#true" || text == "#false", let label = child.label { out.insert(label) }
                continue
            }
            let style = Mirror(reflecting: child.value).displayStyle
            if style == .struct || style == .class { out.formUnion(flagDefaults(child.value)) }
        }
        return out
    }

    @Test func everyDeclaredFlagDefaultIsAFlagProperty() {
        let kinds: [(String, Any, Set<String>)] = [
            ("list", ListDeclaration(id: "l"), FlagProperties.list),
            ("selection", SelectionDeclaration(id: "s"), FlagProperties.list),
            ("menu", MenuDeclaration(list: ListDeclaration(id: "m")), FlagProperties.list),
            ("detail", DetailDeclaration(id: "d"), FlagProperties.detail),
            ("section", SectionDeclaration(), FlagProperties.detail),
            ("cell", CellDeclaration(kind: "text"), FlagProperties.cell),
            ("button", BarButton(title: "t"), FlagProperties.button),
            ("backups", BackupsDeclaration(id: "b"), FlagProperties.backups),
        ]
        for (kind, declaration, flags) in kinds {
            let missing = Self.flagDefaults(declaration).subtracting(flags)
            #expect(missing.isEmpty, "\(kind): defaults #true/#false but not in FlagProperties: \(missing.sorted())")
        }
        #expect(Self.flagDefaults(ListDeclaration(id: "l")).contains("groupSort"))
    }

    /// `p = "#flase"` for each name.
    static func assignments(_ names: some Sequence<String>) -> String {
        names.sorted().map { "\($0) = \"#flase\"" }.joined(separator: ", ")
    }

    /// An app that sets every flag of every screen kind to `#flase`, and the (screen, property) pairs the check
    /// must name.
    static func everyFlagApp() -> (source: String, expected: Set<String>) {
        var expected: Set<String> = []
        func expect(_ screen: String, _ properties: some Sequence<String>, prefix: String = "") {
            for p in properties { expected.insert("\(screen) \(prefix)\(p)") }
        }
        let listKeys = Set(LuaApp.listProperties.keys).union(LuaApp.rowActionKeys.keys)
        let listFlags = FlagProperties.list.intersection(listKeys)
        let selectionFlags = Set(SelectionDeclaration(id: "s").flags.map(\.name))
        #expect(FlagProperties.list == listFlags.union(selectionFlags).union(["hideMenu"]),
                "every list flag is a property of a list, a selection or a menu")
        let buttons = "buttons = { { title = \"#Go\", tap = \"touch()\", \(assignments(FlagProperties.button)) } }"
        expect("items", listFlags)
        expect("items", FlagProperties.button, prefix: "buttons[1].")
        expect("pick", selectionFlags)
        expect("menu", ["hideMenu"])
        var cells: [String] = []
        for kind in CellDeclaration.kinds {
            let flags = CellDeclaration.knownProperties(kind).intersection(FlagProperties.cell)
            cells.append("okit.cell.\(kind) { id = \"\(kind)\", path = \"name\", \(assignments(flags)) }")
            expect("item", flags, prefix: "cell \(kind).")
        }
        let sectionFlags = Set(LuaApp.sectionKeys).intersection(FlagProperties.detail)
        let detailFlags = FlagProperties.detail.intersection(LuaApp.detailProperties.keys)
        #expect(FlagProperties.detail == sectionFlags.union(detailFlags), "every detail flag is a detail's or a section's property")
        expect("item", detailFlags.union(sectionFlags))
        expect("item", FlagProperties.button, prefix: "buttons[1].")
        expect("backups", FlagProperties.backups)
        expect("okit.app", FlagProperties.app)
        let source = """
        local okit = require "okit"
        okit.entity("Item", { name = "string", touch = function(self) end })
        okit.entity("Shop", { items = "[Item]", picked = "[ref Item]" })
        okit.model("Shop")
        okit.list("items", { dataPath = "items", type = "Item", cell = { path = "name" }, segue = "item",
          \(assignments(listFlags)),
          \(buttons) })
        okit.selection("pick", { dataPath = "items", selectionPath = "picked", cell = { path = "name" },
          \(assignments(selectionFlags)) })
        okit.menu("menu", { dataPath = "items", cell = { path = "name" }, hideMenu = "#flase" })
        okit.detail("item", { type = "Item", \(assignments(detailFlags)), \(buttons), sections = { {
          \(assignments(sectionFlags)),
          \(cells.joined(separator: ",\n  ")) } } })
        okit.backups("backups", { \(assignments(FlagProperties.backups)) })
        okit.app { home = { "items", "pick", "backups" }, menu = "menu", \(assignments(FlagProperties.app)) }

        """
        return (source, expected)
    }

    @Test func aConstantThatIsNoYesNoWordIsNamedOnEveryFlagOfEveryScreenKind() throws {
        let (source, expected) = Self.everyFlagApp()
        let result = try CheckFindingsTests.check(source)
        let suffix = ": \"#flase\" is always on: a flag is off only for #false, #no or #0 (any other text is on); did you mean \"#false\"?"
        var named: Set<String> = []
        for line in result.problems where line.hasSuffix(suffix) {
            guard let at = line.range(of: ": screen ") else { continue }
            let rest = line[at.upperBound...].dropLast(suffix.count)
            named.insert(rest.replacingOccurrences(of: ", property ", with: " "))
        }
        #expect(expected.subtracting(named).sorted() == [], "not named: \(result.problems.joined(separator: "\n"))")
        #expect(named.subtracting(expected).sorted() == [])
        #expect(expected.contains("items groupSort") && expected.contains("items editEnabled"))
    }

    /// The report's case: `groupSort = "#flase"` alone, at its string; a part of `sectionsShowDisplay` at its `#`.
    @Test func groupSortAndAPartOfAMultipartFlagAreNamedWhereTheyAreWritten() throws {
        let result = try CheckFindingsTests.check("""
        local okit = require "okit"
        okit.entity("Item", { name = "string", kind = "string" })
        okit.entity("Shop", { items = "[Item]" })
        okit.model("Shop")
        okit.list("items", { dataPath = "items", group = "kind", groupSort = "#flase", cell = { path = "name" }, segue = "item" })
        okit.detail("item", { sectionsShowDisplay = "#true,#flase", sections = { { okit.cell.table { path = "name" } },
          { okit.cell.table { path = "kind" } } } })
        okit.app { home = "items" }
        """)
        #expect(result.problems == [
            "app.lua:5:71: screen items, property groupSort: \"#flase\" is always on: a flag is off only for #false, #no or #0 "
                + "(any other text is on); did you mean \"#false\"?",
            "app.lua:6:52: screen item, property sectionsShowDisplay: \"#flase\" is always on: a flag is off only for #false, "
                + "#no or #0 (any other text is on); did you mean \"#false\"?",
        ], "\(result.problems.joined(separator: "\n"))")
    }
}
