import Foundation

/// Region codes as `okit.locale { region }` takes them, and the ISO 639-2 language codes people write for the
/// ISO 639-1 ones okit reads (`tur` for `tr`).
extension AppLocale {
    /// A region as written, read as okit keeps it: an ISO 3166 code (`TR`, `tr` → `TR`) or a UN M.49 area
    /// (`419`); nil for anything else (`XX`, `Türkiye`, `turkey`): `regionAdvice` says what to write.
    public static func regionCode(_ text: String) -> String? {
        let code = text.uppercased()
        guard code.count == 2 ? code.allSatisfy({ $0.isASCII && $0.isLetter }) : code.count == 3 && code.allSatisfy(\.isASCII)
        else { return nil }
        return Locale.isoRegionCodes.contains(code) ? code : nil
    }

    /// Names people write for a country that are not its name in English today, with its code.
    static let regionAliases = ["turkey": "TR", "usa": "US", "america": "US", "uk": "GB", "england": "GB",
                                "britain": "GB", "great britain": "GB", "holland": "NL", "czech republic": "CZ",
                                "burma": "MM", "ivory coast": "CI", "swaziland": "SZ", "macedonia": "MK"]

    /// Why `text` is no region and what to write: `"turkey" is not a region code: write TR (Türkiye)` when it
    /// names a country (in English, in `language`, or as people often call it), else the codes' form.
    public static func regionAdvice(_ text: String, language: String = "en") -> String {
        let english = Locale(identifier: "en")
        let named = foldedName(text)
        let locales = [english, Locale(identifier: language)]
        let match = regionAliases[named] ?? Locale.isoRegionCodes.first { code in
            code.count == 2 && locales.contains { $0.localizedString(forRegionCode: code).map(foldedName) == named }
        }
        if let match {
            return "\"\(text)\" is not a region code: write \(match) (\(english.localizedString(forRegionCode: match) ?? match))"
        }
        return "\"\(text)\" is not a region code: write an ISO 3166 code such as DE, TR or US"
    }

    private static func foldedName(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespaces).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// ISO 639-2's bibliographic codes, which differ from its terminology codes (`ger` and `deu` for German).
    static let bibliographicCodes = ["ger": "de", "fre": "fr", "chi": "zh", "dut": "nl", "gre": "el", "cze": "cs",
                                     "per": "fa", "rum": "ro", "slo": "sk", "alb": "sq", "arm": "hy", "baq": "eu",
                                     "bur": "my", "geo": "ka", "ice": "is", "mac": "mk", "mao": "mi", "may": "ms",
                                     "tib": "bo", "wel": "cy"]

    /// The ISO 639-1 code of an ISO 639-2 code (`tur`, `deu`, `ger` → `tr`, `de`, `de`); nil for any other text.
    static func twoLetterCode(_ text: String) -> String? {
        let code = text.lowercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        if let b = bibliographicCodes[code] { return b }
        guard let two = Locale(identifier: code).language.languageCode?.identifier, two.count == 2,
              Locale.isoLanguageCodes.contains(two) else { return nil }
        return two
    }
}
