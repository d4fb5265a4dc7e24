/// Action Data's masked string formatter (`string/mask(format)`, `string/unmask(format)`).
///
/// Writing through a mask (`set` on `phone/mask('(###) ###-####')`) takes the text back with `value(typed:format:)`.
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

/// Reading a text written through a mask back to the value the mask shows (bindings.md "Writing through a mask").
extension MaskFormatter {
    /// The value to store for `typed` written through the mask `format`: the characters the placeholders take, in
    /// order, as `mask` would take them (`X` upper-cased, `x` lower-cased), so `mask` of the result shows `typed`'s
    /// characters in the mask's places. A character equal to the mask's next literal is that literal; any other
    /// character that is neither a letter nor a digit (a space, `-`, `.`, `(`) is a separator a person typed and is
    /// skipped. So `(111) 222-3333`, `111-222-3333`, `111.222.3333` and `1112223333` through `(###) ###-####` are all
    /// `1112223333`. A partly typed text is kept as far as it goes (`111` is `111`, shown `(111)    -    `).
    /// Throws `MaskMismatch` when a letter or digit is where the mask takes another class (`a` where it takes a
    /// digit) or is left over after the mask's last placeholder.
    public static func value(typed: String, format: String) throws(MaskMismatch) -> String {
        let fmt = slots(format)
        var rest = Substring(typed)
        var out = ""
        for slot in fmt {
            if case .literal(let l) = slot {
                if rest.first == l { rest = rest.dropFirst() }
                continue
            }
            while let c = rest.first {
                rest = rest.dropFirst()
                if let kept = slot.takes(c) { out += kept; break }
                if c.isLetter || c.isNumber { throw MaskMismatch(typed: typed, format: format, character: c, slot: slot) }
            }
        }
        if let extra = rest.first(where: { $0.isLetter || $0.isNumber }) {
            throw MaskMismatch(typed: typed, format: format, character: extra, slot: nil)
        }
        return out
    }
}

extension MaskFormatter.Slot {
    /// What this placeholder keeps of `c` (as `mask` takes it), or nil when `c` is not of its class.
    func takes(_ c: Character) -> String? {
        switch self {
        case .optionalDigit, .digit: return c.isASCII && c.isNumber ? String(c) : nil
        case .upper: return c.isLetter ? c.uppercased() : nil
        case .lower: return c.isLetter ? c.lowercased() : nil
        case .letter: return c.isLetter ? String(c) : nil
        case .any: return String(c)
        case .literal: return nil
        }
    }

    /// The class this placeholder takes, for messages.
    var wanted: String {
        switch self {
        case .optionalDigit, .digit: return "a digit"
        case .upper, .lower, .letter: return "a letter"
        case .any, .literal: return "any character"
        }
    }
}

/// A text written through a mask that does not fit it: a letter or digit where the mask takes another class, or
/// more than the mask takes.
public struct MaskMismatch: Error, CustomStringConvertible {
    public let typed: String
    public let format: String
    public let character: Character
    /// The placeholder where `character` is; nil when the mask took all it takes before it.
    let slot: MaskFormatter.Slot?
    /// The class the mask takes where `character` is (`a digit`, `a letter`); nil past the mask's end.
    public var wanted: String? { slot?.wanted }
    /// Whether the mask takes a digit where `character` is.
    public var wantsDigit: Bool {
        switch slot { case .digit?, .optionalDigit?: return true; default: return false }
    }

    public var description: String {
        let whereItIs = wanted.map { "\"\(character)\" is where the mask takes \($0)" }
            ?? "\"\(character)\" is more than the mask takes"
        return "\(Coercion.describe(.string(typed))) does not fit the mask \(format): \(whereItIs)"
    }
}
