import Foundation
import Testing
@testable import OKitEngine

/// Reading locale formats back (bindings.md "Locale formats"): writing text through `currency`, `number` or
/// `percent` writes the number before it; a text cell bound to a number takes the app's format.
@Suite struct LocaleParseBackTests {
    let f: ShopFixture

    init() throws { f = try .withDune() }

    @Test(arguments: [
        ("de", "price/currency(#EUR)", "1.250,00\u{A0}€", 1250.0),
        ("de", "price/currency(#EUR)", "1250,5 €", 1250.5),
        ("de", "price/currency(#EUR)", "-12,50 €", -12.5),
        ("de", "price/currency(#EUR)", "12 EUR", 12.0),
        ("de", "price/currency(#EUR)", "7", 7.0),
        ("en", "price/currency(#EUR)", "€1,250.00", 1250.0),
        ("en", "price/currency(#EUR)", "-€12.50", -12.5),
        ("en", "price/currency(#USD)", "$ 3.5", 3.5),
        ("de", "price/number(#2)", "1.234,50", 1234.5),
        ("de", "price/number", "1 234,5", 1234.5),
        ("en", "price/number(#2)", "1,234.50", 1234.5),
        ("de", "price/percent", "12,5 %", 0.125),
        ("en", "price/percent", "13%", 0.13),
        ("en", "price/percent(#1)", "12.5", 0.125),
    ])
    func textThroughAFormatWritesTheNumber(_ language: String, _ binding: String, _ text: String, _ expected: Double) throws {
        f.engine.locale = AppLocale(language: language)
        try f.engine.set(f.book(0), binding: binding, .string(text))
        #expect(f.price().isSame(as: .double(expected)), "\(binding) \(text) in \(language): \(f.price())")
    }

    @Test(arguments: [
        ("de", "price/currency(#EUR)", "abc"),
        ("de", "price/currency(#EUR)", "12,5x €"),
        ("de", "price/currency(#EUR)", "1,234.50 €"),
        ("de", "price/number(#2)", "12.5"),
        ("en", "price/number(#2)", "1.2.3"),
        ("en", "price/number(#2)", "0,125"),
        ("en", "price/percent", ""),
    ])
    func textNotInTheFormatIsRefusedAndNothingChanges(_ language: String, _ binding: String, _ text: String) throws {
        f.engine.locale = AppLocale(language: language)
        let before = f.price()
        #expect(throws: BindingWriteError.self, "\(text)") { try f.engine.set(f.book(0), binding: binding, .string(text)) }
        #expect(f.price().isSame(as: before))
    }

    @Test func aNumberThroughAFormatIsWrittenAsIs() throws {
        try f.engine.set(f.book(0), binding: "price/currency(#EUR)", .int(7))
        #expect(f.price().isSame(as: .double(7)))
        try f.engine.set(f.book(0), "copies", .int(1))
        f.engine.locale = AppLocale(language: "de")
        try f.engine.set(f.book(0), binding: "copies/number", .string("1.234"))
        #expect(f.book(0)["copies"]?.isSame(as: .int(1234)) == true, "an int field takes the number read back")
    }

    @Test func aLuaExtensionReplacingAFormatHasNoInverse() throws {
        #expect(f.engine.extensions.parser(type: "number", name: "currency") != nil)
        var received: [Value] = []
        f.engine.extensions.register("number", "currency") { v, a, _ in received = a; return v }
        #expect(f.engine.extensions.parser(type: "number", name: "currency") == nil)
        try f.engine.set(f.book(0), binding: "price/currency(#EUR)", .string("5"))
        #expect(received.map(\.description) == ["EUR", "5"], "the extension is called with the value, as any call")
    }

    @Test(arguments: [
        ("de", "1.234,5", 1234.5),
        ("de", "12,5", 12.5),
        ("de", "12.5", 12.5),
        ("de", "1234.5", 1234.5),
        ("en", "1,234.5", 1234.5),
        ("en", "12.5", 12.5),
    ])
    func aTextCellBoundToANumberTakesTheLocaleFormat(_ language: String, _ text: String, _ expected: Double) throws {
        f.engine.locale = AppLocale(language: language)
        var d = DetailDeclaration(id: "book")
        d.sections = [SectionDeclaration(cells: [
            CellDeclaration(kind: "text", properties: ["path": "%Price", "textPath": "price"]),
            CellDeclaration(kind: "text", properties: ["path": "%Amount", "textPath": "price/currency(#EUR)"]),
        ])]
        let s = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0))
        try s.setEditing(true)
        try s.set(cell: .key("Price"), value: .string(text))
        #expect(f.price().isSame(as: .double(expected)), "\(text) in \(language)")
        try s.set(cell: .key("Amount"), value: .string(language == "de" ? "900,00 €" : "€900.00"))
        #expect(f.price().isSame(as: .double(900)))
        let shown = try s.snapshot().sections.flatMap(\.rows).map { $0.control?.value }
        #expect(shown.last == .string(language == "de" ? "900,00\u{A0}€" : "€900.00"), "the cell shows the format it reads back")
    }

    @Test(arguments: [
        ("-1.234,5", ",", ".", -1234.5),
        ("12,34,567.5", ".", ",", 1234567.5),
        ("1.234.567", ",", ".", 1234567.0),
        ("+3", ",", ".", 3.0),
        (",5", ",", ".", 0.5),
        ("1 234,5", ",", "\u{202F}", 1234.5),
    ])
    func decimalTextIsReadStrictly(_ text: String, _ decimal: String, _ grouping: String, _ expected: Double) {
        #expect(LocaleDecimalText.parse(text, decimal: decimal, grouping: grouping) == expected, "\(text)")
    }

    @Test(arguments: ["", "-", "1,", "1.23", "1.2345", ".123", "1..234", "12a", "1,5,5", "--1"])
    func badDecimalTextIsNil(_ text: String) {
        #expect(LocaleDecimalText.parse(text, decimal: ",", grouping: ".") == nil, "\(text)")
    }
}
