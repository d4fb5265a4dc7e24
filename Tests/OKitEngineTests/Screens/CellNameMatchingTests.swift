import Foundation
import Testing
@testable import OKitEngine

/// A cell named as a person writes its title (an outside tester's `set montant 5` was refused for the title
/// "Montant"): case and accents aside when exactly one cell matches; a name no cell has says the closest title.
@Suite struct CellNameMatchingTests {
    let setup = DetailCellBehaviourTests()

    func screen() throws -> (ShopFixture, DetailScreen) {
        let (f, s) = try setup.screen([
            CellDeclaration(kind: "text", properties: ["path": "%Montant", "textPath": "name"]),
            CellDeclaration(kind: "date", properties: ["path": "%Date d'échéance", "datePath": "date"]),
            CellDeclaration(kind: "text", properties: ["path": "%Notes", "textPath": "name"]),
            CellDeclaration(kind: "text", properties: ["path": "%NOTES", "textPath": "name"]),
        ])
        try s.setEditing(true)
        return (f, s)
    }

    func refusal(_ s: DetailScreen, _ name: String) -> String {
        do { try s.set(cell: .key(name), value: .string("x")) } catch { return "\(error)" }
        return "taken"
    }

    @Test func aTitleIsMatchedCaseAndAccentsAside() throws {
        let (f, s) = try screen()
        try s.set(cell: .key("montant"), value: .string("Cinq"))
        #expect(f.book(0)["name"]?.description == "Cinq")
        try s.set(cell: .key("date d'echeance"), value: .string("2026-12-03T10:00:00Z"))
        try s.set(cell: .key("DATE D'ÉCHÉANCE"), value: .string("2026-12-03T10:00:00Z"))
        #expect(f.book(0)["date"]?.displayString == "2026-12-03T10:00:00Z")
        try s.set(cell: .key("Notes"), value: .string("exact"))
        #expect(f.book(0)["name"]?.description == "exact", "an exact title still names its cell")
    }

    @Test func twoCellsMatchingIsRefusedWithTheirPositions() throws {
        let (_, s) = try screen()
        #expect(refusal(s, "notes") == "\"notes\" matches rows 3, 4; address one by its position or id")
    }

    @Test func aNameNoCellHasSaysTheClosestTitle() throws {
        let (_, s) = try screen()
        let cells = "cells: Montant, Date d'échéance, Notes, NOTES"
        #expect(refusal(s, "montnt") == "no cell \"montnt\" (did you mean \"Montant\"? \(cells))")
        #expect(refusal(s, "date d'echance") == "no cell \"date d'echance\" (did you mean \"Date d'échéance\"? \(cells))")
        #expect(refusal(s, "Prix") == "no cell \"Prix\" (\(cells))")
    }
}
