import Foundation
import OKitEngine

/// `okit-run check`'s note on counts in a language with more forms than two (Russian, Polish, Czech, …): a plural
/// key a count shows (`suffixPlural(#book)`, `subTitleObject = "%book"`: `books`) given as one plain string says
/// "5 книги" where Russian says "5 книг". One line per key and language, at the string in its `okit.strings`.
extension LuaApp {
    /// The note lines for the counted keys `counted` (ScreenCheckReport.countedKeys).
    func pluralNoteLines(counted: [String], sources: inout [String: LuaDeclarationSource?]) -> [String] {
        var lines: [String] = []
        var noted = Set<String>()
        for language in engine.strings.languages {
            let extra = PluralCategory.extra(in: language)
            guard !extra.isEmpty else { continue }
            for key in counted where engine.strings.forms(of: key, language: language) == nil {
                guard let plain = engine.strings.string(key, language: language),
                      noted.insert((BuiltInWords.base(of: language) ?? language) + "\u{0}" + key).inserted else { continue }
                let (written, site) = stringKeySites[language]?[key] ?? stringsSites[language] ?? (language, nil)
                let at = position(ofValue: [[.name(key)]], function: "strings", id: written, site: site)
                    ?? stringsPosition(language, sources: &sources)
                lines.append("\(at): okit.strings(\"\(written)\"): " + LuaApp.pluralNote(key, plain, language: language, extra: extra))
            }
        }
        return lines
    }

    /// A plural key's forms of a category no count takes in the language (`few` in Turkish, which has one and
    /// other): never shown. One line per form, at it in its `okit.strings`.
    func unusedFormLines(sources: inout [String: LuaDeclarationSource?]) -> [String] {
        var lines: [String] = []
        for language in engine.strings.languages {
            let taken = Set([PluralCategory.one, .other] + PluralCategory.extra(in: language))
            for key in engine.strings.keysWithForms(tag: language) {
                let given = (engine.strings.forms(of: key, language: language) ?? [:]).keys.sorted()
                for category in given where !taken.contains(category) {
                    let (written, site) = stringKeySites[language]?[key] ?? stringsSites[language] ?? (language, nil)
                    let at = position(ofValue: [[.name(key), .name(category.rawValue)], [.name(key)]], function: "strings", id: written, site: site)
                        ?? stringsPosition(language, sources: &sources)
                    let name = LuaApp.languageName(BuiltInWords.base(of: language) ?? language)
                    let categories = taken.sorted().map(\.rawValue).joined(separator: ", ")
                    lines.append("\(at): okit.strings(\"\(written)\"): the \(category.rawValue) form of \"\(key)\" is never shown: no count "
                                 + "takes \(category.rawValue) in \(name), whose counts take \(categories); remove it")
                }
            }
        }
        return lines
    }

    /// `"books" is one form for every count but one: a page in Russian says "2 книги" and "5 книги" alike, but
    /// Russian counts take few (2–4, 22–24, …), many (0, 5–20, …) and other (1.5); write books = { few = "…",
    /// many = "…", other = "книги" }`.
    static func pluralNote(_ key: String, _ plain: String, language: String, extra: [PluralCategory]) -> String {
        let categories = extra + [.other]
        let described = categories.map { "\($0.rawValue) (\(examples(of: $0, in: language)))" }
        let list = described.dropLast().joined(separator: ", ") + " and " + described.last!
        let firsts = categories.compactMap { c in (2...220).first { PluralCategory.of(Double($0), language: language) == c } }.sorted()
        let said = firsts.prefix(2).map { "\"\($0) \(plain)\"" }.joined(separator: " and ")
        let name = languageName(BuiltInWords.base(of: language) ?? language)
        let forms = extra.map { "\($0.rawValue) = \"…\", " }.joined()
        return "\"\(key)\" is one form for every count but one: a page in \(name) says \(said) alike, but \(name) counts "
            + "take \(list); write \(LuaApp.luaKey(key)) = { \(forms)other = \"\(plain)\" } (docs/lua-api.md, Counts)"
    }

    /// The counts of `category` in `language` as runs (`2–4, 22–24, …`, `0, 5 and more`), or a fraction (`1.5`).
    static func examples(of category: PluralCategory, in language: String) -> String {
        let last = 220
        var runs: [ClosedRange<Int>] = []
        for n in 0...last where PluralCategory.of(Double(n), language: language) == category {
            if let r = runs.last, r.upperBound == n - 1 { runs[runs.count - 1] = r.lowerBound...n } else { runs.append(n...n) }
        }
        guard !runs.isEmpty else {
            let fraction = [1.5, 0.5, 2.5, 1.2].first { PluralCategory.of($0, language: language) == category } ?? 1.5
            return "\(fraction)"
        }
        let shown = runs.prefix(2).map { r in
            r.upperBound == last ? "\(r.lowerBound) and more" : r.count == 1 ? "\(r.lowerBound)" : "\(r.lowerBound)–\(r.upperBound)"
        }
        return shown.joined(separator: ", ") + (runs.count > 2 ? ", …" : "")
    }

    /// A key as a Lua table key is written: `books`, or `["%@ must be at most %@ characters"]`.
    static func luaKey(_ key: String) -> String {
        key.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) || key.first?.isNumber == true ? "[\"\(key)\"]" : key
    }
}
