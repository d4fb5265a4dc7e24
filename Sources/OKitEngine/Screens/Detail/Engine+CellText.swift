import Foundation

/// What a text cell writes for what a person gave it (screens.md "Cells", cli.md): an empty text clears an
/// optional field; a number field takes the number as the app's language writes it (`1.234,5` in `de`) or as JSON
/// writes it (`1234.5`, `1e3`). What no field can hold is refused in the app's language, naming the cell as its
/// title shows it and quoting what was typed: a text that is no number (`NaN`, `inf`), a number too large for a
/// double (`1e400`) or out of an int's range (`99999999999999999999`). A fraction for an int field is refused by
/// `checkCommandWrite`, after this.
extension Engine {
    /// The value a text cell bound by `binding` writes for a command's `value`; nil when a text cell takes no such
    /// value (a bool, a list; nil for a field that is not optional). `label`: the cell as its title shows it.
    public func textCellValue(_ value: Value, on context: Entity?, binding: String, label: String) throws -> Value? {
        let text: String
        switch value {
        case .string(let s): text = s
        case .null:
            // A program's nil (JSON null) clears an optional field, and is an empty text otherwise, as `""` is:
            // a text field keeps it, a number field refuses it (cli.md; it was refused as "takes a string").
            if writtenField(context, binding)?.optional == true { return .null }
            text = ""
        case .int, .double:
            // A number given as a number (JSON 12.5, `app:set("Amount", 12.5)`) is that number in any language: a
            // number field and a format over one take it as is (bindings.md), a text field its digits.
            if let (e, spec) = numberField(context, binding) { try checkCellNumber(value, typed: nil, for: e, spec, label: label) }
            return value
        default: return nil
        }
        // An emptied text clears an optional field: nil, which only `required` and `validate` look at (a pattern or a
        // length is for a text that is there).
        if let spec = writtenField(context, binding), spec.optional,
           spec.type == .string ? text.isEmpty : text.trimmingCharacters(in: .whitespaces).isEmpty {
            return .null
        }
        guard let (e, spec) = numberField(context, binding) else { return value.isNull ? .string(text) : value }
        return try cellNumber(text, for: e, spec, label: label)
    }

