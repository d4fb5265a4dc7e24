import Foundation
import Testing
@testable import OKitEngine

/// Dates before 15 October 1582 (a stranger's round six): they are stored as ISO 8601 counts them, in the proleptic
/// Gregorian calendar, but were shown by Foundation's calendar, which counts Julian days before that day —
/// `1000-06-01` showed as May 26, and every save of the date as shown moved it six days back. Shown, typed and read
/// back, every date is now counted as it is stored. And a zone beyond ±14:00 (`+99:00`) is no zone: refused as no
/// date.
@Suite struct DateProlepticTests {
    let setup = DateCellReadBackTests()

    @Test func theCellShowsAndReadsBackADateBefore1582AsStored() throws {
        let (f, s) = try setup.screen(["modePath": "#1"], language: "en")
        for (iso, day) in [("1000-06-01T00:00:00Z", "June 1, 1000"), ("0001-01-01T00:00:00Z", "January 1, 1"),
                           ("1582-10-04T00:00:00Z", "October 4, 1582")] {
            try s.set(cell: .key("Published"), value: .string(iso))
            #expect(setup.stored(f) == iso)
            #expect(try setup.shown(s) == day)
            // Typed back as shown, it stays the same date (it moved six days back at every save).
            for _ in 0..<3 { try s.set(cell: .key("Published"), value: .string(day)) }
            #expect(setup.stored(f) == iso, "\(iso): \(day)")
        }
        // A two-digit year in en's short style, as iOS writes M/d/yy for any year.
        let (g, t) = try setup.screen(["modePath": "#2"], language: "en")
        try t.set(cell: .key("Published"), value: .string("1000-06-01T00:00:00Z"))
        #expect(try setup.shown(t) == "6/1/00, 12:00 AM" && setup.stored(g) == "1000-06-01T00:00:00Z")
    }

    @Test func theFormatsCountTheProlepticGregorianCalendar() throws {
        let formats = FormatterCache()
        let en = AppLocale(language: "en", region: "", timeZone: "UTC")
        let de = AppLocale(language: "de", region: "DE", timeZone: "UTC")
        func date(_ iso: String) throws -> Date { try #require(ISODate.parse(iso)) }
        #expect(formats.date(try date("1000-06-01T00:00:00Z"), pattern: "yyyy-MM-dd", locale: en) == "1000-06-01")
        #expect(formats.date(try date("1000-06-01T00:00:00Z"), pattern: "MMMM d, y", locale: en) == "June 1, 1000")
        #expect(formats.date(try date("0001-01-01T00:00:00Z"), pattern: "yyyy-MM-dd G", locale: en) == "0001-01-01 AD")
        #expect(formats.date(try date("0000-12-31T00:00:00Z"), pattern: "yyyy-MM-dd G", locale: en) == "0001-12-31 BC",
                "ISO's year 0 is 1 BC")
        #expect(formats.date(try date("1000-06-01T00:00:00Z"), dateStyle: .medium, timeStyle: .none, locale: de) == "01.06.1000")
        // Read back: the date a person types is counted the same way.
        #expect(formats.parseDate("June 1, 1000", locale: en) == (try date("1000-06-01T00:00:00Z")))
    }

    @Test func theWallClockFieldsAreProlepticInAnyZone() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let year1000 = ISODate.wallClock(try #require(ISODate.parse("1000-06-01T00:00:00Z")), in: utc)
        #expect(year1000 == ISODate.WallClockFields(year: 1000, month: 6, day: 1, hour: 0, minute: 0, second: 0))
        let year0 = ISODate.wallClock(try #require(ISODate.parse("0000-02-29T23:59:59Z")), in: utc)
        #expect(year0 == ISODate.WallClockFields(year: 0, month: 2, day: 29, hour: 23, minute: 59, second: 59), "year 0 is a leap year")
        let now = ISODate.wallClock(try #require(ISODate.parse("2026-07-01T12:30:00Z")), in: berlin)
        #expect(now == ISODate.WallClockFields(year: 2026, month: 7, day: 1, hour: 14, minute: 30, second: 0), "summer time, +2")
    }

    @Test func aZoneBeyondFourteenHoursIsNoDate() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        for text in ["2026-01-01T00:00:00+99:00", "2026-01-01T00:00:00+14:01", "2026-01-01T00:00:00-15:00", "2026-01-01T00:00:00+05:60"] {
            #expect(ISODate.parse(text) == nil && ISODate.parse(text, wallClockIn: utc) == nil, "\(text)")
        }
        #expect(ISODate.parse("2026-01-01T00:00:00+14:00").map { ISODate.format($0) } == "2025-12-31T10:00:00Z")
        #expect(ISODate.parse("2026-01-01T00:00:00-12:00").map { ISODate.format($0) } == "2026-01-01T12:00:00Z")
        // A value read back from a store (a database's TEXT column) takes any offset under a day, as the model
        // files' reader does: a database that loaded before still loads.
        #expect(ISODate.parse("2026-01-01T00:00:00+15:00", stored: true).map { ISODate.format($0) } == "2025-12-31T09:00:00Z")
        let (f, s) = try setup.screen([:], language: "en")
        let before = setup.stored(f)
        #expect(throws: (any Error).self) { try s.set(cell: .key("Published"), value: .string("2026-01-01T00:00:00+99:00")) }
        #expect(setup.stored(f) == before, "nothing stored")
        do { try s.set(cell: .key("Published"), value: .string("2026-01-01T00:00:00+99:00")) } catch {
            #expect("\(error)".contains("is not a date like"), "\(error)")
        }
    }
}
