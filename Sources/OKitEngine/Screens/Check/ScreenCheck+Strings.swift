import Foundation

/// `%key`s without a string in a language the app gives strings in (docs/cli.md "check"). A key the app's German
/// table lacks is shown as the key itself on a German page — "Notes" among "Titel" and "Datum" — and nothing said
/// so: the person found it, not the author. English is the keys' own language (`%Books` shows "Books" without a
/// string), so only the other languages' tables are held to every key.
extension ScreenCheckRun {
    /// The problems of a binding's `%key`s: one per key that some language's table lacks, naming those languages.
    func checkStrings(_ screen: String, _ property: String, _ text: String, sites: [[DeclarationKey]]) {
        guard checksStrings, text.contains("%"), let binding = try? BindingParser.parse(text) else { return }
        let languages = engine.strings.languages.filter { !BuiltInWords.isEnglish($0) }
        guard !languages.isEmpty else { return }
        var seen = Set<String>()
        // A key that starts with `%` was written `%%…`: a printf pattern in an expression, shown as it is.
        for key in LocalizedKeys.of(binding) where !key.isEmpty && !key.hasPrefix("%") && seen.insert(key).inserted {
            let missing = languages.filter { engine.strings.string(key, language: $0) == nil }
            guard let first = missing.first else { continue }
            let column = text.range(of: "%" + key).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 } ?? 1
            let names = missing.map { "\"\($0)\"" }.joined(separator: ", ")
            let message = "\"%\(key)\" has no string in \(names): a page in \(ScreenCheckRun.languageName(first)) shows "
                + "\"\(key)\"; add [\"\(key)\"] = \"…\" to okit.strings(\"\(first)\", …) (the same word too, if it is one)"
            issues.append(ScreenIssue(screen: screen, property: property, column: column, message: message, sites: sites))
        }
    }

    /// The language's English name (`German` for `de`), else its code.
    static func languageName(_ language: String) -> String {
        Locale(identifier: "en").localizedString(forLanguageCode: BuiltInWords.base(of: language) ?? language) ?? language
    }
}

/// The `%key`s a binding shows: its localized parts and the localized strings of its expressions, in order.
enum LocalizedKeys {
    static func of(_ binding: Binding) -> [String] {
        var keys: [String] = []
        for part in binding.parts {
            switch part {
            case .localized(let key): keys.append(key)
            case .expression(let e, _): collect(e, into: &keys)
            case .constant, .path: continue
            }
        }
        return keys
    }

    private static func collect(_ e: Expression, into keys: inout [String]) {
        switch e {
        case .localized(let key): keys.append(key)
        case .literal, .path: return
        case .negate(let x), .not(let x): collect(x, into: &keys)
        case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b):
            collect(a, into: &keys)
            collect(b, into: &keys)
        case .ternary(let a, let b, let c), .between(let a, let b, let c):
            for x in [a, b, c] { collect(x, into: &keys) }
        case .inList(let x, let list):
            collect(x, into: &keys)
            for y in list { collect(y, into: &keys) }
        case .call(_, let args, _):
            for a in args { collect(a, into: &keys) }
        }
    }
}
