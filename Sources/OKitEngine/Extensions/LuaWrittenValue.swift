import Foundation

/// How Lua code writes a value that a number, date or bool field refused as a text — a German author's
/// `"12,50"`, `"03.12.2026"` or `"ja"`: the Lua the text meant (`12.5`, `"2026-12-03"`, `true`) when it reads as
/// one, else the form the field takes. One wording for a field's `default` (`Schema`) and for a write from Lua
/// (`okit.new`, `e.beitrag = …`; lua-api.md "Entity objects").
public enum LuaWrittenValue {
    /// `; write the number as Lua writes it, without quotes: beitrag = 12.5` (`name`: the field, or `default`);
    /// "" when the field is no number, date or bool, or the value no text. `locale` reads a date as the app's
    /// language writes it (`03.12.2026` in German; not English's, month first); without one, only numbers and
    /// yes/no words are read.
    public static func advice(for value: Value, type: FieldType, name: String, locale: AppLocale? = nil,
                              formatters: FormatterCache? = nil) -> String {
        guard case .string(let text) = value else { return "" }
        switch type {
        case .int, .double:
            if let n = number(text), n.isFinite {
                return "; write the number as Lua writes it, without quotes: \(name) = \(Value.displayDouble(n))"
            }
            return "; a number field's \(name == "default" ? "default" : "value") is a Lua number, without quotes (\(name) = 0)"
        case .bool:
            let word = text.trimmingCharacters(in: .whitespaces).lowercased()
            let meant = yesWords.contains(word) ? "true" : noWords.contains(word) ? "false" : nil
            if let meant { return "; a bool field takes true or false, without quotes: \(name) = \(meant)" }
            return "; a bool field takes true or false, without quotes (\(name) = true)"
        case .date:
            // English's short dates are month first: `03.12.2026` would be read as March; said only as a language
            // other than English reads it.
            if let locale, let formatters, !BuiltInWords.isEnglish(locale.language), let date = formatters.parseDate(text, locale: locale) {
                return "; Lua code writes a date as ISO 8601 text, year first: \(name) = \"\(iso(date, in: locale.zone))\" "
                    + "(or an okit.Date: okit.date.parse(…), okit.date.now())"
            }
            return "; Lua code writes a date as ISO 8601 text, year first (\(name) = \"2026-12-03\"), an okit.Date "
                + "(okit.date.parse(…), okit.date.now()) or Unix seconds"
        default:
            return ""
        }
    }

    /// A number written with a decimal comma or grouping (`12,50`, `1.234,56`, `1,234.5`, `1 000`) as a Double.
    static func number(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces).filter { !$0.isWhitespace && $0 != "'" }
        let comma = t.lastIndex(of: ","), point = t.lastIndex(of: ".")
        switch (comma, point) {
        case let (c?, p?):
            // The last of the two marks the fraction; the other groups.
            t = c > p ? t.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
                : t.replacingOccurrences(of: ",", with: "")
        case (_?, nil):
            t = t.filter { $0 == "," }.count == 1 ? t.replacingOccurrences(of: ",", with: ".") : t.replacingOccurrences(of: ",", with: "")
        default:
            break
        }
        return Double(t)
    }

    /// `2026-12-03` for a date at midnight in the app's time zone, else the wall-clock time there with its offset
    /// (`2026-12-03T14:30:00+01:00`): what `ISODate.parse` reads back as the same day or instant.
    static func iso(_ date: Date, in zone: TimeZone) -> String {
        let c = ISODate.wallClock(date, in: zone)          // proleptic Gregorian, as ISODate.parse reads it
        let day = String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
        if c.hour == 0, c.minute == 0, c.second == 0 { return day }
        let offset = zone.secondsFromGMT(for: date) / 60
        let sign = offset < 0 ? "-" : "+"
        return day + String(format: "T%02d:%02d:%02d", c.hour, c.minute, c.second) + sign
            + String(format: "%02d:%02d", abs(offset) / 60, abs(offset) % 60)
    }

    /// Yes and no in the languages people write an app in (a bool field takes `true`/`yes`/`on`, …, not these).
    static let yesWords: Set<String> = ["ja", "si", "sí", "oui", "vrai", "sim", "vero", "wahr", "verdadero", "verdadeiro",
                                        "evet", "da", "tak", "igen", "kyllä", "sant", "waar"]
    static let noWords: Set<String> = ["nein", "non", "faux", "falsch", "não", "nao", "falso", "hayır", "nej", "nei",
                                       "nie", "nee", "onwaar", "ei", "nem", "nu", "net"]
}
