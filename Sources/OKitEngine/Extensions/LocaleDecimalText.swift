/// Reads a decimal number written with a locale's separators (`-1.234,5` with `,` and `.`), strictly: the whole
/// text, spaces anywhere ignored (ICU puts no-break spaces between amount and sign, and groups digits with them
/// in some languages), an optional leading `-` (or `−`, `+`), digits with grouping separators each followed by
/// a group of 3 digits (2 for groups before the last, as in `12,34,567`; no leading 0 before a group), and an optional decimal separator
/// followed by digits.
enum LocaleDecimalText {
    static func parse(_ text: String, decimal: String, grouping: String) -> Double? {
        let chars = Array(text.unicodeScalars.filter { !$0.properties.isWhitespace })
        let dec = Array(decimal.unicodeScalars)
        let group = Array(grouping.unicodeScalars.filter { !$0.properties.isWhitespace })
        func matches(_ sep: [Unicode.Scalar], at k: Int) -> Bool {
            !sep.isEmpty && k + sep.count <= chars.count && Array(chars[k..<(k + sep.count)]) == sep
        }
        var out = String.UnicodeScalarView()
        var i = 0
        if i < chars.count, chars[i] == "-" || chars[i] == "\u{2212}" {
            out.append("-")
            i += 1
        } else if i < chars.count, chars[i] == "+" {
            i += 1
        }
        var runs = [0]                  // the integer part's digit runs, split at grouping separators
        var fraction: Int?              // digits after the decimal separator, once it is seen
        while i < chars.count {
            let c = chars[i]
            if c.value >= 0x30 && c.value <= 0x39 {
                out.append(c)
                if let f = fraction { fraction = f + 1 } else { runs[runs.count - 1] += 1 }
                i += 1
            } else if fraction == nil, matches(dec, at: i) {
                fraction = 0
                out.append(".")
                i += dec.count
            } else if fraction == nil, group != dec, matches(group, at: i), runs[runs.count - 1] > 0 {
                runs.append(0)
                i += group.count
            } else {
                return nil
            }
        }
        if runs.count > 1 {
            guard runs.last == 3, runs.dropFirst().dropLast().allSatisfy({ $0 == 2 || $0 == 3 }),
                  out.first(where: { $0 != "-" }) != "0" else { return nil }
        }
        let digits = runs.reduce(0, +) + (fraction ?? 0)
        guard digits > 0, fraction != 0 else { return nil }
        return Double(String(out))
    }
}
