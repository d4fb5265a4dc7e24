import Foundation
import Testing
@testable import OKitEngine

/// An ISO date typed without a zone is the app's wall clock, from every front end (an outside tester's French app
/// in Europe/Paris: `set Date 2026-12-03` was stored as UTC midnight while `03/12/2026` and the web's date field
/// were read in Paris; in America/Montreal UTC midnight showed as 2 December). A text with a zone keeps its
/// instant; an app in UTC reads every text as before.
@Suite struct DateCellWallClockTests {
    let setup = DateCellReadBackTests()

    /// What the cell stores for each typed value, in an app of `language` in `timeZone`.
    func stored(_ values: [Value], language: String = "fr", timeZone: String) throws -> [String?] {
        let (f, s) = try setup.screen(["modePath": "#1"], language: language, timeZone: timeZone)
        return try values.map { v in
            try s.set(cell: .key("Published"), value: v)
            return setup.stored(f)
        }
    }

    @Test func anISODateWithoutAZoneIsTheAppsWallClockInParis() throws {
        let got = try stored([.string("2026-12-03"), .string("2026-12-03T00:00"), .string("2026-12-03T09:30:15"),
                              .string("03/12/2026"), .string("2026-12-03T00:00:00Z"), .string("2026-12-03T00:00+05:00"),
                              .string("2026-07-01T14:30")], timeZone: "Europe/Paris")
        #expect(got == ["2026-12-02T23:00:00Z", "2026-12-02T23:00:00Z", "2026-12-03T08:30:15Z",
                        "2026-12-02T23:00:00Z", "2026-12-03T00:00:00Z", "2026-12-02T19:00:00Z",
                        "2026-07-01T12:30:00Z"], "winter +1, summer +2; a zone keeps its instant")
    }

    /// A date and time typed as the cell shows it but without the comma ICU joins them with (a Brazilian user's
    /// `03/05/2019 14:30` for `03/05/2019, 14:30`) is read the same; with the comma as before.
    @Test func aDateAndTimeTypedWithoutTheCommaIsRead() throws {
        let got = try stored([.string("03/05/2019 14:30"), .string("03/05/2019, 14:30")], language: "pt", timeZone: "UTC")
        #expect(got == ["2019-05-03T14:30:00Z", "2019-05-03T14:30:00Z"])
        let english = try stored([.string("5/3/19 2:30 PM"), .string("5/3/19, 2:30 PM")], language: "en", timeZone: "UTC")
        #expect(english == ["2019-05-03T14:30:00Z", "2019-05-03T14:30:00Z"])
    }

    @Test func aDateAloneInMontrealIsThatDay() throws {
        let (f, s) = try setup.screen(["modePath": "#1"], language: "en", timeZone: "America/Montreal")
        try s.set(cell: .key("Published"), value: .string("2026-12-03"))
        #expect(setup.stored(f) == "2026-12-03T05:00:00Z")
        let shown = try setup.shown(s)
        #expect(shown == "December 3, 2026", "the day typed, not 2 December: \(shown ?? "nil")")
        #expect(try stored([.string("2026-12-03T18:00"), .string("2026-12-03T00:00:00Z")], language: "en",
                           timeZone: "America/Montreal") == ["2026-12-03T23:00:00Z", "2026-12-03T00:00:00Z"])
    }

    @Test func anAppInUTCReadsEveryTextAsBefore() throws {
        let texts = ["2026-12-03", "2026-12-03T00:00", "2026-12-03T09:30:15.25", "2026-12-03T00:00:00Z", "2026-12-03T00:00-0500"]
        let got = try stored(texts.map { .string($0) }, language: "en", timeZone: "UTC")
        #expect(got == texts.map { ISODate.parse($0).map { ISODate.format($0, fractional: false) } })
        for t in texts {
            #expect(ISODate.parse(t, wallClockIn: try #require(TimeZone(identifier: "UTC"))) == ISODate.parse(t), "\(t): exactly")
        }
    }

    @Test func wallClockTimesAcrossTheChangesOfTheClocks() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        func iso(_ text: String) -> String? { ISODate.parse(text, wallClockIn: berlin).map { ISODate.format($0) } }
        #expect(iso("2026-11-27T14:30") == "2026-11-27T13:30:00Z")
        #expect(iso("2026-07-01T14:30:15") == "2026-07-01T12:30:15Z")
        #expect(iso("2026-07-01T14:30:15.5") == "2026-07-01T12:30:15.5Z")
        #expect(iso("2026-03-29T01:59") == "2026-03-29T00:59:00Z", "before the clocks go forward")
        #expect(iso("2026-03-29T03:00") == "2026-03-29T01:00:00Z", "after")
        #expect(iso("2026-03-29T02:30") == "2026-03-29T01:30:00Z", "in the gap: the time after it")
        #expect(iso("2026-10-25T02:30") == "2026-10-25T00:30:00Z", "twice: the first")
        #expect(iso("2026-10-25T03:30") == "2026-10-25T02:30:00Z", "after the clocks went back")
        #expect(iso("2026-02-30T10:00") == nil, "no such day")
        #expect(iso("27.11.2026") == nil, "another text is the cell's to read")
    }

    @Test func aNumberForADateIsRefusedInTheAppsLanguage() throws {
        let (_, s) = try setup.screen(["modePath": "#1"], language: "fr", timeZone: "Europe/Paris")
        func refusal(_ v: Value) -> String {
            do { try s.set(cell: .key("Published"), value: v) } catch { return "\(error)" }
            return "taken"
        }
        let typed = refusal(.string("12"))
        #expect(typed.hasPrefix("Published") && !typed.contains("takes"))
        #expect(refusal(.int(12)) == typed, "JSON's 12, the terminal's `set Date 12`")
        #expect(refusal(.bool(true)) == refusal(.string("true")))
    }
}
