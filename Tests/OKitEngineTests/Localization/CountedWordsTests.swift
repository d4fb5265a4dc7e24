import Testing
@testable import OKitEngine

/// okit's own words with a count (`BuiltInWord.counted`: the web's search too long, wrong attempts, sessions,
/// uploads, and `maxLength`'s message) follow CLDR's plural categories as an app's counts do: the singular for
/// `one` — French for 0 and 1 — and the forms an app gives (`few`, `many`) in Russian, Polish, ….
@Suite struct CountedWordsTests {
    @Test func englishTakesTheSingularForOneOnly() {
        let words = BuiltInWords.english
        #expect(words(.tooManyAttempts, count: 1, "1") == "Too many wrong attempts from your address: try again in 1 second.")
        #expect(words(.tooManyAttempts, count: 0, "0") == "Too many wrong attempts from your address: try again in 0 seconds.")
        #expect(words(.tooManyAttempts, count: 21, "21") == "Too many wrong attempts from your address: try again in 21 seconds.")
        #expect(words(.tooManyPeople, count: 1, "1") == "Too many people are using this app right now (1 session); try again later.")
        #expect(words(.uploadsBusy, count: 1, "1") == "1 upload is being read right now; try again in a moment.")
        #expect(words(.uploadsBusy, count: 2, "2") == "2 uploads are being read right now; try again in a moment.")
        #expect(words(.searchTooLong, count: 1001, "1001", "1000")
                == "The search text is too long (1001 characters; at most 1000); the search is unchanged.")
        #expect(words(.notFound, count: 1) == "Not found", "a word without a count is as it is")
    }

    /// French takes the singular for 0 and 1 (CLDR `i = 0,1`), in every counted word of okit's own.
    @Test func frenchTakesTheSingularForZeroAndOne() {
        let words = BuiltInWords(language: "fr")
        #expect(words(.tooManyAttempts, count: 0, "0").hasSuffix("réessayez dans 0 seconde."))
        #expect(words(.tooManyAttempts, count: 1, "1").hasSuffix("réessayez dans 1 seconde."))
        #expect(words(.tooManyAttempts, count: 2, "2").hasSuffix("réessayez dans 2 secondes."))
        #expect(words(.uploadsBusy, count: 0, "0").hasPrefix("0 fichier envoyé est en cours de lecture"))
        #expect(words(.tooManyPeople, count: 1, "1").contains("(1 session)\u{A0};"))
        #expect(BuiltInWords(language: "pt")(.tooManyAttempts, count: 0, "0").hasSuffix("em 0 segundo."), "Brazil's Portuguese too")
        #expect(BuiltInWords(language: "pt_PT")(.tooManyAttempts, count: 0, "0").hasSuffix("em 0 segundos."), "Portugal's as English")
        #expect(BuiltInWords(language: "de")(.tooManyAttempts, count: 0, "0").contains("in 0 Sekunden"))
        #expect(BuiltInWords(language: "de")(.tooManyAttempts, count: 1, "1").contains("in 1 Sekunde noch"))
    }

    /// Every counted word has its singular in every table okit has, different from the plural's where the
    /// language's noun changes (German `Zeichen` does not).
    @Test func everyCountedWordHasItsSingularInEveryLanguage() {
        #expect(BuiltInWord.counted.count == 13)
        for (language, table) in BuiltInWords.tables {
            for pair in BuiltInWord.counted {
                #expect(table[pair.one.rawValue] != nil && table[pair.other.rawValue] != nil, "\(language): \(pair.one)")
                if language != "de" || ![.searchTooLong, .atMostCharacters].contains(pair.other) {
                    #expect(table[pair.one.rawValue] != table[pair.other.rawValue], "\(language): \(pair.one)")
                }
            }
        }
        for pair in BuiltInWord.counted { #expect(pair.one.counted?.other == pair.other && pair.other.counted?.one == pair.one) }
    }

    static func russian() -> StringsTable {
        let strings = StringsTable()
        strings.add(language: "ru", strings: [
            "Too many wrong attempts from your address: try again in %@ second.": "Слишком много неверных попыток: повторите через %@ секунду."])
        strings.add(language: "ru", forms: ["Too many wrong attempts from your address: try again in %@ seconds.": [
            .few: "Слишком много неверных попыток: повторите через %@ секунды.",
            .many: "Слишком много неверных попыток: повторите через %@ секунд.",
            .other: "Слишком много неверных попыток: повторите через %@ секунды."]])
        strings.add(language: "pl", strings: [
            "%@ upload is being read right now; try again in a moment.": "Trwa odczyt %@ pliku; spróbuj za chwilę."])
        strings.add(language: "pl", forms: ["%@ uploads are being read right now; try again in a moment.": [
            .few: "Trwa odczyt %@ plików (few); spróbuj za chwilę.", .many: "Trwa odczyt %@ plików; spróbuj za chwilę.",
            .other: "Trwa odczyt %@ pliku; spróbuj za chwilę."]])
        return strings
    }

    /// Russian and Polish: the app gives the word's forms, and each count takes its category's (1, 21 one; 2–4, 22
    /// few; 0, 5–20, 25 many in Russian; Polish 21 many, 22 few).
    @Test func russianAndPolishTakeTheFormOfTheirCategory() {
        let ru = BuiltInWords(language: "ru", strings: Self.russian())
        func attempts(_ n: Int) -> String { ru(.tooManyAttempts, count: Double(n), String(n)) }
        #expect(attempts(1).hasSuffix("через 1 секунду.") && attempts(21).hasSuffix("через 21 секунду."))
        #expect(attempts(2).hasSuffix("через 2 секунды.") && attempts(24).hasSuffix("через 24 секунды."))
        #expect(attempts(5).hasSuffix("через 5 секунд.") && attempts(11).hasSuffix("через 11 секунд.")
                && attempts(0).hasSuffix("через 0 секунд."))
        let pl = BuiltInWords(language: "pl", strings: Self.russian())
        func uploads(_ n: Int) -> String { pl(.uploadsBusy, count: Double(n), String(n)) }
        #expect(uploads(1) == "Trwa odczyt 1 pliku; spróbuj za chwilę.")
        #expect(uploads(2) == "Trwa odczyt 2 plików (few); spróbuj za chwilę." && uploads(22).contains("22 plików (few)"))
        #expect(uploads(5) == "Trwa odczyt 5 plików; spróbuj za chwilę." && uploads(21) == "Trwa odczyt 21 plików; spróbuj za chwilę."
                && uploads(12) == "Trwa odczyt 12 plików; spróbuj za chwilę.")
    }

    /// Words the app leaves English in a language okit has no words for are counted as English: `21 seconds`
    /// under Russian, not `21 second` (Russian's `one`).
    @Test func englishWordsAreCountedAsEnglishInAnyLanguage() {
        let ru = BuiltInWords(language: "ru")
        #expect(ru(.tooManyAttempts, count: 21, "21").hasSuffix("try again in 21 seconds."))
        #expect(ru(.tooManyAttempts, count: 1, "1").hasSuffix("try again in 1 second."))
        #expect(FieldRules(maxLength: 21).worded(ru, label: "Name").messages[.maxLength] == "Name must be at most 21 characters")
    }

    /// The engine's words follow the app's language and its strings.
    @Test func theEnginesCountedWordsFollowTheLanguage() {
        let engine = Engine(schema: Schema(), clock: VirtualClock())
        engine.locale = AppLocale(language: "fr")
        #expect(engine.word(.tooManyAttempts, count: 0, "0").hasSuffix("0 seconde."))
        engine.strings.add(language: "ru", strings: [
            "Too many wrong attempts from your address: try again in %@ second.": "Повторите через %@ секунду."])
        engine.strings.add(language: "ru", forms: ["Too many wrong attempts from your address: try again in %@ seconds.": [
            .few: "Повторите через %@ секунды.", .many: "Повторите через %@ секунд.", .other: "Повторите через %@ секунды."]])
        engine.locale = AppLocale(language: "ru")
        #expect(engine.word(.tooManyAttempts, count: 3, "3") == "Повторите через 3 секунды.")
        #expect(engine.word(.tooManyAttempts, count: 25, "25") == "Повторите через 25 секунд.")
        #expect(engine.word(.tooManyAttempts, count: 31, "31") == "Повторите через 31 секунду.")
    }
}
