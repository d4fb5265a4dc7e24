/// A field whose rule messages name it by the label okit derives from its Lua name in a language the app gives
/// strings in (`okit-run check`, cli.md): `categorie = { "ref Categorie", required = true }` in an app with French
/// strings but none for `categorie` says "Categorie est obligatoire" — no accent, not the cell's title.
public struct FieldLabelGap: Equatable, Sendable {
    public let entity: String
    public let field: String
    public let language: String
    /// The name the messages show (`Categorie`).
    public let shown: String
    /// One of the field's messages as a person reads it in the language (`Categorie est obligatoire`).
    public let example: String
}

extension Engine {
    /// For every field with a rule that shows okit's default message, no `label` and neither a string for its name
    /// nor for its derived label: one gap per language the app gives strings in (English aside, the keys'
    /// language; the app's own language, `okit.locale`'s, when it is written in Latin letters: its author named the
    /// fields in it, `anteile` → `Anteile` in an app in German; a language whose okit word is the derived label
    /// itself: `Name` in German, `Nome` in Italian, and a language whose script the label is written in:
    /// `Название` in Russian, `LanguageScript` — a Latin `code` in an app in Russian is still named), by declaration
    /// order.
    public func fieldLabelGaps() -> [FieldLabelGap] {
        let base = { (l: String) in (BuiltInWords.base(of: l) ?? l).lowercased() }
        let own = base(locale.language)
        let languages = strings.languages.filter { language in
            !BuiltInWords.isEnglish(language) && !(base(language) == own && LanguageScript.scripts(of: language) == nil)
        }
        guard !languages.isEmpty else { return [] }
        var out: [FieldLabelGap] = []
        for name in schema.order {
            guard let type = schema.type(named: name) else { continue }
            for spec in type.fields {
                guard let rules = spec.rules, rules.label == nil, let rule = rules.firstDefaultMessage(on: spec.type) else { continue }
                let shown = FieldRules.label(spec.name)
                // A derived label that is okit's own word of the language is that language's word (German `Name`),
                // and so is one written in the language's script (`название` → `Название` in Russian).
                for language in languages
                where strings.string(spec.name, language: language) == nil && strings.string(shown, language: language) == nil
                    && BuiltInWords.plainWord(shown, language: language) != shown
                    && !BuiltInWords.isOwnWord(shown, language: language)
                    && !LanguageScript.needsNoString(shown, in: language, appLanguage: locale.language) {
                    let words = BuiltInWords(language: language, strings: strings)
                    let example = rules.worded(words, label: shown).messages[rule] ?? shown
                    out.append(FieldLabelGap(entity: name, field: spec.name, language: language, shown: shown, example: example))
                }
            }
        }
        return out
    }
}

extension FieldRules {
    /// The first rule (in the order they are checked) that applies to a field of `type` and whose message is
    /// okit's, naming the field: nil when every such rule has a message of its own. A `validate` function's message
    /// is its own, so it is not counted; a rule on a type it does not apply to is `check`'s other finding.
    func firstDefaultMessage(on type: FieldType) -> FieldRule? {
        guard messages[.all] == nil else { return nil }
        let numeric = type == .int || type == .double
        let text = type == .string
        let set: [(FieldRule, Bool)] = [(.required, required && !type.isCollection), (.min, numeric && min != nil),
                                        (.max, numeric && max != nil), (.maxLength, text && maxLength != nil),
                                        (.pattern, text && pattern != nil)]
        return set.first { $0.1 && messages[$0.0] == nil }?.0
    }
}
