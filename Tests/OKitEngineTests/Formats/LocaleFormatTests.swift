import Foundation
import Testing
@testable import OKitEngine

/// Locale formats (bindings.md "Locale formats"): `currency(code)`, `number(digits)`, `percent` and the date
/// formatters in `de` and `en`, pinned to the ICU data of this machine's Foundation (no-break spaces kept).
@Suite struct LocaleFormatTests {
    let f: ShopFixture
    static let nbsp = "\u{A0}"

    init() throws {
        f = try ShopFixture()
        try f.start(books: ["Dune"])
        try f.engine.set(f.book(0), "date", .string("2019-05-01T10:00:00Z"))
    }

    func text(_ binding: String, _ language: String, region: String = "US", on value: Value? = nil) throws -> String? {
        f.engine.locale = AppLocale(language: language, region: region)
        if let value { try f.engine.set(f.book(0), "price", value) }
        return try f.engine.get(f.book(0), binding).displayString
    }

    @Test(arguments: [
        ("price/currency(#EUR)", 900.0, "900,00\u{A0}€", "€900.00"),
        ("price/currency(#EUR)", 12.5, "12,50\u{A0}€", "€12.50"),
        ("price/currency(#EUR)", 1234567.891, "1.234.567,89\u{A0}€", "€1,234,567.89"),
        ("price/currency(#EUR)", -12.5, "-12,50\u{A0}€", "-€12.50"),
        ("price/currency(#usd)", 900.0, "900,00\u{A0}$", "$900.00"),
        ("price/currency(#JPY)", 900.0, "900\u{A0}¥", "¥900"),
        ("price/number(#2)", 1234.5, "1.234,50", "1,234.50"),
        ("price/number(#0)", 1234.5, "1.235", "1,235"),
        ("price/number", 1234.5678, "1.234,568", "1,234.568"),
        ("price/number(#2)", 0.125, "0,13", "0.13"),
        ("price/number(#2)", 2.675, "2,68", "2.68"),
        ("price/number(#2)", -0.125, "-0,13", "-0.13"),
        ("price/number(#5)", 0.125, "0,12500", "0.12500"),
        ("price/percent", 0.125, "13\u{A0}%", "13%"),
        ("price/percent", 0.145, "15\u{A0}%", "15%"),
        ("price/percent(#1)", 0.125, "12,5\u{A0}%", "12.5%"),
        ("=currency(price * 2, 'EUR')", 450.0, "900,00\u{A0}€", "€900.00"),
        ("%Total:, price/currency(#EUR)", 900.0, "Total: 900,00\u{A0}€", "Total: €900.00"),
    ])
    func numbersInGermanAndEnglish(_ binding: String, _ value: Double, _ de: String, _ en: String) throws {
        #expect(try text(binding, "de", on: .double(value)) == de, "\(binding) de")
        #expect(try text(binding, "en", on: .double(value)) == en, "\(binding) en")
    }

    @Test func intsFormatExactly() throws {
        try f.engine.set(f.book(0), "copies", .int(9_007_199_254_740_993))
        f.engine.locale = AppLocale(language: "en")
        #expect(try f.engine.get(f.book(0), "copies/number(#0)").displayString == "9,007,199,254,740,993")
        try f.engine.set(f.book(0), "copies", .int(3))
        f.engine.locale = AppLocale(language: "de")
        #expect(try f.engine.get(f.book(0), "copies/currency(#EUR)").displayString == "3,00\u{A0}€")
    }

    @Test func anExplicitRegionIsUsedAndTheDefaultUSGoesWithEnglishOnly() throws {
        #expect(AppLocale(language: "de").formatIdentifier == "de")
        #expect(AppLocale(language: "de", region: "AT").formatIdentifier == "de_AT")
        #expect(AppLocale(language: "en").formatIdentifier == "en_US")
        #expect(AppLocale(language: "fr", region: "").formatIdentifier == "fr")
        #expect(try text("price/currency(#EUR)", "de", region: "DE", on: .double(900)) == "900,00\u{A0}€")
    }

    @Test(arguments: [
        ("date/formatDate", "1. Mai 2019", "May 1, 2019"),
        ("date/formatFullDate", "Mittwoch, 1. Mai 2019", "Wednesday, May 1, 2019"),
        ("date/formatDateTime", "01.05.19, 10:00", "5/1/19, 10:00 AM"),
        ("date/formatTime", "10:00", "10:00 AM"),
        ("date/formatRelativeDate", "Heute", "Today"),
        ("date/format('EEEE d. MMMM')", "Mittwoch 1. Mai", "Wednesday 1. May"),
    ])
    func datesInGermanAndEnglish(_ binding: String, _ de: String, _ en: String) throws {
        #expect(try text(binding, "de") == de, "\(binding) de")
        #expect(try text(binding, "en") == en, "\(binding) en")
    }

