import Foundation

/// Texts a page shows localized that a language the app gives strings in has no string for (docs/cli.md
/// "check"). A key the app's German table lacks is shown as the key itself on a German page — "Notes" among
/// "Titel" and "Datum" — and nothing said so: the person found it, not the author. English is the keys' own
/// language (`%Books` shows "Books" without a string), so only the other languages' tables are held to every key.
/// Besides `%key`s: the keys the localizing extensions look up (`suffixPlural(#copy)`: `copy`, `copys`), plain
/// texts shown localized (a picker's `optionValues = "Novel,Poetry"`, plain `searchFilters`).
extension ScreenCheckRun {
    /// The problems of a binding's `%key`s and of the keys its extensions look up: one per key that some
    /// language's table lacks, naming those languages.
    func checkStrings(_ screen: String, _ property: String, _ text: String, sites: [[DeclarationKey]]) {
        guard thorough, let binding = try? BindingParser.parse(text) else { return }
        recordCountedKeys(property, binding)
        var seen = Set<String>()
        // A key that starts with `%` was written `%%…`: a printf pattern in an expression, shown as it is.
        for key in LocalizedKeys.of(binding) where !key.isEmpty && !key.hasPrefix("%") && seen.insert(key).inserted {
            let column = text.range(of: "%" + key).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 } ?? 1
            missingString(key, named: "%" + key, shows: key, screen, property, column: column, sites: sites)
            checkWordCollision(key, screen, property, column: column, sites: sites)
        }
        for used in LocalizedKeys.extensionKeys(of: binding) where seen.insert(used.key).inserted {
            let written = text.range(of: "#" + used.argument) ?? text.range(of: "'" + used.argument)
            let column = written.map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 } ?? 1
            let counted = LocalizedKeys.localizing[used.call] == true
            let count = !counted ? "" : used.plural ? " for many" : " for one"
            let shows = !counted ? used.key : used.plural ? "2 \(used.key)" : "1 \(used.key)"
            missingString(used.key, named: used.key, what: " (the word \(used.call)(#\(used.argument)) looks up\(count))",
                          shows: shows, screen, property, column: column, sites: sites)
        }
    }

    /// The plural keys a count looks up in `binding`: `suffixPlural(#book)`'s and `prefixPlural`'s `books`, a
    /// `subTitleObjectPlural`'s `%key`, a `subTitleObject`'s `%key` + "s" (which a given plural replaces: a key
    /// the strings lack is never noted).
    func recordCountedKeys(_ property: String, _ binding: Binding) {
        for used in LocalizedKeys.extensionKeys(of: binding) where used.plural { countedKeys.insert(used.key) }
        let property = property.split(separator: ".").last.map(String.init) ?? property
        guard property == "subTitleObject" || property == "subTitleObjectPlural", binding.parts.count == 1,
              case .localized(let key) = binding.parts[0] else { return }
        countedKeys.insert(property == "subTitleObject" ? key + "s" : key)
    }

    /// The problems of plain texts a page shows localized (`optionValues = "Novel,Poetry"`): one per text some
    /// language's table lacks, at the text.
    func checkPlainTexts(_ screen: String, _ property: String, _ text: String, _ parts: [String], sites: [[DeclarationKey]]) {
        guard thorough else { return }
        var from = text.startIndex
        for part in parts where !part.isEmpty {
            guard let r = text.range(of: part, range: from..<text.endIndex) else { continue }
            from = r.upperBound
            let column = text.distance(from: text.startIndex, to: r.lowerBound) + 1
            missingString(part, named: part, what: " (a plain \(property.split(separator: ".").last ?? "") text, shown localized)",
                          shows: part, screen, property, column: column, sites: sites)
        }
    }

    /// One problem when `key` has no string in some language the app gives strings in (English aside, and a
    /// language whose script the key is written in: `LanguageScript`): `named` as the binding writes it, `what` it
    /// is, what the page `shows` instead.
    func missingString(_ key: String, named: String, what: String = "", shows: String, _ screen: String,
                       _ property: String, column: Int, sites: [[DeclarationKey]]) {
        let languages = engine.strings.languages.filter { !BuiltInWords.isEnglish($0) }
        // A key that is one of okit's own words (`%Cancel`) shows okit's word in a language okit has words for; a key
        // already written in the language's script (`%Полка` in Russian) is its own text there.
        let missing = languages.filter {
            engine.strings.string(key, language: $0) == nil && BuiltInWords.plainWord(key, language: $0) == nil
                && !LanguageScript.needsNoString(key, in: $0, appLanguage: engine.locale.language)
        }
        guard let first = missing.first else { return }
        let names = missing.map { "\"\($0)\"" }.joined(separator: ", ")
        let message = "\"\(named)\"\(what) has no string in \(names): a page in \(ScreenCheckRun.languageName(first)) shows "
            + "\"\(shows)\"; add [\"\(key)\"] = \"…\" to okit.strings(\"\(first)\", …) (the same word too, if it is one)"
        issues.append(ScreenIssue(screen: screen, property: property, column: column, message: message, sites: sites))
    }

    /// The language's English name (`German` for `de`), else its code.
    public static func languageName(_ language: String) -> String {
        Locale(identifier: "en").localizedString(forLanguageCode: BuiltInWords.base(of: language) ?? language) ?? language
    }
}
