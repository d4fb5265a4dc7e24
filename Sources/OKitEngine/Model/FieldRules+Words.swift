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
        if let maxLength, out.messages[.maxLength] == nil {
            let template = words.template(BuiltInWord.counted[0], count: Double(maxLength))
            out.messages[.maxLength] = BuiltInWords.fill(template, [label, String(maxLength)])
        }
        if pattern != nil { fill(.pattern, .notInFormat) }
        if validate != nil { fill(.validate, .notValid) }
        return out
    }

    /// A bound as the message shows it in `language`: `0.5` in English, `0,5` in German; digits grouped from five
    /// on (`100,000`, `100.000`), a four-digit bound as written (`2030`, a year, reads as one).
    static func text(_ d: Double, language: String) -> String {
        let plain = text(d)
        let locale = Locale(identifier: language)
        let separator = locale.decimalSeparator ?? "."
        let parts = plain.split(separator: ".", maxSplits: 1).map(String.init)
        var whole = parts[0]
        let digits = whole.filter(\.isNumber)
        if digits.count >= 5, digits.count == whole.count - (whole.hasPrefix("-") ? 1 : 0),
           let group = locale.groupingSeparator, !group.isEmpty {
            var grouped = ""
            for (i, c) in digits.enumerated() {
                if i > 0, (digits.count - i) % 3 == 0 { grouped += group }
                grouped.append(c)
            }
            whole = (whole.hasPrefix("-") ? "-" : "") + grouped
        }
        return parts.count == 2 ? whole + separator + parts[1] : whole
    }
}
