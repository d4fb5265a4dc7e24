import Foundation

/// ISO 8601 dates in UTC, formatted and parsed without Foundation formatters (fast and deterministic).
public enum ISODate {
    /// Seconds between 1970-01-01 and 2001-01-01 (OKit's reference date).
    public static let referenceOffset: Double = 978_307_200

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
    static func pad(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
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
        out.append(contentsOf: String(value).utf8)
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

    /// (year, month, day) → days since 1970-01-01.
    public static func days(year y0: Int, month m: Int, day d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.fff…]]][Z|±hh:mm|±hhmm]`; no zone means UTC. Nil when malformed.
    public static func parse(_ text: String) -> Date? {
        var s = text.utf8[...]
        return parse(&s).flatMap { s.isEmpty ? Date(timeIntervalSince1970: $0) : nil }
    }

    /// Parses from UTF-8 bytes; returns seconds since 1970.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = bytes.count
        func num(_ width: Int) -> Int? {
            guard i + width <= n else { return nil }
            var v = 0
            for k in 0..<width {
                let c = bytes[i + k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += width
            return v
        }
        func expect(_ c: UInt8) -> Bool { if i < n, bytes[i] == c { i += 1; return true }; return false }
        guard let y = num(4), expect(45), let mo = num(2), expect(45), let d = num(2),
              (1...12).contains(mo), (1...31).contains(d) else { return nil }
        var secs = Double(days(year: y, month: mo, day: d) * 86_400)
        if i < n, bytes[i] == 84 || bytes[i] == 116 || bytes[i] == 32 {
            i += 1
            guard let h = num(2), expect(58), let mi = num(2), h < 24, mi < 60 else { return nil }
            var sec = 0
            var frac = 0.0
            if expect(58) {
                guard let s = num(2), s < 61 else { return nil }
                sec = s
                if expect(46) || expect(44) {
                    var digits = 0
                    var value = 0
                    while i < n, bytes[i] >= 48, bytes[i] <= 57 {
                        if digits < 9 { value = value * 10 + Int(bytes[i] - 48); digits += 1 }
                        i += 1
                    }
                    if digits == 0 { return nil }
                    frac = Double(value) / pow(10.0, Double(digits))
                }
            }
            secs += Double(h * 3600 + mi * 60 + sec)
            secs += frac   // the same arithmetic as `append`, so a formatted date parses back exactly
        }
        if i < n {
            let c = bytes[i]
            if c == 90 || c == 122 { i += 1 }
            else if c == 43 || c == 45 {
                i += 1
                guard let oh = num(2) else { return nil }
                _ = expect(58)
                guard let om = num(2) else { return nil }
                let off = Double(oh * 3600 + om * 60)
                secs += c == 43 ? -off : off
            }
        }
        return i == n ? secs : nil
    }

    private static func parse(_ s: inout Substring.UTF8View) -> Double? {
        let bytes = Array(s)
        s = s[s.endIndex...]
        return bytes.withUnsafeBufferPointer { parse(bytes: $0) }
    }
}
