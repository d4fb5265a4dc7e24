import Foundation

/// Which form of a word a count takes, as the app's language has it (CLDR's plural categories, `PluralCategory`):
/// French and Portuguese (Brazil) take the singular for 0 and 1 — any number whose whole part is 0 or 1, `0 tâche`,
/// `1,5 tâche`, `2 tâches` (CLDR: `i = 0,1`) — English, German, Spanish, Italian, Portuguese of Portugal and the
/// languages CLDR gives two forms for exactly 1, as OKit did (`0 tasks`, `1 task`); Russian, Polish, Czech, … have
/// `few` and `many` forms too (`21 книга`, `22 книги`, `25 книг`), which the app gives in its strings.
extension AppLocale {
    /// The category of `n`: `subTitleObject` after a `titleCount`, `suffixPlural`, `prefixPlural`.
    public func pluralCategory(_ n: Double) -> PluralCategory {
        PluralCategory.of(n, language: language, region: region)
    }

    /// Whether `n` takes the singular (its category is `one`).
    public func takesSingular(_ n: Double) -> Bool { pluralCategory(n) == .one }

    /// French (`fr`, any region) and Portuguese other than Portugal's (`pt`, `pt_BR`; `pt_PT` as English).
    static func zeroIsSingular(language: String, region: String) -> Bool {
        let base = (BuiltInWords.base(of: language) ?? language).lowercased()
        let ownRegion = BuiltInWords.base(of: language).map { String(language.dropFirst($0.count + 1)) } ?? region
        switch base {
        case "fr": return true
        case "pt": return ownRegion.uppercased() != "PT"
        default: return false
        }
    }
}

extension Engine {
    /// The category of `n` in the language whose words the app shows: the app's language, or English's rules when
    /// the app has strings but none in that language (it shows its English ones: `21 Entries` under `--lang ru`,
    /// not `21 Entry`). Records the read, so a title follows a change of language.
    public func pluralCategory(_ n: Double) -> PluralCategory {
        graph.record(.locale)
        let l = locale
        if !strings.hasStrings(in: l.language), strings.hasStrings(in: "en") {
            return PluralCategory.of(n, language: "en")
        }
        return l.pluralCategory(n)
    }

    /// Whether `n` takes the singular (`pluralCategory` is `one`).
    public func takesSingular(_ n: Double) -> Bool { pluralCategory(n) == .one }

    /// The app's form of plural key `key` for `category` (`StringsTable.form`): nil when the key's string is a
    /// plain one, or for `one` when its forms do not give `one` (the singular key's string is the form then).
    public func pluralForm(_ key: String, _ category: PluralCategory) -> String? {
        graph.record(.locale)
        return strings.form(of: key, category, language: locale.language)
    }

    /// The word after (or before) a count `n`: for `one` the singular key's string, for any other count the
    /// plural key's form of its category, else its string (`suffixPlural(#book)`: `book`, `books`).
    public func countedWord(_ n: Double, singular: String, plural: String) -> String {
        let category = pluralCategory(n)
        if let form = pluralForm(plural, category) { return form }
        return localize(category == .one ? singular : plural)
    }
}
