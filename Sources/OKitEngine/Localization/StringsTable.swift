import Foundation

/// Localized strings per language: tables from the app (`okit.strings`) and Apple `.strings` files.
/// A missing key localizes to the key itself.
public final class StringsTable {
    private var tables: [String: [String: String]] = [:]
    /// The forms of plural keys given as a table of categories (`books = { few = "книги", many = "книг", other =
    /// "книги" }`), by language and key; the key's string in `tables` is its `other` form.
    private var formTables: [String: [String: [PluralCategory: String]]] = [:]

    public init() {}

    /// The languages that have strings.
    public var languages: [String] { tables.keys.sorted() }

    /// The string of `key` in `language` (then in the language's base, `de` for `de_AT`), else the key. An app with
    /// no strings at all in that language shows its English ones, as iOS shows an app in its development language
    /// when it is not localized for the person's (the bookshop's `entrys` is "Entries" under `--lang de`, not
    /// "entrys"); an app that has the language but not the key shows the key, as iOS does. Built-in words are not
    /// taken from here (`BuiltInWords`): they keep OKit's own words of the language.
    public func localize(_ key: String, language: String) -> String {
        if let s = string(key, language: language) { return s }
        if !hasStrings(in: language), let s = string(key, language: "en") { return s }
        return key
    }

    /// The app's own string of `key` as `localize` finds it (English's when the app has no strings in `language`),
    /// or nil when it has none: a word the app translated to itself (German `Name = "Name"`) is found too.
    public func own(_ key: String, language: String) -> String? {
        string(key, language: language) ?? (hasStrings(in: language) ? nil : string(key, language: "en"))
    }

    /// Whether the app gave any strings in `language`, its base or one of its regions.
    public func hasStrings(in language: String) -> Bool {
        if tables[language] != nil { return true }
        if let base = BuiltInWords.base(of: language), tables[base] != nil { return true }
        let regional = language + "_"
        return tables.keys.contains { $0.hasPrefix(regional) }
    }

    /// The app's own string of `key` in `language` (then in the language's base), or nil when it has none.
    public func string(_ key: String, language: String) -> String? {
        if let s = tables[language]?[key] { return s }
        if let base = BuiltInWords.base(of: language), let s = tables[base]?[key] { return s }
        // Strings given for a region of the language (`de_DE` for an app in `de`).
        let regional = language + "_"
        for (tag, table) in tables where tag.hasPrefix(regional) { if let s = table[key] { return s } }
        return nil
    }

    /// Adds (or replaces) strings of a language; a plain string replaces the forms its key had.
    public func add(language: String, strings: [String: String]) {
        tables[language, default: [:]].merge(strings) { $1 }
        if formTables[language] != nil { for key in strings.keys { formTables[language]?[key] = nil } }
    }

    /// Adds (or replaces) the forms of plural keys of a language (`books`: few, many, other): each key's string is
    /// its `other` form (what `%books` and `okit.localize` show), and a count takes the form of its category
    /// (`form(of:_:language:)`). A key without `other` keeps the string it had.
    public func add(language: String, forms given: [String: [PluralCategory: String]]) {
        for (key, f) in given {
            if let other = f[.other] { tables[language, default: [:]][key] = other }
            formTables[language, default: [:]][key] = f
        }
    }

    /// The forms the app gave for plural key `key`, found as `own` finds its string (the language, its base, its
    /// regions; English's when the app has no strings in the language); nil when its string is a plain one.
    public func forms(of key: String, language: String) -> [PluralCategory: String]? {
        if let tag = tag(of: key, language: language) { return formTables[tag]?[key] }
        guard !hasStrings(in: language), let tag = tag(of: key, language: "en") else { return nil }
        return formTables[tag]?[key]
    }

    /// The plural keys given forms under exactly the language tag `language`, sorted.
    public func keysWithForms(tag language: String) -> [String] { formTables[language].map { $0.keys.sorted() } ?? [] }

    /// The form of plural key `key` for a count of `category`: the category's own form, else (but for `one`, which
    /// is the singular key's) its `other` form; nil when the app gave no forms for the key.
    public func form(of key: String, _ category: PluralCategory, language: String) -> String? {
        guard !formTables.isEmpty, let f = forms(of: key, language: language) else { return nil }
        return f[category] ?? (category == .one ? nil : f[.other])
    }

    /// The language tag whose table `string(_:language:)` takes `key` from.
    private func tag(of key: String, language: String) -> String? {
        if tables[language]?[key] != nil { return language }
        if let base = BuiltInWords.base(of: language), tables[base]?[key] != nil { return base }
        let regional = language + "_"
        return tables.first { $0.key.hasPrefix(regional) && $0.value[key] != nil }?.key
    }

