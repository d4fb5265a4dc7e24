import Foundation

/// Date and number formatters of one engine, cached by pattern, locale and time zone (DateFormatter and
/// NumberFormatter are expensive to create). Output is normalized to ASCII spaces so it is the same on every
/// machine (Foundation on Linux puts a narrow no-break space before AM/PM).
public final class FormatterCache {
    var dates: [String: DateFormatter] = [:]
    /// The formatters that read a person's date or time back, by locale and time zone (FormatterCache+DateReading).
    var dateReaders: [String: [DateFormatter]] = [:]
    private var numbers: [String: NumberFormatter] = [:]
    /// The locale's words for yesterday, today and tomorrow.
    private var relativeDays: [String: String] = [:]
    /// How each locale joins a day and a time (`FormatterCache.dateTimeJoin`).
    private var dateTimeJoins: [String: DateTimeJoin] = [:]
    /// The patterns `number/format` was given, read (a refused one is read again each time: it is an error).
    private var patterns: [String: NumberPattern] = [:]
    /// The decimal separator of each locale a printf conversion was formatted in.
    private var decimalSeparators: [String: String] = [:]
    /// Currency, decimal and percent formatters by style and locale (FormatterCache+Styles.swift).
    var styled: [StyledNumberKey: NumberFormatter] = [:]

    public init() {}

    /// Where a formatter's Gregorian calendar starts: never, so that it counts every date in the proleptic Gregorian
    /// calendar as ISO 8601, HTML and the model files do (Foundation's starts on 15 October 1582 and counts Julian
    /// days before: `1000-06-01` showed as May 26, and the date moved each time it was saved as shown).
    static let proleptic = Date.distantPast

    static func posix(_ locale: AppLocale) -> Locale {
        locale.language == "en" ? Locale(identifier: "en_US_POSIX") : Locale(identifier: locale.formatIdentifier)
    }

    /// A date formatted with an ICU pattern.
    public func date(_ d: Date, pattern: String, locale: AppLocale) -> String {
        let key = pattern + "|" + locale.formatIdentifier + "|" + locale.timeZone
        let f: DateFormatter
        if let cached = dates[key] { f = cached } else {
            f = DateFormatter()
            f.locale = FormatterCache.posix(locale)
            f.timeZone = TimeZone(identifier: locale.timeZone) ?? TimeZone(secondsFromGMT: 0)
            f.dateFormat = pattern
            f.gregorianStartDate = FormatterCache.proleptic
            dates[key] = f
        }
        return FormatterCache.normalize(f.string(from: d))
    }

    /// The locale's own word for the day `days` from today (-1, 0, 1): "Gestern", "Aujourd’hui", "Mañana" — CLDR's,
    /// capitalized as it starts a text, as iOS shows a relative date.
    public func relativeDay(_ days: Int, locale: AppLocale) -> String {
        let key = "relative\(days)|" + locale.formatIdentifier
        if let cached = relativeDays[key] { return cached }
        var style = Date.RelativeFormatStyle(presentation: .named, unitsStyle: .wide,
                                             locale: Locale(identifier: locale.formatIdentifier),
                                             calendar: Calendar(identifier: .gregorian), capitalizationContext: .beginningOfSentence)
        style.allowedFields = [.day]
        // Whole days from the moment of formatting: the word depends on `days` alone.
        let word = FormatterCache.normalize(Date().addingTimeInterval(Double(days) * 86_400).formatted(style))
        relativeDays[key] = word
        return word
    }

    /// `day` (a relative day's word, `今日`) and `time` joined as the locale joins a short date and a short time in
    /// `formatDateTime` (CLDR's date-time glue): `今日 9:00` in `ja`, `اليوم، ٩:٠٠ ص` in `ar`, `Heute, 09:00` in
    /// `de`. A locale whose glue cannot be told apart gets `, `.
    public func joined(day: String, time: String, locale: AppLocale) -> String {
        let key = locale.formatIdentifier
        let join: DateTimeJoin
        if let cached = dateTimeJoins[key] { join = cached } else {
            join = dateTimeJoin(locale)
            dateTimeJoins[key] = join
        }
        return join.timeFirst ? time + join.glue + day : day + join.glue + time
    }

