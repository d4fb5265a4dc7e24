import Testing
@testable import OKitEngine

/// Whether a cell declares an accessory is known from its properties and actions, also after they change.
@Suite struct CellAccessoryDeclarationTests {
    @Test func anAccyPropertyOrActionDeclaresAnAccessory() {
        var c = CellDeclaration(kind: "table", properties: ["path": "name", "detailPath": "price"])
        #expect(!c.declaresAccessory)
        c.properties["accyEditPath"] = "1"
        #expect(c.declaresAccessory)
        c.properties["accyEditPath"] = nil
        #expect(!c.declaresAccessory)
        #expect(CellDeclaration(kind: "table", properties: ["accyShow": "flag"]).declaresAccessory)
        #expect(CellDeclaration(kind: "table", actions: ["accyTap": .binding("next()")]).declaresAccessory)
        #expect(!CellDeclaration(kind: "table", actions: ["tap": .binding("next()")]).declaresAccessory)
    }
}
