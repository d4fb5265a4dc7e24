import Foundation
import Testing
@testable import OKitEngine

/// A date cell takes back exactly the text it shows (the tester's `3 de mayo de 2019` was refused, citing
/// `1 may 2019`): every mode's text (`formatTime`, `formatDate`, `formatDateTime`) and the full date, in English and
/// the languages okit has words for, and others ICU knows (`es`); a text that is no date is refused citing the
/// format the cell shows.
@Suite struct DateCellReadBackTests {
    let setup = DetailCellBehaviourTests()
    static let date = "2019-05-03T14:30:00Z"

    func screen(_ properties: [String: String], language: String, timeZone: String = "UTC") throws -> (ShopFixture, DetailScreen) {
        let (f, s) = try setup.screen([CellDeclaration(kind: "date", properties: ["path": "%Published", "datePath": "date"].merging(properties) { $1 })])
        f.engine.locale = AppLocale(language: language, region: "", timeZone: timeZone)
        try f.engine.set(f.book(0), "date", .date(try #require(ISODate.parse(Self.date))))
        try s.setEditing(true)
        return (f, s)
    }

    func shown(_ s: DetailScreen) throws -> String? { try setup.rows(s).first?.detail }

    func stored(_ f: ShopFixture) -> String? {
        guard case .date(let d)? = f.book(0)["date"] else { return nil }
        return ISODate.format(d, fractional: false)
    }

    /// Sets the text the cell shows after moving the date away, and returns what it shows then and the date.
    func readBack(_ properties: [String: String], language: String, timeZone: String = "UTC") throws -> (before: String?, after: String?) {
        let (f, s) = try screen(properties, language: language, timeZone: timeZone)
        let before = try shown(s)
        let text = try #require(before)
        try f.engine.set(f.book(0), "date", .date(try #require(ISODate.parse("2019-05-03T08:05:00Z"))))
        try s.set(cell: .key("Published"), value: .string(text))
        return (before, try shown(s))
    }

    @Test(arguments: ["en", "de", "es"])
    func everyModeTakesBackWhatItShows(language: String) throws {
        for mode in ["#0", "#1", "#2"] {
            let r = try readBack(["modePath": mode], language: language)
            #expect(r.before != nil && r.after == r.before, "\(language) mode \(mode): \(r)")
        }
        let full = try readBack(["modePath": "#1", "detailPath": "date/formatFullDate"], language: language)
        #expect(full.after == full.before, "\(language) full date: \(full)")
    }

    @Test func theTestersLongSpanishDateIsTaken() throws {
        let (f, s) = try screen(["modePath": "#1"], language: "es", timeZone: "Europe/Madrid")
        try s.set(cell: .key("Published"), value: .string("3 de mayo de 2019"))
        #expect(try shown(s) == "3 de mayo de 2019")
        #expect(stored(f) == "2019-05-02T22:00:00Z", "midnight in Madrid")
        try s.set(cell: .key("Published"), value: .string("viernes, 10 de mayo de 2019"))
        #expect(try shown(s) == "10 de mayo de 2019")
    }

    @Test func aTimeAloneKeepsTheDay() throws {
        let (f, s) = try screen(["modePath": "#0"], language: "en")
        try s.set(cell: .key("Published"), value: .string("9:15 PM"))
        #expect(stored(f) == "2019-05-03T21:15:00Z")
    }

    @Test func aRefusalCitesTheFormatTheCellShows() throws {
        func refusal(_ mode: String, _ language: String) throws -> String {
            let (_, s) = try screen(["modePath": mode], language: language)
            do { try s.set(cell: .key("Published"), value: .string("33 mayo")) } catch { return "\(error)" }
            return "taken"
        }
        #expect(try refusal("#1", "es") == "Published: «33 mayo» no es una fecha como 1 de mayo de 2019 o 2019-05-01T10:00:00Z")
        #expect(try refusal("#1", "en") == "Published: \"33 mayo\" is not a date like May 1, 2019 or 2019-05-01T10:00:00Z")
        #expect(try refusal("#2", "en") == "Published: \"33 mayo\" is not a date like 5/1/19, 10:00 AM or 2019-05-01T10:00:00Z")
        #expect(try refusal("#1", "de") == "Published: „33 mayo“ ist kein Datum wie 1. Mai 2019 oder 2019-05-01T10:00:00Z")
    }
}