    /// English of another region has its region's styles, however it is written (a British app's probe: `language =
    /// "en", region = "GB"` showed the US's `May 1, 2019` where `en-GB` showed `1 May 2019`).
    @Test func englishOfAnotherRegionHasItsStylesWrittenEitherWay() throws {
        let apart = try text("date/formatDate", "en", region: "GB")
        #expect(apart == "1 May 2019")
        #expect(try text("date/formatDate", "en_GB") == apart)
        #expect(try text("date/formatDate", "en", region: "US") == "May 1, 2019")
        #expect(try text("date/formatDate", "en", region: "") == "May 1, 2019")
    }

    @Test func aLocaleChangeReevaluatesFormattedBindings() throws {
        try f.engine.set(f.book(0), "price", .double(900))
        f.engine.locale = AppLocale(language: "en")
        let s = try f.engine.subscribe(f.book(0), "price/currency(#EUR)")
        let plain = try f.engine.subscribe(f.book(0), "price")
        #expect(s.value.description == "€900.00")
        f.engine.locale = AppLocale(language: "de")
        #expect(s.isStale && !plain.isStale)
        #expect(s.value.description == "900,00\u{A0}€")
        #expect(s.evaluationCount == 2)
    }

    @Test func badArgumentsAreErrorsNamingTheFunction() throws {
        #expect(throws: BindingCallError.self) { try f.engine.get(f.book(0), "price/currency(#euro)") }
        #expect(throws: BindingCallError.self) { try f.engine.get(f.book(0), "price/currency") }
        #expect(throws: BindingCallError.self) { try f.engine.get(f.book(0), "price/number(#-1)") }
        #expect(throws: BindingCallError.self) { try f.engine.get(f.book(0), "price/percent(#1.5)") }
        do {
            _ = try f.engine.get(f.book(0), "price/currency(#euro)")
        } catch {
            #expect("\(error)".contains("currency expects an ISO 4217 currency code such as #EUR, got \"euro\""))
        }
        #expect(try f.engine.get(f.book(0), "price/currency(#euro)", mode: .display).isNull, "a display binding shows nothing")
        #expect(try f.engine.get(f.book(0), "comment/currency(#EUR)").isNull, "nil stays nil")
    }
}

/// `okit-run check` finds bad constant arguments of the locale formats.
@Suite struct LocaleFormatCheckTests {
    @Test func constantArgumentsAreChecked() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let checker = BindingChecker(engine: f.engine)
        let book = f.engine.schema.type(named: "Book")
        func issues(_ text: String) -> [String] { checker.check(text, context: book).map { "\($0.column): \($0.message)" } }
        #expect(issues("price/currency(#EUR)").isEmpty)
        #expect(issues("price/number(#2), copies/percent, price/percent(#1), price/number") == [])
        #expect(issues("price/currency(#euro)") == ["7: currency expects an ISO 4217 currency code such as #EUR, got \"euro\""])
        #expect(issues("%Total:, price/currency") == ["16: currency expects an ISO 4217 currency code such as #EUR"])
        #expect(issues("price/number(#-1)") == ["7: number expects a number of fraction digits from 0 to 15, got -1"])
        #expect(issues("price/currency(name)").isEmpty, "an argument that is not a constant is known only when it runs")
        #expect(issues("=currency(price, 'euro')") == ["2: currency expects an ISO 4217 currency code such as #EUR, got \"euro\""])
        let shop = f.engine.schema.type(named: "Shop")
        #expect(checker.check("=1 + currency(books[marked].@sum.price, 'euro')", context: shop).map { "\($0.column): \($0.message)" }
            == ["6: currency expects an ISO 4217 currency code such as #EUR, got \"euro\""])
        #expect(issues("=number(3, 20)") == ["2: number expects a number of fraction digits from 0 to 15, got 20"])
        #expect(issues("=currency(price, 'EUR') .. currency(price, name)").isEmpty)
        #expect(issues("=currency(price)") == ["2: currency expects an ISO 4217 currency code such as #EUR"])
        f.engine.extensions.register("number", "currency") { v, _, _ in v }
        #expect(issues("price/currency(#euro)").isEmpty, "a Lua extension takes its own arguments")
    }
}
