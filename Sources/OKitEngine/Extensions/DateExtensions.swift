import Foundation

/// Date extensions: the formats of OKit's NSDate members, deterministic (bindings.md).
enum DateExtensions {
    enum Style { case date, fullDate, dateTime, time }

    static func format(_ d: Date, _ style: Style, relative: Bool, _ e: Engine) -> String {
        e.graph.record(.locale)
        let loc = e.locale
        let f = e.formatters
        // OKit's English patterns are the US's long and short styles; English of another region (`en_GB`, written
        // `language = "en", region = "GB"` or `en-GB`) gets its own styles, as iOS shows them (`3 May 2019`).
        let english = loc.language == "en" && (loc.region.isEmpty || loc.region == "US")
        func fixed(_ pattern: String, _ dateStyle: DateFormatter.Style, _ timeStyle: DateFormatter.Style) -> String {
            english ? f.date(d, pattern: pattern, locale: loc) : f.date(d, dateStyle: dateStyle, timeStyle: timeStyle, locale: loc)
        }
        let day: String? = relative ? relativeDay(d, e) : nil
        switch style {
        case .date: return day ?? fixed("MMMM d, y", .long, .none)
        case .fullDate: return day ?? fixed("EEEE, MMMM d, y", .full, .none)
        case .time: return fixed("h:mm a", .none, .short)
        case .dateTime:
            let time = fixed("h:mm a", .none, .short)
            // As iOS joins them: English `Today, 9:00 AM`, else as the language joins a date and a time.
            if let day { return english ? day + ", " + time : f.joined(day: day, time: time, locale: loc) }
            return fixed("M/d/yy, h:mm a", .short, .short)
        }
    }

    /// `Today`, `Yesterday` or `Tomorrow` when the date is on that day of the app clock in the app's time zone: the
    /// app's own string for the word when it gives one in its language, else the language's own word (`Heute`,
    /// `Aujourd’hui`), as iOS shows a relative date.
    static func relativeDay(_ d: Date, _ e: Engine) -> String? {
        e.graph.record(.clock)
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: e.locale.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? cal.timeZone
        let a = cal.startOfDay(for: d), b = cal.startOfDay(for: e.clock.now)
        guard let days = cal.dateComponents([.day], from: b, to: a).day else { return nil }
        let key: String
        switch days {
        case 0: key = "Today"
        case -1: key = "Yesterday"
        case 1: key = "Tomorrow"
        default: return nil
        }
        let language = e.locale.language
        if BuiltInWords.isEnglish(language) || e.strings.string(key, language: language) != nil {
            return e.localize(key)
        }
        e.graph.record(.locale)
        return e.formatters.relativeDay(days, locale: e.locale)
    }

    static func register(in r: ExtensionRegistry) {
        func date(_ v: Value) -> Date? { if case .date(let d) = v { return d }; return nil }
        let styles: [(String, Style, Bool)] = [
            ("formatDate", .date, false), ("formatRelativeDate", .date, true),
            ("formatFullDate", .fullDate, false), ("formatRelativeFullDate", .fullDate, true),
            ("formatDateTime", .dateTime, false), ("formatRelativeDateTime", .dateTime, true),
            ("formatTime", .time, false), ("formatRelativeTime", .time, true),
        ]
        for (name, style, relative) in styles {
            r.register("date", name) { v, _, e in date(v).map { .string(format($0, style, relative: relative, e)) } ?? .null }
        }
        r.register("date", "formatISO") { v, _, _ in date(v).map { .string(ISODate.format($0, fractional: false, zone: false)) } ?? .null }
        r.register("date", "formatInterval") { v, _, e in
            guard let d = date(v) else { return .null }
            e.graph.record(.clock)
            let elapsed = e.clock.now.timeIntervalSince(d)
            let total = Int(abs(elapsed).rounded(.down))
            let h = total / 3600, m = total / 60 % 60, s = total % 60
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return .string((elapsed < 0 && total > 0 ? "-" : "") + "\(two(h)):\(two(m)):\(two(s))")
        }
        r.register("date", "format") { v, a, e in
            guard let d = date(v) else { return .null }
            e.graph.record(.locale)
            let pattern = BuiltinExtensions.text(a, 0)
            try DatePattern.check(pattern)
            return .string(e.formatters.date(d, pattern: pattern, locale: e.locale))
        }
    }
}
