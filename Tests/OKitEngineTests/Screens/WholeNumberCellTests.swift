import Testing
@testable import OKitEngine

/// A number with a fraction a person gives an int field is refused, not cut (the tester's `set Pages "12,5"` stored
/// 12): typed in the app's language or as JSON writes it, sent as a number, or read back through a format; code's
/// writes are still cut toward zero (lua-api.md); a stepper refuses it as a text cell does.
@Suite struct WholeNumberCellTests {
    let setup = DetailCellBehaviourTests()

    func screen(language: String, strings: [String: String] = [:]) throws -> (ShopFixture, DetailScreen) {
        let (f, s) = try setup.screen([
            CellDeclaration(kind: "text", properties: ["path": "%Copies", "textPath": "copies"]),
            CellDeclaration(kind: "text", properties: ["path": "%Formatted", "textPath": "copies/number(#0)"]),
            CellDeclaration(kind: "stepper", properties: ["path": "%Stepper", "valuePath": "copies"]),
        ])
        f.engine.strings.add(language: language, strings: strings)
        f.engine.locale = AppLocale(language: language, region: "", timeZone: "UTC")
        try s.setEditing(true)
        try f.engine.set(f.book(0), "copies", .int(4))
        return (f, s)
    }

    func refusal(_ s: DetailScreen, _ cell: String, _ value: Value) -> String? {
        do { try s.set(cell: .key(cell), value: value) } catch { return "\(error)" }
        return nil
    }

    @Test func aFractionIsRefusedInEveryFormItComesIn() throws {
        let (f, s) = try screen(language: "es", strings: ["Copies": "Ejemplares"])
        #expect(refusal(s, "Copies", .string("12,5")) == "Ejemplares solo admite números enteros: «12,5» tiene decimales")
        #expect(refusal(s, "Copies", .string("12.5")) == "Ejemplares solo admite números enteros: «12.5» tiene decimales")
        #expect(refusal(s, "Copies", .double(12.5)) == "Ejemplares solo admite números enteros: «12,5» tiene decimales", "a JSON number")
        #expect(refusal(s, "Formatted", .string("12,5")) == "Ejemplares solo admite números enteros: «12,5» tiene decimales")
        #expect(f.book(0)["copies"]?.intValue == 4, "nothing changed")
        #expect(refusal(s, "Copies", .string("12")) == nil && f.book(0)["copies"]?.intValue == 12)
        #expect(refusal(s, "Copies", .double(7)) == nil && f.book(0)["copies"]?.intValue == 7, "7.0 is whole")
        #expect(refusal(s, "Stepper", .string("2,5")) == "Stepper solo admite números enteros: «2,5» tiene decimales",
                "a stepper refuses it too, naming its own title (ControlNumberCellTests)")
        #expect(refusal(s, "Stepper", .string("3")) == nil && f.book(0)["copies"]?.intValue == 3)
        try f.engine.set(f.book(0), "copies", .double(2.9))
        #expect(f.book(0)["copies"]?.description == "2", "code's writes are cut toward zero, as before")
    }

    @Test func theRefusalIsInTheAppsLanguage() throws {
        let (_, s) = try screen(language: "de", strings: ["Copies": "Exemplare"])
        #expect(refusal(s, "Copies", .string("12,5")) == "Exemplare nimmt nur ganze Zahlen: „12,5“ hat Nachkommastellen")
        let (_, en) = try screen(language: "en")
        #expect(refusal(en, "Copies", .string("12.5")) == "Copies takes a whole number: \"12.5\" has a fraction")
    }
}
