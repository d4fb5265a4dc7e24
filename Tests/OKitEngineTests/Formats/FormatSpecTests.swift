import Foundation
import Testing
@testable import OKitEngine

/// `number/format(pattern)` (bindings.md "Number patterns", issue 36 item 4): ICU patterns as before, one printf
/// conversion with its common flags, and anything else an error naming the pattern — never garbage like
/// `%123445.9f`.
@Suite struct FormatSpecTests {
    let f: ShopFixture

    init() throws { f = try .withDune() }

    /// `price/format('…')` with the pattern quoted (a `'` escaped).
    static func binding(_ pattern: String) -> String {
        "price/format('\(pattern.replacingOccurrences(of: "'", with: "\\'"))')"
    }

    func text(_ pattern: String, _ n: Double, _ language: String = "en") throws -> String? {
        f.engine.locale = AppLocale(language: language)
        try f.engine.set(f.book(0), "price", .double(n))
        return try f.engine.get(f.book(0), Self.binding(pattern)).displayString
    }

    @Test(arguments: [
        ("#,##0.00", 1234.5, "en", "1,234.50"),
        ("#,##0.00", 1234.5, "de", "1.234,50"),
        ("0.0", 12.25, "en", "12.2"),
        ("#,##0.0 %", 0.5, "en", "50.0 %"),
        ("0 'kg'", 3, "en", "3 kg"),
        ("0.0 %", 12.5, "en", "1250.0 %"),
    ])
    func icuPatternsKeepWorking(_ pattern: String, _ n: Double, _ language: String, _ expected: String) throws {
        #expect(try text(pattern, n, language) == expected, "\(pattern) \(n) \(language)")
    }

    @Test(arguments: [
        ("%08.3f", 123445.9, "en", "123445.900"),
        ("%010.2f", -3.5, "en", "-000003.50"),
        ("%8.2f", 3.14159, "en", "    3.14"),
        ("%-8.2f|", 3.14159, "en", "3.14    |"),
        ("%+.1f", 2, "en", "+2.0"),
        ("%.2f kg", 12.5, "en", "12.50 kg"),
        ("%.2f", 12.5, "de", "12,50"),
        ("%d", 12.5, "en", "13"),
        ("%05d", -42, "en", "-0042"),
        ("%+i", 7, "en", "+7"),
        ("%.2e", 12345.678, "en", "1.23e+04"),
        ("%g", 0.0001, "en", "0.0001"),
        ("%lf", 1, "en", "1.000000"),
        ("%.1f%%", 12.34, "en", "12.3%"),
        // bindings.md "Number patterns", on the example book's price
        ("%08.3f", 12.5, "en", "0012.500"),
        ("%-8.2f]", 12.5, "en", "12.50   ]"),
        ("%+.1f kg", 12.5, "en", "+12.5 kg"),
        ("%d", 12.5, "en", "13"),
        ("%.2e", 12.5, "en", "1.25e+01"),
    ])
    func printfConversionsFormatAsPrintfDoes(_ pattern: String, _ n: Double, _ language: String, _ expected: String) throws {
        #expect(try text(pattern, n, language) == expected, "\(pattern) \(n) \(language)")
    }

    @Test(arguments: [
        ("%s", "pattern \"%s\" has the conversion \"%s\", which is not supported"),
        ("%x", "pattern \"%x\" has the conversion \"%x\", which is not supported"),
        ("%@", "pattern \"%@\" has the conversion \"%@\", which is not supported"),
        ("%'.2f", "pattern \"%'.2f\" has \"%'.2f\", whose \"'\" is not supported"),
        ("%*d", "pattern \"%*d\" has \"%*d\", whose \"*\" is not supported"),
        ("%1$d", "pattern \"%1$d\" has \"%1$d\", whose \"$\" is not supported"),
        ("%.2f and %.1f", "pattern \"%.2f and %.1f\" has more than one conversion"),
        ("%.20f", "pattern \"%.20f\" has a precision over 15"),
        ("%100d", "pattern \"%100d\" has a width over 64"),
        ("abc", "pattern \"abc\" is no number pattern"),
        ("", "pattern \"\" is no number pattern"),
    ])
    func anythingElseIsAnErrorNamingThePattern(_ pattern: String, _ why: String) throws {
        let message = "format \(why): use \(NumberPattern.supported)"
        #expect(throws: FormatArgumentError.self) { try NumberPattern.parse(pattern) }
        do {
            _ = try NumberPattern.parse(pattern)
        } catch {
            #expect(error.description == message)
        }
        do {
            _ = try text(pattern, 1)
            Issue.record("\(pattern) was formatted")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
        #expect(try f.engine.get(f.book(0), Self.binding(pattern), mode: .display).isNull, "a display binding shows nothing")
    }

    @Test func anExpressionWritesAPrintfPatternAfterTheLocalizingPercent() throws {
        try f.engine.set(f.book(0), "price", .double(123445.9))
        #expect(try f.engine.text(f.book(0), "=format(price, '%%08.3f')") == "123445.900")
    }

    @Test func checkFindsARefusedPatternAtItsColumn() throws {
        let checker = BindingChecker(engine: f.engine)
        let book = f.engine.schema.type(named: "Book")
        func issues(_ text: String) -> [String] { checker.check(text, context: book).map { "\($0.column): \($0.message)" } }
        let use = NumberPattern.supported
        #expect(issues("price/format('#,##0.00'), price/format('%08.3f')").isEmpty)
        #expect(issues("price/format('%08.3s')") == ["7: format pattern \"%08.3s\" has the conversion \"%08.3s\", which is not supported: use \(use)"])
        #expect(issues("%Fee:, price/format('%q')") == ["14: format pattern \"%q\" has the conversion \"%q\", which is not supported: use \(use)"])
        // In an expression a quoted text that starts with `%` is localized: `'%%s'` is the text `%s`.
        #expect(issues("=format(price, '%%s')") == ["2: format pattern \"%s\" has the conversion \"%s\", which is not supported: use \(use)"])
        #expect(issues("=format(price, '%s')") == ["2: format pattern \"s\" is no number pattern: use \(use)"])
        #expect(issues("=format(price, '%%08.3f')").isEmpty)
        #expect(issues("price/format(name)").isEmpty, "a pattern that is not a constant is known only when it runs")
        f.engine.extensions.register("number", "format") { v, _, _ in v }
        #expect(issues("price/format('%s')").isEmpty, "a Lua extension takes its own arguments")
    }
}
