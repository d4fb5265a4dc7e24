/// Edit cells on text fields, as Action Data binds them (reference/action-data-binding.txt, "Option Selection
/// Controls" and "Boolean Controls"): a picker over `optionValues` stores the chosen text, a segment with `byTitle`
/// stores its title, and a switch on a text reads and writes the words people use for on and off.
extension DetailScreen {
    /// A text picker's options (`optionValues`): each with the text it stores and the title it shows. Plain texts
    /// (`"Dog,Cat,Bird"`) are stored as written and shown localized; a binding's parts (`"#Dog,#Cat"`,
    /// `"%Dog,%Cat"`) are stored as they show, as `segmentsPath`'s titles are.
    func textOptions(_ c: CellDeclaration, on ctx: Entity?) throws -> [(value: String, title: String)] {
        if let plain = c.plainOptionValues { return plain.map { ($0, engine.localize($0)) } }
        guard !c["optionValues"].isEmpty else { return [] }
        return try engine.getAll(ctx, c["optionValues"], mode: .display).map {
            let text = $0.displayString ?? ""
            return (text, text)
        }
    }

    /// The 1-based position of the text picker option a field's text is, or nil.
    static func textOptionPosition(of v: Value, in options: [(value: String, title: String)]) -> Int? {
        guard let text = v.displayString else { return nil }
        return options.firstIndex { $0.value == text }.map { $0 + 1 }
    }

    /// The text picker option a command names: its shown title, its stored text (else the one title that matches
    /// case and accents aside), or its 1-based position.
    func textOption(_ c: CellDeclaration, on ctx: Entity?, for value: Value, cell label: String) throws -> String {
        let all = try textOptions(c, on: ctx)
        if case .string(let s) = value {
            if let o = all.first(where: { $0.title == s }) ?? all.first(where: { $0.value == s }) { return o.value }
            if let i = Self.looseMatch(s, all.map(\.title)) { return all[i].value }
        }
        if !value.isBool, let n = value.intValue, value.doubleValue == Double(n), n >= 1, n <= all.count { return all[n - 1].value }
        throw noChoice(.noTextOptionNamed, cell: label, value: value, choices: all.map(\.title), numbered: true)
    }

    /// Whether a segment cell is selected by title (`byTitle`, default false): its field holds the title.
    func segmentsByTitle(_ c: CellDeclaration, on ctx: Entity?) throws -> Bool {
        c["byTitle"].isEmpty ? false : try flag(c["byTitle"], on: ctx, default: false)
    }

    /// The words a switch on a text field reads as on (any case); any other text is off.
    static let switchOnWords: Set<String> = ["true", "yes", "1", "on"]

    /// A switch's state from its field: a text is on when it is one of `switchOnWords`; other values as flags.
    static func switchIsOn(_ v: Value) -> Bool {
        if case .string(let s) = v { return switchOnWords.contains(s.trimmingCharacters(in: .whitespaces).lowercased()) }
        return v.truthy
    }

    /// The text a switch writes into a text field: the field's own words when it holds one of a pair (`yes`/`no`,
    /// `1`/`0`, `on`/`off`, in its case), else `true`/`false` (Action Data's words for a Bool as text).
    static func switchText(_ on: Bool, current: String) -> String {
        let pairs = [("yes", "no"), ("1", "0"), ("on", "off"), ("true", "false")]
        let word = current.trimmingCharacters(in: .whitespaces)
        guard let pair = pairs.first(where: { word.lowercased() == $0.0 || word.lowercased() == $0.1 }) else {
            return on ? "true" : "false"
        }
        let chosen = on ? pair.0 : pair.1
        if word == word.uppercased(), word != word.lowercased() { return chosen.uppercased() }
        if let first = word.first, first.isUppercase { return chosen.prefix(1).uppercased() + chosen.dropFirst() }
        return chosen
    }

    /// The value a switch writes: a bool, or into a text field (one holding a text, or declared `string`) the
    /// text `switchText` chooses.
    func switchValue(_ on: Bool, _ c: CellDeclaration, on ctx: Entity?) throws -> Value {
        let current = try engine.get(ctx, c.valuePath)
        if case .string(let text) = current { return .string(DetailScreen.switchText(on, current: text)) }
        guard current.isNull, let (e, name) = try engine.writeTarget(ctx, binding: c.valuePath, mode: .query),
              e.type.field(named: name)?.type == .string else { return .bool(on) }
        return .string(on ? "true" : "false")
    }
}
