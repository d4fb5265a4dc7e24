import Foundation

/// The script a language is written in, for `okit-run check` (cli.md "Checking an app"): a `%key` or a field's
/// derived label already written in the script of a language that is not written in Latin letters — `%Полка`,
/// `["название"]` → "Название" for Russian, `%Βιβλία` for Greek — is that language's text, and needs no string in it.
/// A Latin-script language has no such exemption: `%Notes` may be English or German, so German still asks for it.
public enum LanguageScript {
    /// The Unicode scripts (ISO 15924) of `language`'s letters, from its likely script (`ru` → Cyrl, `ja` → Jpan:
    /// Han, Hiragana and Katakana); nil for a language written in Latin letters or one Foundation does not know.
    static func scripts(of language: String) -> [String]? {
        guard let script = Locale.Language(identifier: language).script?.identifier, script != "Latn" else { return nil }
        switch script {
        case "Jpan": return ["Hani", "Hira", "Kana"]
        case "Kore": return ["Hang", "Hani"]
        case "Hans", "Hant": return ["Hani"]
        default: return [script]
        }
    }

    /// Whether `text` has a letter and every letter is in a script of `language` (not Latin): `Полка` in `ru` and
    /// `uk`, `Полка 2` too; not `Polka`, nor `Полка Plus`.
    public static func isWritten(_ text: String, in language: String) -> Bool {
        guard let scripts = scripts(of: language), text.unicodeScalars.contains(where: { $0.properties.isAlphabetic }),
              scripts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isLetter } }) else { return false }
        let letters = scripts.map { "\\p{sc=\($0)}" }.joined()
        guard let regex = try? Regex("[\(letters)\\P{L}]*") else { return false }
        return text.wholeMatch(of: regex) != nil
    }

    /// Whether `text` is already `language`'s own text (`isWritten`) and so needs no string in it: written in its
    /// script, when the app's language (`okit.locale`) is that language or is not written in that script — an app
    /// in Russian with Ukrainian strings is held to a Ukrainian string of `%Полка`, which is Russian.
    public static func needsNoString(_ text: String, in language: String, appLanguage: String) -> Bool {
        guard isWritten(text, in: language) else { return false }
        let base = { (l: String) in (BuiltInWords.base(of: l) ?? l).lowercased() }
        return base(language) == base(appLanguage) || !isWritten(text, in: appLanguage)
    }
}
