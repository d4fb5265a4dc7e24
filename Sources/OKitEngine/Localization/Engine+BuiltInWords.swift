extension Engine {
    /// The built-in words in the app's language, the app's own strings for them first (records the read, so a
    /// screen showing them follows a language change).
    public var builtInWords: BuiltInWords {
        graph.record(.locale)
        return BuiltInWords(language: locale.language, strings: strings)
    }

    /// One built-in word in the app's language, its arguments filled in (`word(.isRequired, "Name")`).
    public func word(_ word: BuiltInWord, _ arguments: String...) -> String {
        self.word(word, arguments: arguments)
    }

    /// A word with a count (`BuiltInWord.counted`) in the form of the count's category in the app's language
    /// (`word(.tooManyAttempts, count: 21, "21")`: the app's Russian `few`/`many` forms, French `0 seconde`).
    public func word(_ word: BuiltInWord, count n: Double, _ arguments: String...) -> String {
        builtInWords.word(word, count: n, arguments: arguments)
    }

    /// `word(_:_:)` with its arguments as an array.
    public func word(_ word: BuiltInWord, arguments: [String]) -> String {
        graph.record(.locale)
        let template = strings.string(word.rawValue, language: locale.language)
            ?? BuiltInWords.okitTemplate(word, language: locale.language)
        return BuiltInWords.fill(template, arguments)
    }
}
