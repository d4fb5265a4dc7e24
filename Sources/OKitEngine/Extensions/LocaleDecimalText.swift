/// Reads a decimal number written with a locale's separators (`-1.234,5` with `,` and `.`), strictly: the whole
/// text, spaces ignored except between two digits of the integer part, where a space groups digits like the
/// grouping separator (ICU puts no-break spaces between amount and sign, and groups digits with them in some
/// languages: `1 234,5`), an optional leading `-` (or `−`, `+`), digits with grouping separators each followed by
/// a group of 3 digits (2 for groups before the last, as in `12,34,567`; 1 to 3 digits before the first
/// separator, no leading 0 before a group), and an optional decimal separator followed by digits. The number must
/// be a finite double.
enum LocaleDecimalText {
    static func parse(_ text: String, decimal: String, grouping: String) -> Double? {
        let chars = Array(text.unicodeScalars)
        let dec = Array(decimal.unicodeScalars)
        let group = Array(grouping.unicodeScalars.filter { !$0.properties.isWhitespace })
        func matches(_ sep: [Unicode.Scalar], at k: Int) -> Bool {
            !sep.isEmpty && k + sep.count <= chars.count && Array(chars[k..<(k + sep.count)]) == sep
        }
        func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
        func skipSpaces(_ i: inout Int) { while i < chars.count, chars[i].properties.isWhitespace { i += 1 } }
        var out = String.UnicodeScalarView()
        var i = 0
        skipSpaces(&i)
        if i < chars.count, chars[i] == "-" || chars[i] == "\u{2212}" {
            out.append("-")
            i += 1
        } else if i < chars.count, chars[i] == "+" {
            i += 1
        }
        var runs = [0]                  // the integer part's digit runs, split at grouping separators
        var fraction: Int?              // digits after the decimal separator, once it is seen
        var afterDigit = false          // the last thing read (spaces aside) was a digit
        while i < chars.count {
            let c = chars[i]
            if c.properties.isWhitespace {
                skipSpaces(&i)
                guard i < chars.count, isDigit(chars[i]), afterDigit else { continue }
                // A space between two digits groups them (`1 234`); in the fraction it is not a number.
                if fraction != nil { return nil }
                runs.append(0)
            } else if isDigit(c) {
                out.append(c)
                if let f = fraction { fraction = f + 1 } else { runs[runs.count - 1] += 1 }
                afterDigit = true
                i += 1
            } else if fraction == nil, matches(dec, at: i) {
                fraction = 0
                out.append(".")
                afterDigit = false
                i += dec.count
            } else if fraction == nil, group != dec, matches(group, at: i), runs[runs.count - 1] > 0 {
                runs.append(0)
                afterDigit = false
                i += group.count
            } else {
                return nil
            }
        }
        if runs.count > 1 {
            guard (1...3).contains(runs[0]), runs.last == 3, runs.dropFirst().dropLast().allSatisfy({ $0 == 2 || $0 == 3 }),
                  out.first(where: { $0 != "-" }) != "0" else { return nil }
        }
        let digits = runs.reduce(0, +) + (fraction ?? 0)
        guard digits > 0, fraction != 0, let n = Double(String(out)), n.isFinite else { return nil }
        return n
    }
}
