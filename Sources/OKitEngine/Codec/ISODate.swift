import Foundation

/// ISO 8601 dates in UTC, formatted and parsed without Foundation formatters (fast and deterministic).
public enum ISODate {
    /// Seconds between 1970-01-01 and 2001-01-01 (OKit's reference date).
    public static let referenceOffset: Double = 978_307_200

    /// The dates a model holds (lua-api.md "Dates"): from 0001-01-01T00:00:00Z up to, not including,
    /// 10000-01-01T00:00:00Z, in seconds since 1970 — the years okit writes, reads back, formats and shows alike
    /// (ISO 8601's four-digit years, the virtual clock's range); a date outside is refused as NaN is.
    public static let earliestSeconds: Double = -62_135_596_800
    public static let endSeconds: Double = 253_402_300_800
    /// The range as a refusal names it.
    public static let rangeText = "from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z"

    /// Whether okit holds `date` (`earliestSeconds` ≤ it < `endSeconds`).
    public static func isInRange(_ date: Date) -> Bool {
        let t = date.timeIntervalSince1970
        return t >= earliestSeconds && t < endSeconds
    }

    /// `2019-05-01T10:00:00Z`; with `fractional`, as many fraction digits as needed to round-trip exactly
    /// (`…:00.123456Z`), none when the time is whole seconds.
    public static func format(_ date: Date, fractional: Bool = true, zone: Bool = true) -> String {
        var out = [UInt8]()
        out.reserveCapacity(32)
        append(date.timeIntervalSince1970, to: &out, fractional: fractional, zone: zone)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the ISO form of `seconds` since 1970 to a byte buffer.
    public static func append(_ seconds: Double, to out: inout [UInt8], fractional: Bool = true, zone: Bool = true) {
        append(seconds, into: &out, fractional: fractional, zone: zone)
    }

    /// `append(_:to:fractional:zone:)` for any byte buffer.
    static func append<Out: ByteAppending>(_ seconds: Double, into out: inout Out, fractional: Bool = true, zone: Bool = true) {
        // Years beyond ±999,999 (and NaN) are not dates anyone wrote: clamp so formatting never traps.
        let limit = 31_556_926_000_000.0
        let seconds = seconds.isNaN ? 0 : min(max(seconds, -limit), limit)
        let whole = seconds.rounded(.down)
        var secs = Int(whole)
        var frac = seconds - whole
        if !fractional { frac = 0 }
        var days = secs / 86_400
        secs -= days * 86_400
        if secs < 0 { secs += 86_400; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        if y < 0 { out.append(UInt8(ascii: "-")) }
        pad(abs(y), 4, &out); out.append(UInt8(ascii: "-"))
        pad(m, 2, &out); out.append(UInt8(ascii: "-"))
        pad(d, 2, &out); out.append(UInt8(ascii: "T"))
        pad(secs / 3600, 2, &out); out.append(UInt8(ascii: ":"))
        pad(secs / 60 % 60, 2, &out); out.append(UInt8(ascii: ":"))
        pad(secs % 60, 2, &out)
        if frac > 0 {
            // The fewest digits (up to 9) whose value parses back to the same Double.
            for digits in 1...9 {
                let scale = pow(10.0, Double(digits))
                let n = (frac * scale).rounded()
                if n >= scale { break }
                if whole + n / scale == seconds || digits == 9 {
                    out.append(UInt8(ascii: "."))
                    pad(Int(n), digits, &out)
                    break
                }
            }
        }
        if zone { out.append(UInt8(ascii: "Z")) }
    }

    @inline(__always)
    static func pad<Out: ByteAppending>(_ value: Int, _ width: Int, _ out: inout Out) {
        // Digits written in place, no temporary arrays (the writer formats every date of a model).
        if value >= 0, width <= 9 {
            var limit = 1
            for _ in 0..<width { limit *= 10 }
            if value < limit {
                var div = limit / 10
                while div > 0 {
                    out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (value / div) % 10))
                    div /= 10
                }
                return
            }
        }
        var text = String(value)
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar.
    public static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// How many days a month has (February 29 in a leap year of the proleptic Gregorian calendar): a date such as
    /// 2026-02-31 is no date, not March 3.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// (year, month, day) → days since 1970-01-01.
    public static func days(year y0: Int, month m: Int, day d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.fff…]]][Z|±hh:mm|±hhmm]`; no zone means UTC. Nil when malformed, also for a
    /// zone beyond ±14:00 or with minutes past 59 (`+99:00` names no place).
    /// `stored`: a value read back from a store (a database's TEXT column), which takes any offset under a day as
    /// the model files' reader does — only what a person types is held to the real zones.
    public static func parse(_ text: String, stored: Bool = false) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0, stored: stored) }.map { Date(timeIntervalSince1970: $0) }
    }

    /// Parses from UTF-8 bytes (four-digit years, up to 9 fraction digits); returns seconds since 1970.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>, stored: Bool = false) -> Double? {
        guard let f = Fields(bytes, extendedYears: false, maxFractionDigits: 9,
                             maxZone: stored ? Fields.anyZone : Fields.realZone) else { return nil }
        return seconds(f)
    }

    /// Seconds since 1970 of parsed fields, a text without a zone read as UTC.
    static func seconds(_ f: Fields) -> Double {
        var secs = Double(f.days * 86_400 + f.secondsOfDay)
        secs += Double(f.fraction) / scales[f.fractionDigits]   // the same arithmetic as `append`: exact round trip
        secs += Double(f.zoneShift)
        return secs
    }
}
