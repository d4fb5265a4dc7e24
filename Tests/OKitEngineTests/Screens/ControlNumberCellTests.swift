import Testing
@testable import OKitEngine

/// A stepper or slider reads a person's number as a text cell does and refuses what it cannot take the same way
/// (an outside tester's `set Dagen 2,5` stored 3 on an int field, where the text cell on the same field refused it;
/// `set Copies abc` said `cell "Copies" takes a number` in English, by the cell's id, without what was typed).
@Suite struct ControlNumberCellTests {
    let setup = DetailCellBehaviourTests()

    func screen(language: String, strings: [String: String] = [:]) throws -> (ShopFixture, DetailScreen) {
        let (f, s) = try setup.screen([
            CellDeclaration(kind: "stepper", properties: ["path": "%Stepper", "valuePath": "copies"]),
            CellDeclaration(kind: "slider", properties: ["path": "%Slider", "valuePath": "copies", "maxValuePath": "#100"]),
            CellDeclaration(kind: "stepper", properties: ["path": "%Price", "valuePath": "price", "maxValuePath": "#1000"]),
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

    @Test func aStepperOrSliderOnAnIntFieldRefusesAFraction() throws {
        let (f, s) = try screen(language: "es", strings: ["Stepper": "Ejemplares", "Slider": "Deslizador"])
        #expect(refusal(s, "Ejemplares", .string("2,5")) == "Ejemplares solo admite números enteros: «2,5» tiene decimales")
        #expect(refusal(s, "Stepper", .double(2.5)) == "Ejemplares solo admite números enteros: «2,5» tiene decimales")
        #expect(refusal(s, "Slider", .string("4,4")) == "Deslizador solo admite números enteros: «4,4» tiene decimales")
        #expect(f.book(0)["copies"]?.intValue == 4, "nothing changed")
        #expect(refusal(s, "Stepper", .string("7")) == nil && f.book(0)["copies"]?.intValue == 7)
        #expect(refusal(s, "Stepper", .double(8)) == nil && f.book(0)["copies"]?.intValue == 8, "8.0 is whole")
        #expect(refusal(s, "Price", .string("2,5")) == nil && f.book(0)["price"]?.doubleValue == 2.5, "a double field takes the fraction")
    }

    @Test func aTextThatIsNoNumberIsRefusedAsATextCellRefusesIt() throws {
        let (f, s) = try screen(language: "de", strings: ["Stepper": "Exemplare", "Price": "Preis"])
        #expect(refusal(s, "Stepper", .string("abc")) == "Exemplare: „abc“ ist keine Zahl wie 1.234")
        #expect(refusal(s, "Preis", .string("12,5x")) == "Preis: „12,5x“ ist keine Zahl wie 1.234,56")
        #expect(refusal(s, "Stepper", .bool(true)) == "Exemplare: „true“ ist keine Zahl wie 1.234")
        #expect(refusal(s, "Slider", .string("")) == "Slider: „“ ist keine Zahl wie 1.234", "an int that is not optional")
        #expect(f.book(0)["copies"]?.intValue == 4, "nothing changed")
        #expect(refusal(s, "Stepper", .string("1.234")) == nil && f.book(0)["copies"]?.intValue == 100, "read in German, clamped")
        let (_, en) = try screen(language: "en")
        #expect(refusal(en, "Stepper", .string("abc")) == "Stepper: \"abc\" is not a number like 1,234")
    }

    /// A number past any int is clamped to the range as before, not refused with thirty groups of digits; a tiny
    /// fraction is quoted as JSON writes it, not as `0`.
    @Test func aNumberPastTheRangeIsClampedAndATinyFractionIsQuotedAsSent() throws {
        let (f, s) = try screen(language: "en")
        #expect(refusal(s, "Stepper", .double(1e308)) == nil && f.book(0)["copies"]?.intValue == 100)
        #expect(refusal(s, "Stepper", .double(-1e-300)) == "Stepper takes a whole number: \"-1e-300\" has a fraction")
    }

    @Test func aStepperTakesTheDigitsTheLocaleShows() throws {
        let (f, s) = try screen(language: "ar")
        #expect(refusal(s, "Stepper", .string("٣٠")) == nil && f.book(0)["copies"]?.intValue == 30)
        f.engine.locale = AppLocale(language: "ja", region: "", timeZone: "UTC")
        #expect(refusal(s, "Stepper", .string("１２")) == nil && f.book(0)["copies"]?.intValue == 12)
    }
}
