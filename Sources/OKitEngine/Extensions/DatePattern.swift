/// What `date/format(pattern)` takes: an ICU date pattern (`yyyy-MM-dd HH:mm`, as OKit's NSDateFormatter does).
/// A strftime pattern (`%Y-%m-%d`) would be read letter by letter as ICU fields and print garbage
/// ("%2026-%05-%26"), so it is refused, naming the ICU pattern that says the same (bindings.md "Date patterns").
enum DatePattern {
    /// The ICU fields of the strftime conversions a person most often writes.
    static let icuForStrftime: [Character: String] = [
        "Y": "yyyy", "y": "yy", "m": "MM", "d": "dd", "e": "d", "H": "HH", "I": "hh", "M": "mm", "S": "ss",
        "p": "a", "b": "MMM", "h": "MMM", "B": "MMMM", "a": "EEE", "A": "EEEE", "j": "DDD", "Z": "zzz", "z": "xx",
        "F": "yyyy-MM-dd", "T": "HH:mm:ss", "R": "HH:mm", "D": "MM/dd/yy",
    ]

    /// Refuses a strftime pattern (a `%` followed by a letter outside quoted text).
    static func check(_ text: String) throws(FormatArgumentError) {
        let chars = Array(text)
        var quoted = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" { quoted.toggle() }
            if !quoted, c == "%", i + 1 < chars.count, chars[i + 1].isLetter {
                throw FormatArgumentError(function: "format", message: "pattern \(Coercion.describe(.string(text))) is a strftime "
                    + "pattern, which dates do not take: use the ICU date pattern \(Coercion.describe(.string(icu(for: chars)))) "
                    + "(fields such as yyyy, MM, dd, HH, mm, ss, EEE, MMM)")
            }
            i += 1
        }
    }

    /// The ICU pattern that says what a strftime pattern says (runs of literal letters quoted, a `'` doubled,
    /// unknown conversions kept).
    static func icu(for chars: [Character]) -> String {
        var out = "", letters = ""
        func flushLetters() { if !letters.isEmpty { out += "'\(letters)'"; letters = "" } }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "%", i + 1 < chars.count {
                flushLetters()
                let next = chars[i + 1]
                if next == "%" { out += "%" } else if let field = icuForStrftime[next] { out += field } else { out += "%\(next)" }
                i += 2
                continue
            }
            if c.isLetter { letters.append(c) } else { flushLetters(); out += c == "'" ? "''" : String(c) }
            i += 1
        }
        flushLetters()
        return out
    }
}
