/// Action Data's masked string formatter (`string/mask(format)`, `string/unmask(format)`).
///
/// Format characters: `#` optional digit (the next digit of the input, else a space), `0` digit (the next
/// digit, else `0`), `X` the next letter upper-cased, `x` the next letter lower-cased, `*` the next letter,
/// `_` the next character of any kind, `\` copies the following format character literally; every other
/// format character is copied. Input characters that do not fit the class a placeholder asks for are skipped.
/// When the input runs out, letter and any-character placeholders end the output there (so a partly typed
/// value shows what was typed); digit placeholders are filled as described. Input left over after the format is
/// dropped.
public enum MaskFormatter {
    enum Slot { case optionalDigit, digit, upper, lower, letter, any, literal(Character) }

    static func slots(_ format: String) -> [Slot] {
        var out: [Slot] = []
        var escaped = false
        for c in format {
            if escaped { out.append(.literal(c)); escaped = false; continue }
            switch c {
            case "\\": escaped = true
            case "#": out.append(.optionalDigit)
            case "0": out.append(.digit)
            case "X": out.append(.upper)
            case "x": out.append(.lower)
            case "*": out.append(.letter)
            case "_": out.append(.any)
            default: out.append(.literal(c))
            }
        }
        return out
    }

    public static func mask(_ input: String, format: String) -> String {
        var rest = Substring(input)
        var out = ""
        func take(_ fits: (Character) -> Bool) -> Character? {
            while let c = rest.first {
                rest = rest.dropFirst()
                if fits(c) { return c }
            }
            return nil
        }
        for slot in slots(format) {
            switch slot {
            case .literal(let c): out.append(c)
            case .optionalDigit: out.append(take { $0.isASCII && $0.isNumber } ?? " ")
            case .digit: out.append(take { $0.isASCII && $0.isNumber } ?? "0")
            case .upper:
                guard let c = take({ $0.isLetter }) else { return out }
                out += c.uppercased()
            case .lower:
                guard let c = take({ $0.isLetter }) else { return out }
                out += c.lowercased()
            case .letter:
                guard let c = take({ $0.isLetter }) else { return out }
                out.append(c)
            case .any:
                guard let c = take({ _ in true }) else { return out }
                out.append(c)
            }
        }
        return out
    }

    /// The characters of `masked` that filled placeholders (literal characters of the format are stripped).
    public static func unmask(_ masked: String, format: String) -> String {
        let fmt = slots(format)
        var out = ""
        var k = 0
        for c in masked {
            guard k < fmt.count else { out.append(c); continue }
            switch fmt[k] {
            case .literal(let l):
                if l != c { out.append(c); continue }
            case .optionalDigit:
                if c != " " { out.append(c) }
            default:
                out.append(c)
            }
            k += 1
        }
        return out
    }
}
