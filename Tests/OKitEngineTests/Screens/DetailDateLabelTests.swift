import Foundation
import Testing
@testable import OKitEngine

/// A date cell without `detailPath` shows its date as OKit's detail label does (issue 36 item 8; reference §5.9):
/// `formatTime`, `formatDate` or `formatDateTime` by `modePath` (default `#2`), in the app's language; the
/// control's value stays ISO 8601. With `detailPath`, that text is the detail.
@Suite struct DetailDateLabelTests {
    let setup = DetailCellBehaviourTests()
    static let date = "2026-11-26T00:48:31Z"

    func dateRow(_ properties: [String: String], language: String = "en", editing: Bool = false) throws -> RowSnapshot {
        let (f, s) = try setup.screen([CellDeclaration(kind: "date", properties: ["path": "%Date", "datePath": "date"].merging(properties) { $1 })])
        f.engine.locale = AppLocale(language: language, region: language == "de" ? "DE" : "US", timeZone: "UTC")
        try f.engine.set(f.book(0), "date", .date(try #require(ISODate.parse(Self.date))))
        if editing { try s.setEditing(true) }
        return try #require(try setup.rows(s).first)
    }

    /// A day the month does not have is no date: February 31 is refused, not taken as March 3.
    @Test func aDayTheMonthDoesNotHaveIsNoDate() {
        #expect(ISODate.parse("2026-02-31T10:00:00Z") == nil)
        #expect(ISODate.parse("2026-04-31T10:00:00Z") == nil)
        #expect(ISODate.parse("2026-02-29T10:00:00Z") == nil, "2026 is no leap year")
        #expect(ISODate.parse("2024-02-29T10:00:00Z") != nil)
        #expect(ISODate.parse("2000-02-29T10:00:00Z") != nil && ISODate.parse("1900-02-29T10:00:00Z") == nil)
        #expect(ISODate.parse("2026-12-31T23:59:59Z") != nil && ISODate.parse("2026-01-31T00:00:00Z") != nil)
    }

    @Test func theDetailIsTheDateAndTimeByDefaultAndTheControlStaysISO() throws {
        let row = try dateRow([:])
        #expect(row.detail == "11/26/26, 12:48 AM")
        #expect(row.control?.value == .string(Self.date))
        #expect(try dateRow([:], editing: true).detail == "11/26/26, 12:48 AM")
    }

    @Test func modePathChoosesTimeDateOrBoth() throws {
        #expect(try dateRow(["modePath": "#0"]).detail == "12:48 AM")
        #expect(try dateRow(["modePath": "#1"]).detail == "November 26, 2026")
        #expect(try dateRow(["modePath": "#2"]).detail == "11/26/26, 12:48 AM")
        #expect(try dateRow(["modePath": "#date"]).detail == "November 26, 2026")
    }

    @Test func theDateIsShownInTheAppsLanguage() throws {
        let date = try #require(try dateRow(["modePath": "#1"], language: "de").detail)
        #expect(date == "26. November 2026")
        let both = try #require(try dateRow([:], language: "de").detail)
        #expect(both.contains("26.11.26") && both.contains("00:48"))
    }

    @Test func theDetailShowsWithoutAControlToo() throws {
        #expect(try dateRow(["controlInDisplay": "#false"]).detail == "11/26/26, 12:48 AM")
    }

    @Test func detailPathWins() throws {
        let row = try dateRow(["detailPath": "date/formatISO"])
        #expect(row.detail == "2026-11-26T00:48:31")
        #expect(try dateRow(["detailPath": "%Due"]).detail == "Due")
    }

    @Test func aCellWithoutADateShowsNoDetail() throws {
        let (_, s) = try setup.screen([CellDeclaration(kind: "date", properties: ["path": "%Date", "datePath": "comment"])])
        #expect(try setup.rows(s)[0].detail == nil)
    }
}
