import Foundation
import OKitEngine

/// A date as the browser's `datetime-local` field shows and sends it: the wall-clock time of the app's time zone
/// (`okit.locale { timeZone = … }`), the zone the page shows its dates in. In Europe/Berlin `2026-11-27T13:30:00Z`
/// is `2026-11-27T14:30` (winter time, +1). What the field sends back (`2026-07-01T14:30`, an ISO text without a
/// zone) the date cell reads as the wall-clock time of that zone, as from every front end
/// (`ISODate.parse(_:wallClockIn:)`: `2026-07-01T12:30:00Z`, summer time, +2).
enum WallClock {
    /// `YYYY-MM-DDTHH:MM` of an ISO 8601 date in `timeZone` (the field shows minutes); nil for another value.
    static func local(_ v: SnapshotValue, timeZone: String) -> String? {
        guard case .string(let s) = v, let date = ISODate.parse(s), let zone = TimeZone(identifier: timeZone) else { return nil }
        // The proleptic Gregorian calendar, as the field counts (not Foundation's, Julian before 1582).
        let c = ISODate.wallClock(date, in: zone)
        let (y, mo, d, h, mi) = (c.year, c.month, c.day, c.hour, c.minute)
        guard (1...9999).contains(y) else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(String(repeating: "0", count: max(0, 4 - String(y).count)))\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi))"
    }
}
