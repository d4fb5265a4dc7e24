import Foundation
import OKitEngine
import Testing
@testable import OKitLua

/// docs/screens.md documents every property okit accepts: each screen's properties, row actions, hooks, and
/// every cell kind with its properties. A property added to the code without its documentation fails here.
@Suite struct ScreensDocTests {
    static let doc: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/screens.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    func undocumented(_ names: some Sequence<String>) -> [String] {
        names.filter { !Self.doc.contains("`\($0)`") && !Self.doc.contains("`\($0) ") && !Self.doc.contains("`\($0) =") }.sorted()
    }

    @Test func everyScreenPropertyIsDocumented() {
        #expect(!Self.doc.isEmpty)
        #expect(undocumented(LuaApp.listProperties.keys) == [], "okit.list")
        #expect(undocumented(LuaApp.rowActionKeys.keys) == [], "row actions")
        #expect(undocumented(LuaApp.hookKeys) == [], "hooks")
        #expect(undocumented(LuaApp.selectionProperties.keys) == [], "okit.selection")
        #expect(undocumented(LuaApp.detailProperties.keys) == [], "okit.detail")
    }

    @Test func everyCellKindAndItsPropertiesAreDocumented() {
        #expect(undocumented(CellDeclaration.kinds) == [], "cell kinds")
        for kind in CellDeclaration.kinds {
            #expect(undocumented(CellDeclaration.knownProperties(kind)) == [], "cells of kind \(kind)")
        }
    }
}
