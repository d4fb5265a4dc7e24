import Foundation

/// Which of a word's two forms a count takes, as the app's language has it (CLDR's plural rules, singular and
/// plural only): French and Portuguese (Brazil) take the singular for 0 and 1 — any number whose whole part is 0
/// or 1, `0 tâche`, `1,5 tâche`, `2 tâches` (CLDR: `i = 0,1`) — and every other language for exactly 1, as OKit did
/// (`0 tasks`, `1 task`; German, Spanish, Italian, Portuguese of Portugal: CLDR `i = 1 and v = 0`).
extension AppLocale {
    /// Whether `n` takes the singular: `subTitleObject` after a `titleCount`, `suffixPlural`, `prefixPlural`.
    public func takesSingular(_ n: Double) -> Bool {
        AppLocale.zeroIsSingular(language: language, region: region) ? abs(n) < 2 : n == 1
    }

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
    /// Whether `n` takes the singular in the app's language (`AppLocale.takesSingular`); records the read, so a
    /// title follows a change of language.
    public func takesSingular(_ n: Double) -> Bool {
        graph.record(.locale)
        return locale.takesSingular(n)
    }
}
