/// A value a command tried to write that a field's rules refuse (lua-api.md "Validation"). Nothing was written.
public struct InvalidValue: Error, CustomStringConvertible, Equatable {
    /// The entity type and field whose rule was broken.
    public let type: String
    public let field: String
    /// The rule's message ("Name is required").
    public let message: String

    public init(type: String, field: String, message: String) {
        self.type = type
        self.field = field
        self.message = message
    }

    public var description: String { message }
}

/// Validation: the rules of stored fields (`FieldRules`), checked on writes made by commands — never on writes
/// made by code — and read by snapshots (a detail cell's `invalid`) and by `okit.valid`.
extension Engine {
    /// The message of the first rule of `e.name` that `value` breaks (the value taken as the write would take it),
    /// or nil when the field has no rules, every rule holds, or the value cannot be written at all (the write then
    /// fails with its own error). A reference's `refKey`/`ref` is checked by the rules of the field holding it.
    public func invalidMessage(_ e: Entity, _ name: String, _ value: Value) throws -> String? {
        guard let (owner, spec) = ruleField(e, name) else { return nil }
        if let fraction = fractionRefused(value, for: spec) { return fraction }
        guard let rules = spec.rules else { return nil }
        guard let v = ruleValue(value, for: spec) else { return nil }
        // Default messages in the app's language, the field's label localized ("Fee" → "Gebühr").
        return try rules.worded(builtInWords, label: fieldLabel(spec)).message(for: v, of: spec, on: owner)
    }

    /// A field as a person reads its name, the same in the add prompt, its placeholder and every validation
    /// message: its `label` looked up in the app's strings ("Fee" → "Gebühr"); else the field's name in the
    /// strings (`shelfCode = "Signatura"`, as OKit looks up `addName`); else its name as a label (`shelfCode` →
    /// `Shelf code`) looked up in the strings.
    public func fieldLabel(_ spec: FieldSpec) -> String { fieldName(spec).name }

    /// `fieldLabel`, and whether it is the label okit derived from the field's name and found no string for
    /// (`Shelf code`): inside a sentence such a name starts in lower case, as OKit's `Enter name for this Book`.
    func fieldName(_ spec: FieldSpec) -> (name: String, derived: Bool) {
        graph.record(.locale)
        let language = locale.language
        if let label = spec.rules?.label { return (strings.own(label, language: language) ?? label, false) }
        if let own = strings.own(spec.name, language: language) { return (own, false) }
        let derived = FieldRules.label(spec.name)
        if let own = strings.own(derived, language: language) { return (own, false) }
        return (derived, true)
    }

    /// A person's text a number field or a format over one cannot read: the field's label and `example`, the
    /// number as the app's language writes it (`Betrag: „12,5x“ ist keine Zahl wie 1.234,56 €`), shown at the cell.
    /// `label`: the cell as its title shows it, when the refusal is a cell's.
    func notANumber(_ text: String, for e: Entity, _ spec: FieldSpec, example: String, label: String? = nil) -> InvalidValue {
        InvalidValue(type: e.type.name, field: spec.name, message: word(.notANumberLike, label ?? fieldLabel(spec), text, example))
    }

    /// A number with a fraction for an int field (`12,5` typed, `12.5` sent): a person's value is refused, not cut
    /// to 12 as code's writes are (`Pages takes a whole number: "12,5" has a fraction`); nil for anything else.
    func fractionRefused(_ value: Value, for spec: FieldSpec) -> String? {
        guard spec.type == .int, case .double(let d)? = value.numeric, d.isFinite, d.rounded(.towardZero) != d else { return nil }
        let shown: String
        if case .string(let typed) = value { shown = typed } else {
            shown = formatters.format(.double(d), .decimal(digits: nil), locale: locale) ?? Value.displayDouble(d)
        }
        return word(.takesWholeNumber, fieldLabel(spec), shown)
    }

    /// Throws `InvalidValue` when `value` breaks a rule of `e.name` (or is a number with a fraction for an int field).
    public func checkCommandWrite(_ e: Entity, _ name: String, _ value: Value) throws {
        guard let message = try invalidMessage(e, name, value) else { return }
        let (owner, spec) = ruleField(e, name) ?? (e, FieldSpec(name, .string))
        throw InvalidValue(type: owner.type.name, field: spec.name, message: message)
    }

