/// Writing through a locale format (bindings.md "Locale formats"): `set(book, "amount/currency(#EUR)", "1.250,00 €")`
/// reads the text back in that format and writes the number to `amount`; a text cell whose `textPath` shows a
/// formatted number takes the text it shows.
extension Engine {
    /// The value to write to the segment before `format`, when `format` is a format extension with an inverse
    /// (`currency(…)`, `number(…)`, `percent`) applied to a number (or nil): the text read back, or a number
    /// written as is. nil when `format` is something else (the write goes on as usual).
    func readBack(_ value: Value, through format: Segment, after previous: Segment, on owner: Value,
                  ev: BindingEvaluator, text binding: String) throws -> Value? {
        let name: String, argBindings: [BindingPart]
        switch format {
        case .call(let n, let args, nil, _): (name, argBindings) = (n, args)
        case .property(let keys, nil, _):
            guard keys.count == 1, case .name(let n, _) = keys[0] else { return nil }
            (name, argBindings) = (n, [])
        default: return nil
        }
        guard let parse = extensions.parser(type: "number", name: name) else { return nil }
        let receiver = try ev.step(owner, previous)
        guard receiver.isNull || receiver.numeric != nil else { return nil }
        if case .string(let text) = value {
            let args = try argBindings.map { try ev.evaluate($0) }
            guard let parsed = try parse(text, args, self) else {
                throw BindingWriteError(binding: binding, reason: "\(Coercion.describe(value)) is not a number in the format of \(name) (\(locale.formatIdentifier))")
            }
            return parsed
        }
        return value
    }

    /// Whether a last segment is a format that writing reads back (`currency(…)`, `number(…)`, `percent`).
    func isReadBackFormat(_ segment: Segment) -> Bool {
        switch segment {
        case .call(let n, _, nil, _): return extensions.parser(type: "number", name: n) != nil
        case .property(let keys, nil, _):
            guard keys.count == 1, case .name(let n, _) = keys[0] else { return false }
            return extensions.parser(type: "number", name: n) != nil
        default: return false
        }
    }

    /// A text cell bound straight to a number field takes the number in the app's format (`1.234,5` in `de`), else
    /// as plain text (`1234.5`); nil when the binding does not reach a number field.
    public func numberFromCellText(_ text: String, on context: Entity?, binding: String) throws -> Value? {
        guard isNumberField(context, binding) else { return nil }
        if let n = formatters.parse(text, .decimal(digits: nil), locale: locale) { return .double(n) }
        return nil
    }

    /// Whether a one-path binding ends at an int or double field of the entity it reaches.
    func isNumberField(_ context: Entity?, _ text: String) -> Bool {
        guard let b = try? compile(text), b.parts.count == 1, case .path(let path) = b.parts[0], !path.negate,
              case .property(let keys, nil, _)? = path.segments.last, case .name(let field, _)? = keys.last else { return false }
        let owner: Value
        do {
            let ev = BindingEvaluator(engine: self, binding: b, start: context, mode: .query)
            var current: Value = path.absolute ? try ev.modelRoot(path.model) : (context.map { .entity($0) } ?? .null)
            for seg in path.segments.dropLast() { current = try ev.step(current, seg) }
            owner = keys.count > 1 ? try ev.evaluateKeys(current, keys.dropLast()) : current
        } catch {
            return false
        }
        guard case .entity(let e) = owner, let spec = e.type.field(named: field) else { return false }
        return spec.type == .int || spec.type == .double
    }
}