    /// A person's text for a number field: the number in the app's language (an int field's digits exactly, past
    /// what a double holds), else the text as JSON writes a number (kept as typed, so a refusal quotes it).
    func cellNumber(_ text: String, for e: Entity, _ spec: FieldSpec, label: String) throws -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if spec.type == .int, let i = Int(trimmed) { return .int(i) }
        let number: Value, written: Value
        if let d = formatters.parse(text, .decimal(digits: nil), locale: locale) {
            number = spec.type == .int ? wholeDigits(LocaleDigits.folded(text), d).map(Value.int) ?? .double(d) : .double(d)
            written = number
        } else if let plain = Value.parseNumber(LocaleDigits.folded(trimmed)) {
            (number, written) = (plain, plain)
        } else {
            throw notANumber(ShellError.brief(text, 48), for: e, spec, example: numberExample(spec), label: label)
        }
        try checkCellNumber(number, typed: text, for: e, spec, label: label)
        return written
    }

    /// A number no field of `spec`'s type holds, refused: NaN (not a number), infinity or an overflow (too large),
    /// a fraction for an int field (`Pages takes a whole number: "12,5" has a fraction`, never rounded), or a whole
    /// number outside an int's range (`clamped`: not for a stepper or slider, which clamps it to its range).
    /// `typed`: the person's text, quoted in the refusal; a number sent as one is quoted in the app's language when
    /// that shows it whole and short (`12,5`), else as JSON writes it (`1e+308`, `1e-300`).
    func checkCellNumber(_ n: Value, typed: String?, for e: Entity, _ spec: FieldSpec, label: String, clamped: Bool = false) throws {
        guard case .double(let d) = n else { return }
        let shown = typed.map { ShellError.brief($0, 48) } ?? formatters.format(n, .decimal(digits: nil), locale: locale).flatMap {
            $0.count <= 24 && formatters.parse($0, .decimal(digits: nil), locale: locale) == d ? $0 : nil
        } ?? (d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d))
        func refused(_ message: String) -> InvalidValue { InvalidValue(type: e.type.name, field: spec.name, message: message) }
        if d.isNaN { throw notANumber(shown, for: e, spec, example: numberExample(spec), label: label) }
        if d.isInfinite { throw refused(word(.numberTooLarge, label, shown)) }
        if spec.type == .int, d.rounded(.towardZero) != d { throw refused(word(.takesWholeNumber, label, shown)) }
        if spec.type == .int, n.intValue == nil, !clamped {
            let bound = { (i: Int) in self.formatters.format(.int(i), .decimal(digits: nil), locale: self.locale) ?? String(i) }
            throw refused(word(.wholeNumberOutOfRange, label, shown, bound(Int.min), bound(Int.max)))
        }
    }

    /// The number a stepper or slider bound by `binding` takes for a command's value: a number, or a text read as a
    /// text cell reads it (the app's language, any script's digits, else as JSON writes it). What it cannot take is
    /// refused as a text cell refuses it, naming the cell as its title shows it and quoting what was typed
    /// (`Exemplare: „abc“ ist keine Zahl wie 1.234`, `Dagen takes a whole number: "2,5" has a fraction`). Nil for a
    /// value that is no number nor text (a list), which the cell refuses as before.
    public func controlNumber(_ value: Value, on context: Entity?, binding: String, label: String) throws -> Double? {
        let field = numberField(context, binding)
        let typed: String?
        let number: Value
        switch value {
        case .int, .double: (number, typed) = (value, nil)
        case .string(let text):
            guard let n = formatters.parse(text, .decimal(digits: nil), locale: locale).map(Value.double)
                    ?? Value.parseNumber(LocaleDigits.folded(text.trimmingCharacters(in: .whitespaces))) else {
                throw notANumber(ShellError.brief(text, 48), field, label: label)
            }
            (number, typed) = (n, text)
        case .bool(let b): throw notANumber(b ? "true" : "false", field, label: label)
        default: return nil
        }
        if let (e, spec) = field { try checkCellNumber(number, typed: typed, for: e, spec, label: label, clamped: true) }
        guard let d = number.doubleValue, d.isFinite else { throw notANumber(typed ?? Coercion.describe(value), field, label: label) }
        return d
    }

    /// A stepper's or slider's refusal of a text that is no number, with the example its field's type writes (a
    /// whole number for an int field).
    func notANumber(_ shown: String, _ field: (Entity, FieldSpec)?, label: String) -> Error {
        guard let (e, spec) = field else {
            let example = formatters.format(.double(1234.56), .decimal(digits: nil), locale: locale) ?? "1234.56"
            return ShellError.worded(word(.notANumberLike, label, shown, example))
        }
        return notANumber(shown, for: e, spec, example: numberExample(spec), label: label)
    }

    /// A number as the field's cell is told to write it: 1234 for an int field, 1234.56 for a double, in the app's
    /// language (`1.234` and `1.234,56` in `de`).
    func numberExample(_ spec: FieldSpec) -> String {
        let n: Value = spec.type == .int ? .int(1234) : .double(1234.56)
        return formatters.format(n, .decimal(digits: nil), locale: locale) ?? n.displayString ?? "1234"
    }

    /// The exact whole number of a text the app's language reads as `d` when a double cannot hold it exactly
    /// (`9.223.372.036.854.775.807` in `de`): its digits, when it has no decimal separator; else nil.
    func wholeDigits(_ text: String, _ d: Double) -> Int? {
        guard d.rounded(.towardZero) == d, abs(d) >= 9_007_199_254_740_992 else { return nil }
        let separator = formatters.formatter(.decimal(digits: nil), locale).decimalSeparator ?? "."
        guard !text.contains(separator) else { return nil }
        let digits = text.filter { $0.isASCII && $0.isNumber }
        return Int((d < 0 ? "-" : "") + digits)
    }

    /// The stored field a binding writes (through a format it reads back, `amount/currency(#EUR)`), or nil.
    func writtenField(_ context: Entity?, _ binding: String) -> FieldSpec? {
        guard let (e, name) = try? writeTarget(context, binding: binding, mode: .query) else { return nil }
        return e.type.field(named: name)
    }
}
