/// Writing through a format (bindings.md "Locale formats", "Writing through a mask"): `set(book,
/// "amount/currency(#EUR)", "1.250,00 €")` reads the text back in that format and writes the number to `amount`;
/// `set(person, "phone/mask('(###) ###-####')", "111-222-3333")` writes `1112223333` to `phone`; a text cell whose
/// `textPath` shows a formatted value takes the text it shows.
extension Engine {
    /// The receiver types whose format extensions may have an inverse, and whether a receiver value is of one.
    static let readBackTypes: [(type: String, holds: @Sendable (Value) -> Bool)] = [
        ("number", { $0.numeric != nil }),
        ("string", { if case .string = $0 { return true } else { return false } }),
    ]

    /// The value to write to the segment before `format`, when `format` is a format extension with an inverse
    /// (`currency(…)`, `number(…)`, `percent` on a number, `mask(…)` on a text) applied to a value of its type (or
    /// nil): the text read back, or a value of the receiver's type written as is. nil when `format` is something
    /// else (the write goes on as usual).
    func readBack(_ value: Value, through format: Segment, after previous: Segment, on owner: Value,
                  ev: BindingEvaluator, text binding: String) throws -> Value? {
        guard let (name, argBindings) = Engine.formatCall(format) else { return nil }
        let candidates = Engine.readBackTypes.compactMap { t in extensions.parser(type: t.type, name: name).map { (t, $0) } }
        guard !candidates.isEmpty else { return nil }
        let receiver = try ev.step(owner, previous)
        guard let (type, parse) = candidates.first(where: { receiver.isNull || $0.0.holds(receiver) }) else { return nil }
        // A number written to a text through its mask (`set Phone 6001112223`, JSON's `"value":6001112223`) is its
        // digits, read through the mask as typed text is: written as it was, it skipped the mask.
        let text: String
        switch value {
        case .string(let t): text = t
        case .int(let n) where type.type == "string": text = String(n)
        case .double where type.type == "string": text = value.displayString ?? ""
        default: return value
        }
        let args = try argBindings.map { try ev.evaluate($0) }
        let parsed: Value?
        do {
            parsed = try parse(text, args, self)
        } catch let mismatch as MaskMismatch {
            // A person's command: in the person's language, the field named as its cells are.
            if checksCommandWrite, case .entity(let e) = owner, let field = Engine.fieldName(previous),
               let spec = e.type.field(named: field) {
                throw InvalidValue(type: e.type.name, field: spec.name, message: maskRefusal(mismatch, label: fieldLabel(spec)))
            }
            throw BindingWriteError(binding: binding, reason: mismatch.description)
        }
        guard let parsed else {
            let example = type.type == "number" ? formatExample(name, args) : nil
            // A person's command: the field's label and an example in the person's language (a whole number for an
            // int field), shown at the cell.
            if checksCommandWrite, let example, case .entity(let e) = owner, let field = Engine.fieldName(previous),
               let spec = e.type.field(named: field) {
                throw notANumber(text, for: e, spec, example: spec.type == .int ? formatExample(name, args, .int(1234)) ?? example : example)
            }
            let what = type.type == "number" ? "a number" : "a text"
            throw BindingWriteError(binding: binding, reason: "\(Coercion.describe(value)) is not \(what) in the format of \(name) (\(locale.formatIdentifier))"
                + (example.map { "; write it like \($0)" } ?? ""))
        }
        return parsed
    }

    /// A mask's refusal of a person's text in the app's language (`Tel: "600-111-2223" does not fit ### ### ###:
    /// "3" is more than it takes`).
    func maskRefusal(_ m: MaskMismatch, label: String) -> String {
        let w: BuiltInWord = m.slot == nil ? .maskTakesNoMore : m.wantsDigit ? .maskTakesDigit : .maskTakesLetter
        return word(w, label, m.typed, m.format, String(m.character))
    }

    /// 1234.56 (or `n`: 1234 for an int field) as the format shows it in the app's language (`1.234,56 €` for
    /// `currency(#EUR)` in `de`): what a refused text is told to look like. nil when the format cannot show it.
    func formatExample(_ name: String, _ args: [Value], _ n: Value = .double(1234.56)) -> String? {
        guard let format = extensions.function(type: "number", name: name),
              case .string(let text)? = try? format(n, args, self) else { return nil }
        return text
    }

    /// The field a segment names (`amount` in `amount/currency(#EUR)`), or nil.
    static func fieldName(_ segment: Segment) -> String? {
        guard case .property(let keys, nil, _) = segment, keys.count == 1, case .name(let n, _) = keys[0] else { return nil }
        return n
    }

    /// The name and argument bindings of a last segment that may be a format: `name(…)` or a bare `name`.
    static func formatCall(_ segment: Segment) -> (String, [BindingPart])? {
        switch segment {
        case .call(let n, let args, nil, _): return (n, args)
        case .property(let keys, nil, _):
            guard keys.count == 1, case .name(let n, _) = keys[0] else { return nil }
            return (n, [])
        default: return nil
        }
    }

    /// Whether a last segment is a format that writing reads back (`currency(…)`, `number(…)`, `percent`,
    /// `mask(…)`).
    func isReadBackFormat(_ segment: Segment) -> Bool {
        guard let (name, _) = Engine.formatCall(segment) else { return false }
        return Engine.readBackTypes.contains { extensions.parser(type: $0.type, name: name) != nil }
    }

    /// The entity and int or double field a one-path binding ends at, or nil.
    func numberField(_ context: Entity?, _ text: String) -> (Entity, FieldSpec)? {
        guard let b = try? compile(text), b.parts.count == 1, case .path(let path) = b.parts[0], !path.negate,
              case .property(let keys, nil, _)? = path.segments.last, case .name(let field, _)? = keys.last else { return nil }
        let owner: Value
        do {
            let ev = BindingEvaluator(engine: self, binding: b, start: context, mode: .query)
            var current: Value = path.absolute ? try ev.modelRoot(path.model) : (context.map { .entity($0) } ?? .null)
            for seg in path.segments.dropLast() { current = try ev.step(current, seg) }
            owner = keys.count > 1 ? try ev.evaluateKeys(current, keys.dropLast()) : current
        } catch {
            return nil
        }
        guard case .entity(let e) = owner, let spec = e.type.field(named: field), spec.type == .int || spec.type == .double else { return nil }
        return (e, spec)
    }
}
