import Foundation
import Testing
@testable import OKitEngine

/// `date/format(pattern)` takes ICU date patterns, as OKit's NSDateFormatter does (bindings.md "Date patterns"); a
/// strftime pattern is refused with the ICU pattern that says the same, at run time and by `check` — never printed
/// as garbage like "%2026-%05-%26".
@Suite struct DatePatternTests {
    let f: ShopFixture

    init() throws {
        f = try .withDune()
        f.engine.locale = AppLocale(language: "en")
        try f.engine.set(f.book(0), "date", .date(Date(timeIntervalSince1970: 1_779_753_600)))   // 2026-05-26 00:00 UTC
    }

    @Test func icuPatternsFormatAsBefore() throws {
        #expect(try f.engine.get(f.book(0), "date/format('yyyy-MM-dd')").displayString == "2026-05-26")
        #expect(try f.engine.get(f.book(0), "date/format('d MMM yyyy')").displayString == "26 May 2026")
        #expect(try f.engine.get(f.book(0), "date/format('yyyy \\'%\\' MM')").displayString == "2026 % 05", "a quoted % is text")
    }

    @Test(arguments: [
        ("%Y-%m-%d", "yyyy-MM-dd"),
        ("%d.%m.%Y %H:%M", "dd.MM.yyyy HH:mm"),
        ("%A, %B %e", "EEEE, MMMM d"),
        ("%F at %T", "yyyy-MM-dd 'at' HH:mm:ss"),
    ])
    func aStrftimePatternIsRefusedNamingTheICUOne(_ pattern: String, _ icu: String) throws {
        let binding = "date/format('\(pattern)')"
        let expected = "format pattern \(Coercion.describe(.string(pattern))) is a strftime pattern, which dates do not take: "
            + "use the ICU date pattern \(Coercion.describe(.string(icu))) (fields such as yyyy, MM, dd, HH, mm, ss, EEE, MMM)"
        do {
            let v = try f.engine.get(f.book(0), binding)
            Issue.record("printed \(v.displayString ?? "nil")")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
        let checker = BindingChecker(engine: f.engine)
        let issues = checker.check(binding, context: f.engine.schema.type(named: "Book")).map { "\($0.column): \($0.message)" }
        #expect(issues == ["6: " + expected])
    }
}
