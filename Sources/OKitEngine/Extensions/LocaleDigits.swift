/// A person's number text with the digits and signs of other scripts folded to ASCII, as a number cell reads it
/// back (bindings.md "Locale formats"): every decimal digit of Unicode (the Arabic-Indic `٣٠` that `ar_EG` shows,
/// the Persian `۳۵`, the full-width `３０` a Japanese input method types) is its ASCII digit; the full-width
/// forms of ASCII (`，．－＋％`) and of the currency signs (`￥` is `¥`) are their usual forms; and the bidi marks
/// ICU writes around numbers in right-to-left languages (U+200E, U+200F, U+061C, the embeddings and isolates) are
/// dropped. An ASCII text comes back as it is, without a copy.
enum LocaleDigits {
    static func folded(_ text: String) -> String {
        if isASCII(text) { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            if c.isASCII {
                out.append(c)
            } else if let mapped = fold(c) {
                out.append(mapped)
            } else if !isBidiMark(c) {
                out.append(c)
            }
        }
        return String(out)
    }

    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// The scalar a non-ASCII one reads as in a number, or nil when it stays (or is dropped as a bidi mark).
    static func fold(_ c: Unicode.Scalar) -> Unicode.Scalar? {
        switch c.value {
        case 0xFF01...0xFF5E: return Unicode.Scalar(c.value - 0xFF01 + 0x21)
        case 0xFFE0: return "\u{A2}"
        case 0xFFE1: return "\u{A3}"
        case 0xFFE5: return "\u{A5}"
        case 0xFFE6: return "\u{20A9}"
        default: break
        }
        guard c.properties.numericType == .decimal, let v = c.properties.numericValue, v >= 0, v <= 9 else { return nil }
        return Unicode.Scalar(UInt32(0x30 + Int(v)))
    }

    /// The marks that set the direction of a text and show nothing: LRM, RLM, ALM, the embeddings, overrides and
    /// isolates.
    static func isBidiMark(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
