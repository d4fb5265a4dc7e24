import Foundation

/// Language, region and time zone of an app (default English, US, UTC: the same output on every machine).
public struct AppLocale: Equatable, Sendable {
    public var language: String
    public var region: String
    public var timeZone: String

    public init(language: String = "en", region: String = "US", timeZone: String = "UTC") {
        self.language = language
        self.region = region
        self.timeZone = timeZone
    }

    /// The time zone its dates are shown and typed in (UTC for an identifier Foundation does not know).
    public var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current }

    /// `en_US`.
    public var identifier: String { region.isEmpty ? language : "\(language)_\(region)" }

    /// The ICU locale that formats numbers, currencies, percentages and the date styles of other languages:
    /// `language_REGION`, except that the default region `US` goes with English only — `--lang de` formats as
    /// German (`900,00 €`, `01.05.19`), not as German in the US (`900.00 €`, `5/1/19`).
    public var formatIdentifier: String {
        region.isEmpty || (region == "US" && language != "en") ? language : identifier
    }
}

extension AppLocale {
    /// A language as a person may write it, read as okit keeps it: `de`, `DE` → `de`; `de-DE`, `de_de` → `de_DE`
    /// (language and region). nil for what is no ISO 639 language (`deutsch`, `german`): `languageAdvice` says
    /// what to write instead.
    public static func languageTag(_ text: String) -> String? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard (1...2).contains(parts.count), let language = parts.first?.lowercased(),
              Locale.isoLanguageCodes.contains(language) else { return nil }
        guard parts.count == 2 else { return language }
        let region = parts[1].uppercased()
        guard region.count == 2 || region.count == 3, region.allSatisfy(\.isLetter) || region.allSatisfy(\.isNumber) else { return nil }
        return language + "_" + region
    }

    /// Country codes people write for a language and are no ISO 639 code themselves, with the language meant.
    static let countryLanguages = ["jp": "ja", "cn": "zh", "gr": "el", "dk": "da", "cz": "cs", "ua": "uk", "il": "he",
                                   "us": "en", "gb": "en", "at": "de", "ir": "fa", "vn": "vi", "rs": "sr", "kz": "kk",
                                   "by": "be", "tw": "zh", "hk": "zh", "mx": "es"]

    /// Why `text` is no language and what to write: `"deutsch" is not a language code: write de (German)`, or
    /// the ISO 639 codes' form when no language is named so.
    public static func languageAdvice(_ text: String) -> String {
        let named = text.lowercased()
        let english = Locale(identifier: "en")
        // An ISO 639-2 code (`tur`, `deu`, `ger`): its two-letter code.
        if let two = twoLetterCode(named) {
            return "\"\(text)\" is an ISO 639-2 code: write \(two) (\(english.localizedString(forLanguageCode: two) ?? two))"
        }
        let match = Locale.isoLanguageCodes.first { code in
            guard code.count == 2 else { return false }
            let names = [english.localizedString(forLanguageCode: code), Locale(identifier: code).localizedString(forLanguageCode: code)]
            return names.contains { $0?.lowercased() == named }
        }
        if let match {
            return "\"\(text)\" is not a language code: write \(match) (\(english.localizedString(forLanguageCode: match) ?? match))"
        }
        // A country's code written for its language (`jp` for Japanese): what is spoken there.
        if let language = countryLanguages[named], let country = english.localizedString(forRegionCode: named.uppercased()) {
            return "\"\(text)\" is a country (\(country)), not a language code: write \(language) (\(english.localizedString(forLanguageCode: language) ?? language))"
        }
        return "\"\(text)\" is not a language code: write an ISO 639 code such as de, en or fr (a region after it: de-AT)"
    }
}
