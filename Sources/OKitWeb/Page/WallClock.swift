import Foundation
import OKitEngine

/// A date as the browser's `datetime-local` field shows and sends it: the wall-clock time of the app's time zone
/// (`okit.locale { timeZone = … }`), the zone the page shows its dates in. In Europe/Berlin `2026-11-27T13:30:00Z`
/// is `2026-11-27T14:30` (winter time, +1) and `2026-07-01T14:30` sent back is `2026-07-01T12:30:00Z` (summer
/// time, +2). A wall-clock time the zone skips when its clocks go forward is read as the time after the gap; one
/// it has twice when they go back, as the first.
enum WallClock {
    /// `YYYY-MM-DDTHH:MM` of an ISO 8601 date in `timeZone` (the field shows minutes); nil for another value.
    static func local(_ v: SnapshotValue, timeZone: String) -> String? {
        guard case .string(let s) = v, let date = ISODate.parse(s), let zone = TimeZone(identifier: timeZone) else { return nil }
        let c = calendar(zone).dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard let y = c.year, let mo = c.month, let d = c.day, let h = c.hour, let mi = c.minute, (1...9999).contains(y) else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(String(repeating: "0", count: max(0, 4 - String(y).count)))\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi))"
    }

    /// The ISO 8601 date (UTC) a `datetime-local` value (`YYYY-MM-DDTHH:MM`, or with `:SS`) stands for in
    /// `timeZone`; nil for another text (the cell then reads it as typed) or a day the calendar has not.
    static func iso(_ text: String, timeZone: String) -> String? {
        let u = Array(text.utf8)
        guard u.count == 16 || u.count == 19, let zone = TimeZone(identifier: timeZone) else { return nil }
        func number(_ r: Range<Int>) -> Int? {
            u[r].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) ? Int(String(decoding: u[r], as: UTF8.self)) : nil
        }
        let marks: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":")] + (u.count == 19 ? [(16, ":")] : [])
        guard marks.allSatisfy({ u[$0.0] == $0.1.asciiValue }),
              let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10), let h = number(11..<13),
              let mi = number(14..<16), let s = u.count == 19 ? number(17..<19) : 0,
              (1...12).contains(mo), (1...ISODate.daysIn(month: mo, year: y)).contains(d), h < 24, mi < 60, s < 60
        else { return nil }
        let wanted = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        guard let date = calendar(zone).date(from: wanted) else { return nil }
        return ISODate.format(date, fractional: false)
    }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone
        return c
    }
}