    /// The text between a short date and a short time in the locale's own short date-time, found on one date
    /// formatted the three ways (the glue does not depend on the date).
    private func dateTimeJoin(_ locale: AppLocale) -> DateTimeJoin {
        let d = Date(timeIntervalSince1970: 1_556_704_800)
        let both = date(d, dateStyle: .short, timeStyle: .short, locale: locale)
        let day = date(d, dateStyle: .short, timeStyle: .none, locale: locale)
        let time = date(d, dateStyle: .none, timeStyle: .short, locale: locale)
        if both.count > day.count + time.count {
            if both.hasPrefix(day), both.hasSuffix(time) {
                return DateTimeJoin(glue: String(both.dropFirst(day.count).dropLast(time.count)), timeFirst: false)
            }
            if both.hasPrefix(time), both.hasSuffix(day) {
                return DateTimeJoin(glue: String(both.dropFirst(time.count).dropLast(day.count)), timeFirst: true)
            }
        }
        return DateTimeJoin(glue: ", ", timeFirst: false)
    }

    /// A date in one of the locale's styles (languages other than English).
    public func date(_ d: Date, dateStyle: DateFormatter.Style, timeStyle: DateFormatter.Style, locale: AppLocale) -> String {
        FormatterCache.normalize(styled(dateStyle, timeStyle, locale, reading: false).string(from: d))
    }

    /// The cached formatter of one of the locale's date styles; `reading`: strict, for reading a person's text.
    func styled(_ dateStyle: DateFormatter.Style, _ timeStyle: DateFormatter.Style, _ locale: AppLocale,
                        reading: Bool) -> DateFormatter {
        let key = (reading ? "read" : "style") + "\(dateStyle.rawValue)\(timeStyle.rawValue)|" + locale.formatIdentifier + "|" + locale.timeZone
        if let cached = dates[key] { return cached }
        let f = DateFormatter()
        f.locale = Locale(identifier: locale.formatIdentifier)
        f.timeZone = TimeZone(identifier: locale.timeZone) ?? TimeZone(secondsFromGMT: 0)
        f.dateStyle = dateStyle
        f.timeStyle = timeStyle
        if reading { f.isLenient = false }
        f.gregorianStartDate = FormatterCache.proleptic
        dates[key] = f
        return f
    }

    /// The decimal separator of `locale` (`,` in `de`).
    public func decimalSeparator(_ locale: AppLocale) -> String {
        if let cached = decimalSeparators[locale.formatIdentifier] { return cached }
        let separator = Locale(identifier: locale.formatIdentifier).decimalSeparator ?? "."
        decimalSeparators[locale.formatIdentifier] = separator
        return separator
    }

    /// A number formatted with a pattern of `number/format` (`NumberPattern`): an ICU decimal pattern (`#,##0.00`)
    /// or a printf conversion (`%08.3f`); a pattern that is neither is refused.
    public func number(_ n: Double, pattern: String, locale: AppLocale) throws(FormatArgumentError) -> String {
        switch try numberPattern(pattern) {
        case .printf(let spec):
            return spec.format(n, decimalSeparator: decimalSeparator(locale))
        case .icu:
            break
        }
        let key = pattern + "|" + locale.formatIdentifier
        let f: NumberFormatter
        if let cached = numbers[key] { f = cached } else {
            f = NumberFormatter()
            f.locale = Locale(identifier: locale.formatIdentifier)
            f.numberStyle = .decimal
            f.positiveFormat = pattern
            f.negativeFormat = "-" + pattern
            numbers[key] = f
        }
        return FormatterCache.normalize(f.string(from: NSNumber(value: n)) ?? Value.displayDouble(n))
    }

    /// What a pattern of `number/format` stands for, or why it is refused (read once per pattern).
    func numberPattern(_ pattern: String) throws(FormatArgumentError) -> NumberPattern {
        if let cached = patterns[pattern] { return cached }
        let parsed = try NumberPattern.parse(pattern)
        if patterns.count >= 256 { patterns.removeAll() }
        patterns[pattern] = parsed
        return parsed
    }

    /// Every Unicode space becomes an ASCII space.
    static func normalize(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value > 127 && $0.properties.isWhitespace }) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value > 127 && $0.properties.isWhitespace ? " " : $0 }))
    }
}

/// How a locale joins a date and a time: the text between them, and whether the time comes first.
struct DateTimeJoin {
    let glue: String
    let timeFirst: Bool
}
