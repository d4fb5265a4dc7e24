import Foundation
import Testing
@testable import OKitEngine

/// Edge cases of locale formats (bindings.md "Locale formats"): "All three round half away from zero, on the
/// number as written".
@Suite struct LocaleFormatRoundingTests {
    @Test(arguments: [
        ("en", "=currency(-0.001, 'EUR')", "€0.00"),     // was -€0.00
        ("de", "=currency(-0.001, 'EUR')", "0,00\u{A0}€"),
        ("en", "=currency(-0.4, 'JPY')", "¥0"),
        ("en", "=currency(2.675, 'EUR')", "€2.68"),
        ("en", "=currency(-2.675, 'EUR')", "-€2.68"),
        ("en", "=currency(1.005, 'USD')", "$1.01"),
        ("en", "=currency(12.5, 'JPY')", "¥13"),
        ("en", "=currency(1234.5, 'EUR')", "€1,234.50"),
        ("en", "=number(-0.0004)", "0"),
    ])
    func currencyRoundsHalfAwayFromZeroAsWritten(_ language: String, _ text: String, _ expected: String) throws {
        let f = try ShopFixture()
        try f.start()
        f.engine.locale = AppLocale(language: language)
        let v = try f.engine.get(f.root, text)
        #expect(v.isSame(as: .string(expected)), "\(text) in \(language): \(v)")
    }
}
