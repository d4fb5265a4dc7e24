import Foundation

extension ISODate {
    /// An ISO 8601 date as a person gives it to a date cell (screens.md "Commands"): a text with its zone (`Z`,
    /// `±hh:mm`, `±hhmm`) is that instant; one without (`2026-12-03`, `2026-12-03T09:30`) is the wall-clock time
    /// of `zone`, the app's time zone (`okit.locale { timeZone = … }`), a date alone its midnight — as the web's date
    /// field and the app's own date forms (`03/12/2026`) are read. In Europe/Paris `2026-12-03` is
    /// `2026-12-02T23:00:00Z`; in UTC every text is read as `parse(_:)` reads it. A wall-clock time the zone skips
    /// when its clocks go forward is read as the time after the gap (02:30 in Paris on 29 March 2026 is 03:30
    /// summer time); one it has twice when they go back, as the first. Nil when malformed.
    public static func parse(_ text: String, wallClockIn zone: TimeZone) -> Date? {
        var text = text
        return text.withUTF8 { b -> Date? in
            guard let f = Fields(b, extendedYears: false, maxFractionDigits: 9, maxZone: Fields.realZone) else { return nil }
            let asUTC = seconds(f)
            if f.hasZone { return Date(timeIntervalSince1970: asUTC) }
            return Date(timeIntervalSince1970: asUTC - Double(offset(ofWallClock: f.days * 86_400 + f.secondsOfDay, in: zone)))
        }
    }

    /// The offset from UTC (seconds) of `zone` at a wall-clock time given as seconds since 1970 read as UTC: the
    /// zone's offset a day before or a day after, whichever gives an instant that has it (the earlier when both
    /// do: a time the clocks pass twice); the offset before when neither does (a time the clocks skip).
    static func offset(ofWallClock local: Int, in zone: TimeZone) -> Int {
        func at(_ s: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s))) }
        let before = at(local - 86_400), after = at(local + 86_400)
        if before == after { return before }
        // The earlier instant is the one with the larger offset.
        let tried = before > after ? [before, after] : [after, before]
        return tried.first { at(local - $0) == $0 } ?? before
    }
}

extension ISODate {
    /// The wall-clock fields of a date in `zone`, in the proleptic Gregorian calendar as ISO 8601 and HTML's date
    /// fields count (Foundation's Gregorian calendar counts Julian days before 15 October 1582: `1000-06-01` came
    /// out as May 26, and a date saved as shown moved back six days each time). Seconds are whole (rounded down).
    public struct WallClockFields: Equatable, Sendable {
        public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    }

    public static func wallClock(_ date: Date, in zone: TimeZone) -> WallClockFields {
        let t = date.timeIntervalSince1970
        let limit = 31_556_926_000_000.0
        let utc = t.isNaN ? 0 : Int(min(max(t, -limit), limit).rounded(.down))
        let local = utc + zone.secondsFromGMT(for: date)
        var days = local / 86_400, secs = local - days * 86_400
        if secs < 0 { secs += 86_400; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        return WallClockFields(year: y, month: m, day: d, hour: secs / 3600, minute: secs / 60 % 60, second: secs % 60)
    }
}