    /// Loads an Apple `.strings` file (UTF-8, or UTF-16 with a byte-order mark).
    public func load(language: String, stringsFileAt path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StringsFileError(path: path, line: 0, column: 0, message: "cannot read the file")
        }
        do {
            try load(language: language, stringsFileContents: [UInt8](data))
        } catch var e as StringsFileError {
            e.path = path
            throw e
        }
    }

    /// Loads the contents of an Apple `.strings` file.
    public func load(language: String, stringsFileContents bytes: [UInt8]) throws {
        add(language: language, strings: try StringsFileParser.parse(bytes))
    }
}

/// A `.strings` file that does not parse.
public struct StringsFileError: Error, CustomStringConvertible {
    public var path: String
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String { "\(path):\(line):\(column): \(message)" }
}

/// Apple `.strings` files: `"key" = "value";` entries, `/* */` and `//` comments, escapes, unquoted keys.
enum StringsFileParser {
    static func decode(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: Data(bytes), encoding: .utf16LittleEndian).map { String($0.drop { $0 == "\u{FEFF}" }) } }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: Data(bytes), encoding: .utf16BigEndian).map { String($0.drop { $0 == "\u{FEFF}" }) } }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(validating: body, as: UTF8.self)
    }

    static func parse(_ bytes: [UInt8]) throws -> [String: String] {
        guard let text = decode(bytes) else { throw StringsFileError(path: "", line: 1, column: 1, message: "not UTF-8 or UTF-16 text") }
        let s = Array(text.unicodeScalars)
        var i = 0
        var line = 1, lineStart = 0
        func fail(_ m: String) -> StringsFileError { StringsFileError(path: "", line: line, column: i - lineStart + 1, message: m) }
        func skip() throws {
            while i < s.count {
                if s[i] == "\n" { line += 1; i += 1; lineStart = i; continue }
                if s[i].properties.isWhitespace { i += 1; continue }
                if s[i] == "/", i + 1 < s.count, s[i + 1] == "*" {
                    i += 2
                    while i + 1 < s.count, !(s[i] == "*" && s[i + 1] == "/") { if s[i] == "\n" { line += 1; lineStart = i + 1 }; i += 1 }
                    if i + 1 >= s.count { throw fail("unterminated comment") }
                    i += 2
                    continue
                }
                if s[i] == "/", i + 1 < s.count, s[i + 1] == "/" {
                    while i < s.count, s[i] != "\n" { i += 1 }
                    continue
                }
                return
            }
        }
        func token() throws -> String {
            guard i < s.count else { throw fail("unexpected end of file") }
            if s[i] == "\"" {
                i += 1
                var out = String.UnicodeScalarView()
                while i < s.count, s[i] != "\"" {
                    if s[i] == "\\", i + 1 < s.count {
                        let e = s[i + 1]
                        i += 2
                        switch e {
                        case "n": out.append("\n")
                        case "t": out.append("\t")
                        case "r": out.append("\r")
                        case "\"", "\\", "'": out.append(e)
                        case "U", "u":
                            var v: UInt32 = 0
                            var n = 0
                            while n < 4, i < s.count, let h = Int(String(s[i]), radix: 16) { v = v * 16 + UInt32(h); i += 1; n += 1 }
                            guard n == 4, let sc = Unicode.Scalar(v) else { throw fail("bad \\U escape") }
                            out.append(sc)
                        default: out.append(e)
                        }
                        continue
                    }
                    if s[i] == "\n" { line += 1; lineStart = i + 1 }
                    out.append(s[i])
                    i += 1
                }
                guard i < s.count else { throw fail("unterminated string") }
                i += 1
                return String(out)
            }
            let a = i
            while i < s.count, s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) || s[i] == "_" || s[i] == "." { i += 1 }
            guard i > a else { throw fail("expected a quoted string") }
            return String(String.UnicodeScalarView(s[a..<i]))
        }
        var out: [String: String] = [:]
        while true {
            try skip()
            if i >= s.count { return out }
            let key = try token()
            try skip()
            if i < s.count, s[i] == ";" { out[key] = key; i += 1; continue }
            guard i < s.count, s[i] == "=" else { throw fail("expected \"=\"") }
            i += 1
            try skip()
            let value = try token()
            try skip()
            guard i < s.count, s[i] == ";" else { throw fail("expected \";\"") }
            i += 1
            out[key] = value
        }
    }
}
