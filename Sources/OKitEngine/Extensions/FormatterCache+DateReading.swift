import Foundation

/// Reading back the dates okit shows (screens.md "Cells", `date`): a date cell takes exactly the text it shows —
/// `formatDate`, `formatFullDate`, `formatDateTime` and `formatTime` in the app's language (English's fixed
/// patterns, another language's long, full and short styles) — and the short and medium dates people type, each
/// alone or with a short time. Spaces of any kind are one: okit shows ASCII spaces where ICU writes no-break ones.
extension FormatterCache {
    /// The date styles read back, alone and with a short time, in this order.
    static let readDateStyles: [DateFormatter.Style] = [.medium, .short, .long, .full]
    /// English's fixed patterns (DateExtensions): `formatDate`, `formatFullDate`, `formatDateTime`.
    static let englishDatePatterns = ["MMMM d, y", "EEEE, MMMM d, y", "M/d/yy, h:mm a"]

    /// A date as the locale writes or okit shows it (`03.05.2019`, `3. Mai 2019`, `Freitag, 3. Mai 2019`,
    /// `03.05.19, 14:30` in `de`; `3 de mayo de 2019` in `es`; `May 3, 2019`, `5/3/19, 2:30 PM` in `en`), read
    /// strictly (the whole text); nil when it is none of them.
    public func parseDate(_ text: String, locale: AppLocale) -> Date? {
        let trimmed = FormatterCache.normalize(text).trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        for text in FormatterCache.casings(trimmed, locale) {
            for f in readers(locale, time: false) {
                if let d = f.date(from: text) { return d }
            }
        }
        return nil
    }

    /// A typed date as it is read: as typed, then (in Turkish and Azerbaijani, whose I and İ ICU's case-blind
    /// reading does not pair with ı and i) lower-cased in the language — `28 KASIM 2026` is `28 kasım 2026` —
    /// and with each `I` read as `İ` (`EKIM` as `ekim`, typed without the Turkish letter).
    static func casings(_ text: String, _ locale: AppLocale) -> [String] {
        guard LanguageCase.locale(locale.language) != nil, text.contains(where: { $0 == "I" || $0 == "İ" }) else { return [text] }
        let lowered = LanguageCase.lower(text, language: locale.language)
        let dotted = LanguageCase.lower(text.replacingOccurrences(of: "I", with: "İ"), language: locale.language)
        return [text, lowered, dotted]
    }

    /// A time of day alone as `formatTime` shows it (`2:30 PM` in `en`, `14:30` in `de`): its hour and minute in
    /// the app's time zone, or nil.
    public func parseTime(_ text: String, locale: AppLocale) -> DateComponents? {
        let trimmed = FormatterCache.normalize(text).trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        for f in readers(locale, time: true) {
            guard let d = f.date(from: trimmed) else { continue }
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = f.timeZone
            return cal.dateComponents([.hour, .minute], from: d)
        }
        return nil
    }

    /// The strict formatters of `locale` for dates (with or without a time) or for a time alone.
    private func readers(_ locale: AppLocale, time: Bool) -> [DateFormatter] {
        let key = (time ? "time|" : "date|") + locale.formatIdentifier + "|" + locale.timeZone
        if let cached = dateReaders[key] { return cached }
        var patterns: [String] = []
        if time {
            patterns.append(styled(.none, .short, locale, reading: true).dateFormat)
        } else {
            for timeStyle in [DateFormatter.Style.none, .short] {
                for dateStyle in FormatterCache.readDateStyles {
                    patterns.append(styled(dateStyle, timeStyle, locale, reading: true).dateFormat)
                }
            }
            // A date and time typed without the comma ICU joins them with (`03/05/2019 14:30` for `03/05/2019, 14:30`).
            for dateStyle in FormatterCache.readDateStyles {
                let joined = styled(dateStyle, .short, locale, reading: true).dateFormat ?? ""
                if let comma = joined.range(of: ", ", options: .backwards) {
                    patterns.append(joined.replacingCharacters(in: comma, with: " "))
                }
            }
        }
        var out = patterns.map { reader(FormatterCache.normalize($0), Locale(identifier: locale.formatIdentifier), locale) }
        if locale.language == "en" {
            let english = time ? ["h:mm a"] : FormatterCache.englishDatePatterns
            out += english.map { reader($0, FormatterCache.posix(locale), locale) }
        }
        dateReaders[key] = out
        return out
    }

    /// A strict formatter of `pattern` whose words (AM and PM: `a. m.` in `es`) have ASCII spaces, as okit shows them.
    private func reader(_ pattern: String, _ language: Locale, _ locale: AppLocale) -> DateFormatter {
        let f = DateFormatter()
        f.locale = language
        f.timeZone = TimeZone(identifier: locale.timeZone) ?? TimeZone(secondsFromGMT: 0)
        f.dateFormat = pattern
        f.isLenient = false
        f.gregorianStartDate = FormatterCache.proleptic
        f.amSymbol = FormatterCache.normalize(f.amSymbol)
        f.pmSymbol = FormatterCache.normalize(f.pmSymbol)
        return f
    }
}
