import Foundation

/// The pattern of `number/format(pattern)` (bindings.md "Number patterns"): a Unicode (ICU) decimal pattern
/// (`#,##0.00`, `0.0%`), or one printf conversion with text around it (`%08.3f`, `%+.2f kg`, `%5d`). Anything else
/// is refused with a message naming the pattern and what is supported, never formatted into garbage.
enum NumberPattern: Equatable {
    case icu(String)
    case printf(Printf)

    /// One printf conversion: `%[flags][width][.precision]conversion` between literal texts (`%%` is `%`).
    struct Printf: Equatable {
        var prefix = ""
        /// Any of `-` (left-justify), `+` (always a sign), `0` (pad with zeros).
        var flags = ""
        var width: Int?
        var precision: Int?
        /// `f`, `e`, `E`, `g`, `G` (the number as a double) or `d` (rounded half away from zero to a whole number).
        var conversion: Character = "f"
        var suffix = ""
    }

    static let conversions: Set<Character> = ["f", "F", "e", "E", "g", "G", "d", "i"]
    static let flagCharacters: Set<Character> = ["-", "+", "0"]
    static let maxWidth = 64
    static let supported = "an ICU pattern such as #,##0.00 or one printf conversion %[-+0][width][.precision]f (also e, g, d)"

    /// The pattern `text` stands for, or why it is refused.
    static func parse(_ text: String) throws(FormatArgumentError) -> NumberPattern {
        if let printf = try printf(text) { return .printf(printf) }
        guard hasDigitPlaceholder(text) else { throw refused(text, "is no number pattern") }
        return .icu(text)
    }

    static func refused(_ text: String, _ why: String) -> FormatArgumentError {
        FormatArgumentError(function: "format", message: "pattern \(Coercion.describe(.string(text))) \(why): use \(supported)")
    }

    /// Whether an ICU pattern has a digit placeholder (`0`…`9`, `#` or `@`) outside its quoted texts.
    static func hasDigitPlaceholder(_ text: String) -> Bool {
        var quoted = false
        for c in text {
            if c == "'" { quoted.toggle(); continue }
            if !quoted, c == "#" || c == "@" || ("0"..."9").contains(c) { return true }
        }
        return false
    }

    /// The printf conversion of `text`, nil when `text` has none (an ICU pattern: a `%` there is a percent sign
    /// and is not followed by flags, digits and a letter).
    static func printf(_ text: String) throws(FormatArgumentError) -> Printf? {
        let chars = Array(text)
        var spec = Printf()
        var found = false
        var literal = ""
        var i = 0
        while i < chars.count {
            guard chars[i] == "%" else { literal.append(chars[i]); i += 1; continue }
            if i + 1 < chars.count, chars[i + 1] == "%" { literal.append("%"); i += 2; continue }
            var j = i + 1
            while j < chars.count, "-+0#'*$.123456789".contains(chars[j]) { j += 1 }
            guard j < chars.count, chars[j].isLetter || chars[j] == "@" else { literal.append("%"); i += 1; continue }
            guard !found else { throw refused(text, "has more than one conversion") }
            found = true
            spec.prefix = literal
            literal = ""
            i = try conversion(chars, from: i + 1, to: j, into: &spec, pattern: text)
        }
        guard found else { return nil }
        spec.suffix = literal
        return spec
    }

    /// Reads flags, width, precision, an `l`/`ll` length and the conversion letter starting at `from` (after
    /// `%`); `letter` is where the first letter is. Returns the index after the conversion.
    static func conversion(_ chars: [Character], from: Int, to letter: Int, into spec: inout Printf,
                           pattern text: String) throws(FormatArgumentError) -> Int {
        var k = from
        while k < letter, flagCharacters.contains(chars[k]) {
            if !spec.flags.contains(chars[k]) { spec.flags.append(chars[k]) }
            k += 1
        }
        var width = ""
        while k < letter, chars[k].isASCII, chars[k].isNumber { width.append(chars[k]); k += 1 }
        var precision: String?
        if k < letter, chars[k] == "." {
            precision = ""
            k += 1
            while k < letter, chars[k].isASCII, chars[k].isNumber { precision?.append(chars[k]); k += 1 }
        }
        let written = String(chars[from...letter])
        guard k == letter else { throw refused(text, "has \"%\(written)\", whose \"\(chars[k])\" is not supported") }
        var end = letter
        while end < chars.count, chars[end] == "l", end - letter < 2 { end += 1 }
        guard end < chars.count, conversions.contains(chars[end]) else {
            let shown = String(chars[from...min(end, chars.count - 1)])
            throw refused(text, "has the conversion \"%\(shown)\", which is not supported")
        }
        if end > letter, !"di".contains(chars[end]), end - letter > 1 {
            throw refused(text, "has the conversion \"%\(String(chars[from...end]))\", which is not supported")
        }
        spec.width = width.isEmpty ? nil : Int(width)
        spec.precision = precision.map { Int($0) ?? 0 }
        guard (spec.width ?? 0) <= maxWidth else { throw refused(text, "has a width over \(maxWidth)") }
        guard (spec.precision ?? 0) <= FormatterCache.maxDigits else {
            throw refused(text, "has a precision over \(FormatterCache.maxDigits)")
        }
        spec.conversion = chars[end] == "i" ? "d" : chars[end]
        return end + 1
    }
}

extension NumberPattern.Printf {
    /// `n` formatted as C's printf would in the C locale, with the locale's decimal separator in place of `.`.
    func format(_ n: Double, decimalSeparator: String) -> String {
        let spec = "%" + flags + (width.map(String.init) ?? "") + (precision.map { "." + String($0) } ?? "")
        let body: String
        if conversion == "d" {
            let whole = n.rounded(.toNearestOrAwayFromZero)
            if n.isFinite, abs(whole) < 9.2e18 {
                body = String(format: spec + "lld", Int64(whole))
            } else {
                body = String(format: "%" + flags + (width.map(String.init) ?? "") + ".0f", whole)
            }
        } else {
            let text = String(format: spec + String(conversion), n)
            body = decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: decimalSeparator)
        }
        return prefix + body + suffix
    }
}
