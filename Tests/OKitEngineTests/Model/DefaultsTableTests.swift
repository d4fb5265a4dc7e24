import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// docs/migration.md's table of OKit's defaults beside okit's is checked against the declarations' real defaults:
/// every row's okit value is the declaration's, and every flag a declaration defaults to `#true`/`#false` has a row.
@Suite struct DefaultsTableTests {
    /// `(screen, property) → okit value` from the table.
    func table() throws -> [String: String] {
        let docs = OKitRun.root.appendingPathComponent("docs/migration.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, ["list", "list (row)", "selection", "menu", "detail"].contains(cells[0]) else { continue }
            out["\(cells[0]).\(cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")))"] = cells[3].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        return out
    }

    /// The flag defaults (`#…`) of a declaration value, by property name.
    func flags(_ value: Any) -> [String: String] {
        var out: [String: String] = [:]
        for child in Mirror(reflecting: value).children {
            if let name = child.label, let s = child.value as? String, s.hasPrefix("#") { out[name] = s }
        }
        return out
    }

    @Test func theDefaultsTableMatchesTheDeclarations() throws {
        let rows = try table()
        #expect(!rows.isEmpty, "migration.md has the defaults table")
        let selection = SelectionDeclaration(id: "s")
        let menu = MenuDeclaration(list: ListDeclaration(id: "m"))
        let real: [String: [String: String]] = [
            "list": flags(ListDeclaration(id: "l")), "list (row)": flags(RowActions()),
            "selection": flags(selection).filter { $0.key != "list" }, "menu": flags(menu).filter { $0.key != "list" },
            "detail": flags(DetailDeclaration(id: "d").storage),   // its fields live in its storage object
        ]
        for (screen, values) in real {
            for (name, value) in values {
                #expect(rows["\(screen).\(name)"] == value, "\(screen) \(name): the declaration defaults to \(value)")
            }
        }
        for (key, value) in rows {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            #expect(real[parts[0]]?[parts[1]] == value, "the table's \(key) = \(value) is not the declaration's default")
        }
        // The selection's and menu's lists start with the list's defaults.
        #expect(flags(selection.list) == flags(ListDeclaration(id: "l")))
    }
}