    /// Writes `value` through a binding as a command does: written like `set(_:binding:_:)`, with the rules of the
    /// field the binding reaches checked first, on the value as it reaches the field (a locale format read back:
    /// `amount/currency(#EUR)` checks the number) — `InvalidValue` with the rule's message, nothing written.
    public func commandSet(_ context: Entity?, binding text: String, _ value: Value) throws {
        let was = checksCommandWrite
        checksCommandWrite = true
        defer { checksCommandWrite = was }
        try set(context, binding: text, value)
    }

    /// The current value's message of the field a binding writes (a detail cell's `invalid`), or nil. Evaluated
    /// as a display binding: the reads are recorded, a `validate` function may not write.
    public func currentInvalidMessage(_ context: Entity?, binding text: String) throws -> String? {
        try asDisplay(text) {
            guard let (e, name) = try writeTarget(context, binding: text, mode: .display),
                  let (owner, spec) = ruleField(e, name), spec.rules != nil else { return nil }
            let current = try read(owner, spec.name)
            return try invalidMessage(owner, spec.name, current)
        }
    }

    /// Every field of `e` whose current value breaks a rule, in declaration order, with the message.
    public func invalidFields(of e: Entity) throws -> [(field: String, message: String)] {
        var out: [(field: String, message: String)] = []
        for spec in e.type.fields where spec.rules != nil {
            let current = try read(e, spec.name)
            if let message = try invalidMessage(e, spec.name, current) { out.append((spec.name, message)) }
        }
        return out
    }

    /// The entity and field name a single-path binding writes to; nil for anything else (a map key, a call).
    /// A locale format (`amount/currency(#EUR)`) writes the field before it, as `set` reads the text back.
    func writeTarget(_ context: Entity?, binding text: String, mode: EvaluationMode) throws -> (Entity, String)? {
        let b = try compile(text)
        guard b.parts.count == 1, case .path(let path) = b.parts[0], !path.negate else { return nil }
        var segments = path.segments
        if segments.count >= 2, let format = segments.last, isReadBackFormat(format) { segments.removeLast() }
        guard let last = segments.last, case .property(let keys, let index, _) = last, index == nil,
              case .name(let name, _)? = keys.last else { return nil }
        let ev = BindingEvaluator(engine: self, binding: b, start: context, mode: mode)
        var current: Value = path.absolute ? try ev.modelRoot(path.model) : (context.map { .entity($0) } ?? .null)
        for seg in segments.dropLast() { current = try ev.step(current, seg) }
        if keys.count > 1 { current = try ev.evaluateKeys(current, keys.dropLast()) }
        guard case .entity(let e) = current else { return nil }
        return (e, name)
    }

    /// The entity and stored field whose rules govern a write of `name` on `e`: the field itself, or — for a
    /// reference's `refKey` or `ref` — the field of the reference's owner that holds it.
    func ruleField(_ e: Entity, _ name: String) -> (Entity, FieldSpec)? {
        if e.type.isRef, name == "refKey" || name == "ref" {
            guard let owner = e.parent else { return nil }
            for spec in owner.type.fields {
                if let slot = owner.type.slot(of: spec.name), case .entity(let held) = owner.values[slot], held === e {
                    return (owner, spec)
                }
            }
            return nil
        }
        guard let spec = e.type.field(named: name) else { return nil }
        return (e, spec)
    }

    /// The value as the field would hold it: scalars coerced, a reference as its target's id (or nil); nil when
    /// it cannot be coerced.
    func ruleValue(_ value: Value, for spec: FieldSpec) -> Value? {
        if value.isNull { return .null }
        switch spec.type {
        case .string, .int, .double, .bool, .date:
            return try? Coercion.coerce(value, to: spec.type, field: spec.name)
        case .ref:
            if case .entity(let r) = value, r.type.isRef { return r.values[1] }
            return try? refKey(from: value, field: spec.name)
        default:
            return value
        }
    }
}
