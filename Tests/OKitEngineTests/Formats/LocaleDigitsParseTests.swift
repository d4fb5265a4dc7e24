import Foundation
import Testing
@testable import OKitEngine

/// A number cell takes back exactly the text it shows, in every locale (bindings.md "Reading a format back"): an
/// outside tester's `ar_EG` app showed `‏٤٦ JP¥` and refused it, and refused `٣٠`, Persian `۳۵` and the
/// full-width `３０`, `１２００`, `￥1,200` and `1200円` a Japanese input method types.
@Suite struct LocaleDigitsParseTests {
    let cache = FormatterCache()

    static let styles: [NumberStyle] = [.currency(code: "JPY"), .currency(code: "EGP"), .currency(code: "EUR"),
                                        .decimal(digits: nil), .decimal(digits: 2), .percent(digits: 1)]

    @Test(arguments: ["ar_EG", "ar_SA", "fa", "ja", "de", "en", "hi_IN"])
    func whatAFormatShowsReadsBackAsTheSameNumber(_ identifier: String) throws {
        let parts = identifier.split(separator: "_").map(String.init)
        let locale = AppLocale(language: parts[0], region: parts.count > 1 ? parts[1] : "", timeZone: "UTC")
        for style in Self.styles {
            for n in [46.0, -1234.5, 1_234_567.25, 0.375] {
                let shown = try #require(cache.format(.double(n), style, locale: locale))
                let back = try #require(cache.parse(shown, style, locale: locale), "\(identifier) \(style): \(shown) is not read back")
                let again = cache.format(.double(back), style, locale: locale)
                #expect(again == shown, "\(identifier) \(style): \(shown) read back as \(back)")
            }
        }
    }

    @Test(arguments: [
        ("ar_EG", NumberStyle.currency(code: "JPY"), "\u{200F}٤٦\u{A0}JP¥", 46.0),
        ("ar_EG", .decimal(digits: nil), "٣٠", 30),
        ("ar_EG", .decimal(digits: nil), "١٬٢٣٤٫٥", 1234.5),
        ("ar_EG", .decimal(digits: nil), "\u{61C}-٣٠", -30),
        ("ar_EG", .decimal(digits: nil), "۳۵", 35),
        ("ar_EG", .decimal(digits: nil), "1٬234", 1234),
        ("fa", .decimal(digits: nil), "۳۵", 35),
        ("fa", .decimal(digits: nil), "\u{200E}\u{2212}۱۲", -12),
        ("ja", .decimal(digits: nil), "３０", 30),
        ("ja", .decimal(digits: nil), "１，２００．５", 1200.5),
        ("ja", .decimal(digits: nil), "－１２", -12),
        ("ja", .currency(code: "JPY"), "１２００", 1200),
        ("ja", .currency(code: "JPY"), "￥1,200", 1200),
        ("ja", .currency(code: "JPY"), "¥1,200", 1200),
        ("ja", .currency(code: "JPY"), "1200円", 1200),
        ("ja", .currency(code: "JPY"), "１，２００円", 1200),
        ("ja", .percent(digits: nil), "３８％", 0.38),
    ])
    func theDigitsAndSignsOfTheLocaleAreRead(_ identifier: String, _ style: NumberStyle, _ text: String, _ expected: Double) {
        let parts = identifier.split(separator: "_").map(String.init)
        let locale = AppLocale(language: parts[0], region: parts.count > 1 ? parts[1] : "", timeZone: "UTC")
        #expect(cache.parse(text, style, locale: locale) == expected, "\(identifier): \(text)")
    }

    @Test(arguments: [
        ("ja", NumberStyle.decimal(digits: nil), "３０x"),
        ("ja", .currency(code: "EUR"), "1200円"),
        ("ar_EG", .decimal(digits: nil), "٣\u{200F}x"),
        ("de", .decimal(digits: nil), "１２．５"),
    ])
    func foldedTextIsStillReadStrictly(_ identifier: String, _ style: NumberStyle, _ text: String) {
        let parts = identifier.split(separator: "_").map(String.init)
        let locale = AppLocale(language: parts[0], region: parts.count > 1 ? parts[1] : "", timeZone: "UTC")
        #expect(cache.parse(text, style, locale: locale) == nil, "\(identifier): \(text)")
    }

    @Test func anASCIITextIsNotCopied() {
        let text = "1,234.50"
        #expect(LocaleDigits.folded(text) == text)
        #expect(LocaleDigits.folded("\u{200F}٤٦\u{A0}JP￥") == "46\u{A0}JP¥")
    }
}

/// The same through a binding, as a text cell with `textPath = "price/currency(#JPY)"` writes what it shows.
@Suite struct LocaleDigitsWriteBackTests {
    @Test(arguments: ["ar_EG", "ar_SA", "fa", "ja"])
    func aCurrencyCellTakesBackWhatItShows(_ identifier: String) throws {
        let f = try ShopFixture.withDune()
        let parts = identifier.split(separator: "_").map(String.init)
        f.engine.locale = AppLocale(language: parts[0], region: parts.count > 1 ? parts[1] : "", timeZone: "UTC")
        for n in [46.0, -1200.0] {
            try f.engine.set(f.book(0), "price", .double(n))
            let shown = try f.engine.get(f.book(0), "price/currency(#JPY)")
            try f.engine.set(f.book(0), "price", .double(0))
            try f.engine.commandSet(f.book(0), binding: "price/currency(#JPY)", shown)
            #expect(f.price().isSame(as: .double(n)), "\(identifier): \(shown)")
        }
    }
}
