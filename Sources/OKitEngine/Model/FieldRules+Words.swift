import Foundation

extension FieldRules {
    /// The rules with their default messages in `words`' language: each rule without a message of its own
    /// (and no `message` for all of them) gets the built-in word (`%@ is required`, …) with the field's label,
    /// `label` being already localized. A rule's own message still wins, as `message(for:of:on:)` says.
    func worded(_ words: BuiltInWords, label: String) -> FieldRules {
        guard messages[.all] == nil else { return self }
        var out = self
        func fill(_ rule: FieldRule, _ word: BuiltInWord, _ arguments: String...) {
            if out.messages[rule] == nil { out.messages[rule] = BuiltInWords.fill(words.template(word), [label] + arguments) }
        }
        if required { fill(.required, .isRequired) }
        if let min { fill(.min, .atLeast, FieldRules.text(min, language: words.language)) }
        if let max { fill(.max, .atMost, FieldRules.text(max, language: words.language)) }
        if let maxLength { fill(.maxLength, maxLength == 1 ? .atMostCharacter : .atMostCharacters, String(maxLength)) }
        if pattern != nil { fill(.pattern, .notInFormat) }
        if validate != nil { fill(.validate, .notValid) }
        return out
    }

    /// A bound as the message shows it in `language`: `0.5` in English, `0,5` in German (no digit grouping, as
    /// the rule is written).
    static func text(_ d: Double, language: String) -> String {
        let plain = text(d)
        guard plain.contains("."), let separator = Locale(identifier: language).decimalSeparator, separator != "." else {
            return plain
        }
        return plain.replacingOccurrences(of: ".", with: separator)
    }
}
