/// The built-in words (`BuiltInWord`) in one language: the app's own strings for them first, then OKit's table
/// of the language (`BuiltInWords.tables`: German, Spanish, French, Italian, Portuguese; `de_AT` falls back to
/// `de`), then English. A value, so a front end (the web's pages) takes it once per page and needs no engine.
///
/// A language is one table: add `BuiltInWords+<Language>.swift` with every `BuiltInWord` and list it in
/// `tables` (BuiltInWordsTests checks that each table has every word, with the same arguments).
public struct BuiltInWords: Sendable, Equatable {
    /// The language the words are in (`de`, `de_AT`, `en`).
    public let language: String
    /// The app's own strings for built-in words, by English key.
    public let overrides: [String: String]

    /// English, as OKit shows it.
    public static let english = BuiltInWords(language: "en")

    /// OKit's own tables by language; English is the keys themselves (docs/built-in-words.md names the languages).
    public static let tables: [String: [String: String]] = [
        "de": german, "es": spanish, "fr": french, "it": italian, "pt": portuguese,
    ]

    /// The app's forms of a counted word, by English key (`"%@ must be at most %@ characters"`: few, many, other).
    public let forms: [String: [PluralCategory: String]]

    public init(language: String, overrides: [String: String] = [:], forms: [String: [PluralCategory: String]] = [:]) {
        self.language = language
        self.overrides = overrides
        self.forms = forms
    }

    /// The words in `language`, with the app's own strings of `strings` over OKit's.
    public init(language: String, strings: StringsTable) {
        var own: [String: String] = [:]
        var forms: [String: [PluralCategory: String]] = [:]
        for word in BuiltInWord.allCases {
            if let s = strings.string(word.rawValue, language: language) { own[word.rawValue] = s }
        }
        for word in BuiltInWord.counted.map({ $0.other }) {
            if let f = strings.forms(of: word.rawValue, language: language) { forms[word.rawValue] = f }
        }
        self.init(language: language, overrides: own, forms: forms)
    }

    /// The template of a word with a count `n` (`counted.one` for `one`, else `counted.other`, in the form of
    /// `n`'s category when the app gave the word's forms: `%@: не больше %@ символов`). Words left in English (a
    /// language neither okit nor the app gives them in) are counted as English: `21 seconds` under Russian.
    public func template(_ counted: (one: BuiltInWord, other: BuiltInWord), count n: Double) -> String {
        let inLanguage = BuiltInWords.hasTable(for: language) || forms[counted.other.rawValue] != nil
            || overrides[counted.other.rawValue] != nil || overrides[counted.one.rawValue] != nil
        let category = PluralCategory.of(n, language: inLanguage ? language : "en")
        if let f = forms[counted.other.rawValue], let form = f[category] ?? (category == .one ? nil : f[.other]) { return form }
        return template(category == .one ? counted.one : counted.other)
    }

    /// A word with a count, in the form of the count's category (`BuiltInWord.counted`), its arguments filled in:
    /// `words(.tooManyAttempts, count: 1, "1")` is "… try again in 1 second."; a word without a count as it is.
    public func callAsFunction(_ word: BuiltInWord, count n: Double, _ arguments: String...) -> String {
        self.word(word, count: n, arguments: arguments)
    }

    /// `callAsFunction(_:count:_:)` with its arguments as an array.
    public func word(_ word: BuiltInWord, count n: Double, arguments: [String]) -> String {
        BuiltInWords.fill(word.counted.map { template($0, count: n) } ?? template(word), arguments)
    }

    /// The word with its `%@` arguments filled in: `words(.isRequired, "Name")` is "Name is required".
    public func callAsFunction(_ word: BuiltInWord, _ arguments: String...) -> String {
        BuiltInWords.fill(template(word), arguments)
    }

    /// The word's text before its arguments are filled in.
    public func template(_ word: BuiltInWord) -> String {
        overrides[word.rawValue] ?? BuiltInWords.okitTemplate(word, language: language)
    }

    /// OKit's own text of a word in a language (then its base language), else English.
    public static func okitTemplate(_ word: BuiltInWord, language: String) -> String {
        if let s = tables[language]?[word.rawValue] { return s }
        if let base = base(of: language), let s = tables[base]?[word.rawValue] { return s }
        return word.rawValue
    }

    /// okit's own text in `language` of the word whose English text is `key`, for a word without arguments (`OK`,
    /// `Cancel`, `Yes`): what an app's `%Cancel` shows when its strings lack `Cancel` (lua-api.md "Strings"). nil
    /// for any other key, and in a language okit has no words for.
    public static func plainWord(_ key: String, language: String) -> String? {
        guard hasTable(for: language), let word = BuiltInWord(rawValue: key), !key.contains("%") else { return nil }
        return okitTemplate(word, language: language)
    }

    /// Whether `text` is one of okit's own plain words in `language` (a translation of a word without
    /// placeholders: `Nome` in Italian, `Nombre` in Spanish): a label that reads right in that language.
    public static func isOwnWord(_ text: String, language: String) -> Bool {
        guard hasTable(for: language) else { return false }
        return BuiltInWord.allCases.contains { !$0.rawValue.contains("%") && okitTemplate($0, language: language) == text }
    }

    /// Whether okit has its own words for a language (or its base): else its words are English.
    public static func hasTable(for language: String) -> Bool {
        tables[language] != nil || base(of: language).map { tables[$0] != nil } ?? false
    }

    /// Whether a language is English (`en`, `en_GB`): the language okit's keys and words are written in.
    public static func isEnglish(_ language: String) -> Bool {
        (base(of: language) ?? language) == "en"
    }

    /// The base of a regional language (`de` for `de_AT` or `de-AT`), nil for a language without a region.
    public static func base(of language: String) -> String? {
        guard let cut = language.firstIndex(where: { $0 == "_" || $0 == "-" }) else { return nil }
        return String(language[..<cut])
    }

    /// Fills `%1$@`…`%9$@` by position and each plain `%@` with the next argument; `%%` is a percent sign.
    static func fill(_ template: String, _ arguments: [String]) -> String {
        var out = ""
        var next = 0
        var i = template.startIndex
        while i < template.endIndex {
            let c = template[i]
            let rest = template[template.index(after: i)...]
            guard c == "%", let first = rest.first else { out.append(c); i = template.index(after: i); continue }
            if first == "@" {
                out += next < arguments.count ? arguments[next] : ""
                next += 1
                i = template.index(i, offsetBy: 2)
            } else if first == "%" {
                out.append("%")
                i = template.index(i, offsetBy: 2)
            } else if let n = first.wholeNumberValue, rest.dropFirst().hasPrefix("$@") {
                out += n >= 1 && n <= arguments.count ? arguments[n - 1] : ""
                i = template.index(i, offsetBy: 4)
            } else {
                out.append(c)
                i = template.index(after: i)
            }
        }
        return out
    }
}
