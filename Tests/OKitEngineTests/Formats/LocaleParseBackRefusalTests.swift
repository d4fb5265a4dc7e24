import Foundation
import Testing
@testable import OKitEngine

/// Edge cases: reading locale formats back refuses texts that are not one number in the locale's format
/// (bindings.md "Locale formats": "it must be the whole number in the locale's separators").
@Suite struct LocaleParseBackRefusalTests {
    let f: ShopFixture

    init() throws { f = try .withDune() }

    @Test(arguments: [
        ("en", "price/currency(#EUR)", "€1€2"),         // a currency sign inside the number
        ("de", "price/currency(#EUR)", "1 € 2"),
        ("en", "price/currency(#USD)", "1USD2"),
        ("en", "price/percent", "1%2"),                 // a percent sign inside the number
        ("en", "price/percent", "%%5%"),
        ("de", "price/currency(#EUR)", "1.250,00 €€"),
    ])
    func garbageIsRefused(_ language: String, _ binding: String, _ text: String) throws {
        f.engine.locale = AppLocale(language: language)
        let before = f.price()
        #expect(throws: BindingWriteError.self, "\(text)") { try f.engine.set(f.book(0), binding: binding, .string(text)) }
        #expect(f.price().isSame(as: before), "\(binding) \(text): \(f.price())")
    }

    @Test(arguments: [
        ("en", "price/currency(#EUR)", "-€12.50", -12.5),
        ("en", "price/currency(#EUR)", "€ 12.50", 12.5),
        ("de", "price/currency(#EUR)", "12,50 EUR", 12.5),
        ("de", "price/percent", "%12,5", 0.125),
        ("de", "price/currency(#EUR)", "€ -12,50", -12.5),
    ])
    func validTextStillReads(_ language: String, _ binding: String, _ text: String, _ expected: Double) throws {
        f.engine.locale = AppLocale(language: language)
        try f.engine.set(f.book(0), binding: binding, .string(text))
        #expect(f.price().isSame(as: .double(expected)), "\(binding) \(text): \(f.price())")
    }
}
