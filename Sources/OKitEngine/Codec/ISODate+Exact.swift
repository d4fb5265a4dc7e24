import Foundation

/// Dates in model files, exact both ways (storage.md: "as many fractional digits as the value needs to
/// round-trip exactly"), and the parser both forms share.
///
/// A `Date` holds seconds since 2001 as a Double; going through seconds since 1970 rounds twice (in and out of
/// that representation), so a microsecond date could come back one ulp off. Here the whole seconds are exact
/// integers and only the fraction is a Double: the writer picks the fewest digits (up to 17) `n` with
/// `whole + n / 10^k == t`, and the reader computes exactly `whole + n / 10^k`.
extension ISODate {
    static let referenceSeconds = 978_307_200
    /// Powers of ten up to 10^17 (all exact): 17 fraction digits tell apart any two dates a second or more
    /// away from 2001-01-01.
    static let scales: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17]
    static let maxExactDigits = 17

    /// Whether a date can be written as an exact ISO string (finite, within ±3.15e13 seconds — about a million
    /// years — of 2001: whole seconds are exact integers there, and `append` clamps beyond, which wrote -1e15 as
    /// another instant). The model writer writes others as numbers.
    static func isExactlyWritable(_ date: Date) -> Bool {
        let t = date.timeIntervalSinceReferenceDate
        return t.isFinite && abs(t) < 3.15e13
    }

    /// Appends `2019-05-01T10:00:00Z` / `…:00.123456Z` (UTC), exact, for a date that `isExactlyWritable`.
    static func appendExact<Out: ByteAppending>(_ date: Date, to out: inout Out) {
        let t = isExactlyWritable(date) ? date.timeIntervalSinceReferenceDate : 0
        let whole = t.rounded(.down)
        let frac = t - whole   // exact
        append(whole + Double(referenceSeconds), into: &out, fractional: false, zone: false)
        if frac > 0 {
            var chosen: (n: Double, digits: Int)?
            for digits in 1...maxExactDigits {
                let n = (frac * scales[digits]).rounded()
                if n < scales[digits], whole + n / scales[digits] == t { chosen = (n, digits); break }
            }
            let (n, digits) = chosen ?? (min((frac * 1e17).rounded(.down), 99_999_999_999_999_999), maxExactDigits)
            out.append(0x2E)
            var div = Int(scales[digits - 1])
            let v = Int(n)
            while div > 0 {
                out.append(0x30 &+ UInt8(truncatingIfNeeded: (v / div) % 10))
                div /= 10
            }
        }
        out.append(0x5A)
    }

    /// Parses `[-]YYYY-MM-DD[(T|t| )HH:MM[:SS[(.|,)fff…]]][Z|z|±hh[:]mm]` (no zone: UTC) exactly, with years
    /// past 9999 or before 0 and up to 17 fraction digits. Nil when malformed.
    static func parseExact(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let f = Fields(b, extendedYears: true, maxFractionDigits: maxExactDigits, maxZone: Fields.anyZone) else { return nil }
        let seconds = f.days * 86_400 + f.secondsOfDay + f.zoneShift
        return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceSeconds) + Double(f.fraction) / scales[f.fractionDigits])
    }

    /// The fields of an ISO 8601 date-time: what both parsers read.
    struct Fields {
        var days = 0, secondsOfDay = 0
        /// The fraction's digits as an integer, and how many (at most the parser's limit; more are ignored).
        var fraction = 0, fractionDigits = 0
        /// Seconds to add for the zone (UTC − local).
        var zoneShift = 0
        /// Whether the text names its zone (`Z`, `±hh:mm`, `±hhmm`): without one it is a wall-clock time.
        var hasZone = false

        /// The largest offset from UTC a zone of a text a person gives has (`+14:00`, Kiribati's; `-12:00` is the
        /// other end): `+99:00` is no zone (a stranger's round six), and refused with the text as no date.
        static let realZone = 14 * 3600
        /// What the model files are read with: any offset under a day.
        static let anyZone = 23 * 3600 + 59 * 60

        /// `extendedYears`: a sign and more than four digits; `maxZone`: the largest offset (seconds) taken; a zone's
        /// minutes are always under 60.
        init?(_ b: UnsafeBufferPointer<UInt8>, extendedYears: Bool, maxFractionDigits: Int, maxZone: Int) {
            var i = 0
            let n = b.count
            @inline(__always) func digits(_ width: Int) -> Int? {
                guard i + width <= n else { return nil }
                var v = 0
                for k in 0..<width {
                    let c = b[i + k]
                    guard c >= 0x30, c <= 0x39 else { return nil }
                    v = v * 10 + Int(c - 0x30)
                }
                i += width
                return v
            }
            @inline(__always) func take(_ c: UInt8) -> Bool {
                if i < n, b[i] == c { i += 1; return true }
                return false
            }
            var year = 0
            if extendedYears {
                let negativeYear = take(0x2D)
                // Four digits, or more for years past 9999 (as the writer writes them).
                var yearDigits = 0
                while i < n, b[i] >= 0x30, b[i] <= 0x39, yearDigits < 9 { year = year * 10 + Int(b[i] - 0x30); i += 1; yearDigits += 1 }
                guard yearDigits >= 4 else { return nil }
                if negativeYear { year = -year }
            } else {
                guard let y = digits(4) else { return nil }
                year = y
            }
            guard take(0x2D), let month = digits(2), take(0x2D), let day = digits(2),
                  (1...12).contains(month), day >= 1, day <= ISODate.daysIn(month: month, year: year) else { return nil }
            days = ISODate.days(year: year, month: month, day: day)
            if i < n, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 {
                i += 1
                guard let h = digits(2), take(0x3A), let mi = digits(2), h < 24, mi < 60 else { return nil }
                secondsOfDay = h * 3600 + mi * 60
                if take(0x3A) {
                    guard let s = digits(2), s < 61 else { return nil }
                    secondsOfDay += s
                    if take(0x2E) || take(0x2C) {
                        var count = 0
                        var value = 0
                        while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                            if count < maxFractionDigits { value = value * 10 + Int(b[i] - 0x30); count += 1 }
                            i += 1
                        }
                        guard count > 0 else { return nil }
                        fraction = value
                        fractionDigits = count
                    }
                }
            }
            if i < n {
                let c = b[i]
                if c == 0x5A || c == 0x7A {
                    i += 1
                    hasZone = true
                } else if c == 0x2B || c == 0x2D {
                    i += 1
                    hasZone = true
                    guard let oh = digits(2) else { return nil }
                    _ = take(0x3A)
                    guard let om = digits(2) else { return nil }
                    guard om < 60, oh * 3600 + om * 60 <= maxZone else { return nil }
                    zoneShift = (c == 0x2B ? -1 : 1) * (oh * 3600 + om * 60)
                }
            }
            guard i == n else { return nil }
        }
    }
}
