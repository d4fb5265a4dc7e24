import Foundation
import OKitEngine

/// `okit-run check` of okit's own words (docs/built-in-words.md): an app that gives strings in a language okit
/// has no table for (Dutch, Swedish, …) shows okit's words it does not translate itself — Edit, Cancel, "Confirm
/// Deletion" — in English among its own. Said once per such language, at its first `okit.strings` call.
extension LuaApp {
    /// How many of the words missing a line names before `…`.
    static let builtInWordsNamed = 5

    /// The check lines: one per language the app gives strings in that okit has no table for and whose strings
    /// lack some of okit's words.
    func builtInWordLines(sources: inout [String: LuaDeclarationSource?]) -> [String] {
        var lines: [String] = []
        for language in engine.strings.languages where !BuiltInWords.isEnglish(language) && !BuiltInWords.hasTable(for: language) {
            let missing = BuiltInWord.allCases.filter { engine.strings.string($0.rawValue, language: language) == nil }
            guard let first = missing.first else { continue }
            let written = stringsSites[language]?.written ?? language
            let named = missing.prefix(LuaApp.builtInWordsNamed).map(\.rawValue).joined(separator: ", ")
                + (missing.count > LuaApp.builtInWordsNamed ? ", …" : "")
            let name = LuaApp.languageName(language)
            let message = "okit has no \(name) words of its own, and \(missing.count) of its \(BuiltInWord.allCases.count) "
                + "words have no string here, so a page in \(name) shows them in English (\(named)); add them to "
                + "okit.strings(\"\(written)\", …) with the English text as the key, like [\"\(first.rawValue)\"] = \"…\" "
                + "(docs/built-in-words.md lists every key)"
            lines.append("\(stringsPosition(language, sources: &sources)): okit.strings(\"\(written)\"): \(message)")
        }
        return lines
    }

    /// The language's English name (`Dutch` for `nl`, `Dutch (Belgium)` for `nl_BE`), else its code.
    static func languageName(_ language: String) -> String {
        Locale(identifier: "en").localizedString(forIdentifier: language) ?? language
    }

    /// `FILE:LINE:COL` of the language of the first `okit.strings` call for `language`.
    func stringsPosition(_ language: String, sources: inout [String: LuaDeclarationSource?]) -> String {
        let fallback = (appFile?.lastPathComponent ?? "app") + ":1:1"
        guard let (written, site) = stringsSites[language], let site, let colon = site.lastIndex(of: ":"),
              let line = Int(site[site.index(after: colon)...]) else { return fallback }
        let chunk = String(site[..<colon])
        if sources[chunk] == nil { sources[chunk] = declarationSource(chunk) }
        guard let id = (sources[chunk] ?? nil)?.call("strings", id: written, line: line)?.id else { return "\(chunk):\(line):1" }
        return "\(chunk):\(id.line):\(id.column + 1)"
    }
}
