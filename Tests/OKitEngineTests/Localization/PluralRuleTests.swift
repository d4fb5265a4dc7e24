import Foundation
import Testing
@testable import OKitEngine

/// Singular or plural after a count follows the app's language (CLDR): French and Portuguese (Brazil) take the
/// singular for 0 and 1 (a French tester's app said "0 tâches"), German, Spanish, Italian, English and Portugal's
/// Portuguese for 1 only.
@Suite struct PluralRuleTests {
    @Test func eachLanguageTakesTheSingularForItsOwnCounts() {
        let cases: [(AppLocale, [Double])] = [
            (AppLocale(language: "fr", region: "FR"), [0, 1, 1.5]), (AppLocale(language: "fr_CA"), [0, 1, 1.5]),
            (AppLocale(language: "pt"), [0, 1, 1.5]), (AppLocale(language: "pt", region: "BR"), [0, 1, 1.5]),
            (AppLocale(language: "pt_BR"), [0, 1, 1.5]),
            (AppLocale(language: "pt", region: "PT"), [1]), (AppLocale(language: "pt_PT"), [1]),
            (AppLocale(language: "de"), [1]), (AppLocale(language: "es"), [1]), (AppLocale(language: "it"), [1]),
            (AppLocale(language: "en"), [1]),
        ]
        for (locale, singular) in cases {
            for n: Double in [0, 1, 1.5, 2, 3, 100] {
                #expect(locale.takesSingular(n) == singular.contains(n), "\(locale.identifier) \(n)")
            }
        }
    }

    /// `subTitleObject` after `titleCount`: `0 tâche`, `1 tâche`, `2 tâches` in French; `0 Einträge` in German.
    @Test func theCountSubtitleFollowsTheLanguage() throws {
        let expected: [(String, [String: String], [String])] = [
            ("fr", ["Item": "tâche", "Items": "tâches"], ["0 tâche", "1 tâche", "2 tâches"]),
            ("pt", ["Item": "tarefa", "Items": "tarefas"], ["0 tarefa", "1 tarefa", "2 tarefas"]),
            ("de", ["Item": "Eintrag", "Items": "Einträge"], ["0 Einträge", "1 Eintrag", "2 Einträge"]),
            ("es", ["Item": "tarea", "Items": "tareas"], ["0 tareas", "1 tarea", "2 tareas"]),
            ("it", ["Item": "attività", "Items": "attività"], ["0 attività", "1 attività", "2 attività"]),
            ("en", [:], ["0 Items", "1 Item", "2 Items"]),
        ]
        for (language, strings, subtitles) in expected {
            let session = try BuiltInWordsTests.clinic(language: language, strings: strings)
            var count = try #require(session.shell.declaration("pets") as? ListDeclaration)
            count.id = "count"
            count.titleCount = "pets[0]/fee"   // Bello's fee: 0, then 1, then 2
            count.subTitleObject = "%Item"
            try session.shell.declare(count)
            try session.shell.open("count")
            let bello = try #require(try session.engine.get(session.engine.defaultModel?.root, "pets[0]").entity)
            for (fee, subtitle) in subtitles.enumerated() {
                try session.engine.set(bello, "fee", .double(Double(fee)))
                #expect(try session.shell.snapshot().screen.subtitle == subtitle, "\(language) \(fee)")
            }
        }
    }

    /// `suffixPlural` and `prefixPlural` choose the same way.
    @Test func thePluralExtensionsFollowTheLanguage() throws {
        let engine = Engine(schema: Schema(), clock: VirtualClock())
        engine.strings.add(language: "fr", strings: ["task": "tâche", "tasks": "tâches"])
        engine.strings.add(language: "de", strings: ["task": "Aufgabe", "tasks": "Aufgaben"])
        func call(_ n: Value, _ name: String) throws -> String? {
            try engine.extensions.resolve(for: n, name: name)?(n, [.string("task")], engine).displayString
        }
        engine.locale = AppLocale(language: "fr", region: "FR")
        #expect(try call(.int(0), "suffixPlural") == "0 tâche")
        #expect(try call(.int(1), "suffixPlural") == "1 tâche")
        #expect(try call(.int(2), "suffixPlural") == "2 tâches")
        #expect(try call(.int(0), "prefixPlural") == "tâche 0")
        engine.locale = AppLocale(language: "de", region: "DE")
        #expect(try call(.int(0), "suffixPlural") == "0 Aufgaben")
        #expect(try call(.int(1), "suffixPlural") == "1 Aufgabe")
    }

    /// The boundary counts of each language with more than two forms, as CLDR gives them (a Russian tester's
    /// list said "21 книги", "5 книги"; Polish "5 książki").
    @Test func eachLanguageWithMoreFormsFollowsCLDR() {
        let numbers: [Double] = [0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 1.5]
        let expected: [(String, [String])] = [
            ("ru", ["many", "one", "few", "few", "many", "many", "many", "many", "one", "few", "many", "one", "many", "other"]),
            ("uk", ["many", "one", "few", "few", "many", "many", "many", "many", "one", "few", "many", "one", "many", "other"]),
            ("be", ["many", "one", "few", "few", "many", "many", "many", "many", "one", "few", "many", "one", "many", "other"]),
            ("pl", ["many", "one", "few", "few", "many", "many", "many", "many", "many", "few", "many", "many", "many", "other"]),
            ("cs", ["other", "one", "few", "few", "other", "other", "other", "other", "other", "other", "other", "other", "other", "many"]),
            ("sk", ["other", "one", "few", "few", "other", "other", "other", "other", "other", "other", "other", "other", "other", "many"]),
            ("hr", ["other", "one", "few", "few", "other", "other", "other", "other", "one", "few", "other", "one", "other", "other"]),
            ("sr", ["other", "one", "few", "few", "other", "other", "other", "other", "one", "few", "other", "one", "other", "other"]),
            ("bs", ["other", "one", "few", "few", "other", "other", "other", "other", "one", "few", "other", "one", "other", "other"]),
            ("sl", ["other", "one", "two", "few", "other", "other", "other", "other", "other", "other", "other", "one", "other", "few"]),
            ("lt", ["other", "one", "few", "few", "few", "other", "other", "other", "one", "few", "few", "one", "other", "many"]),
            ("lv", ["zero", "one", "other", "other", "other", "zero", "zero", "zero", "one", "other", "other", "one", "zero", "other"]),
            ("ro", ["few", "one", "few", "few", "few", "few", "few", "few", "other", "other", "other", "few", "few", "few"]),
            ("ar", ["zero", "one", "two", "few", "few", "many", "many", "many", "many", "many", "many", "other", "many", "other"]),
            ("he", ["other", "one", "two", "other", "other", "other", "other", "other", "other", "other", "other", "other", "other", "other"]),
            ("en", ["other", "one", "other", "other", "other", "other", "other", "other", "other", "other", "other", "other", "other", "other"]),
            ("fr", ["one", "one", "other", "other", "other", "other", "other", "other", "other", "other", "other", "other", "other", "one"]),
        ]
        for (language, categories) in expected {
            for (n, category) in zip(numbers, categories) {
                #expect(PluralCategory.of(n, language: language).rawValue == category, "\(language) \(n)")
                // CLDR counts -21 as 21 (in the languages okit had one rule for, exactly 1 stays the singular).
                if PluralCategory.rules[language] != nil {
                    #expect(PluralCategory.of(-n, language: language).rawValue == category, "\(language) -\(n)")
                }
            }
        }
        // A region is its language's (`ru_RU`); fractions by their digits where CLDR looks at them.
        #expect(PluralCategory.of(21, language: "ru_RU") == .one)
        #expect(PluralCategory.of(0.1, language: "hr") == .one && PluralCategory.of(2.3, language: "sr") == .few)
        #expect(PluralCategory.of(0.5, language: "he") == .one && PluralCategory.of(2.1, language: "lv") == .one)
        #expect(PluralCategory.of(1.25, language: "lv") == .other && PluralCategory.of(1.11, language: "lv") == .zero)
        #expect(PluralCategory.extra(in: "ru") == [.few, .many] && PluralCategory.extra(in: "cs") == [.few, .many])
        #expect(PluralCategory.extra(in: "he") == [.two] && PluralCategory.extra(in: "de") == [] && PluralCategory.extra(in: "fr") == [])
    }

    /// A plural key's forms by category: a list's count subtitle and `suffixPlural` take the form of the count's
    /// category (`21 книга`, `22 книги`, `25 книг`); a plain plural string is the form of every count but one.
    @Test func countsTakeTheFormOfTheirCategory() throws {
        let session = try BuiltInWordsTests.clinic(language: "ru", strings: ["Item": "книга", "Items": "книги"])
        let engine = session.engine
        var count = try #require(session.shell.declaration("pets") as? ListDeclaration)
        count.id = "count"
        count.titleCount = "pets[0]/fee"
        count.subTitleObject = "%Item"
        try session.shell.declare(count)
        try session.shell.open("count")
        let bello = try #require(try engine.get(engine.defaultModel?.root, "pets[0]").entity)
        func subtitles() throws -> [String] {
            try [1, 2, 5, 21, 22, 25, 111].map { fee in
                try engine.set(bello, "fee", .double(Double(fee)))
                return try session.shell.snapshot().screen.subtitle ?? ""
            }
        }
        // A plain plural: one form for every count but one (and 21 is one in Russian).
        #expect(try subtitles() == ["1 книга", "2 книги", "5 книги", "21 книга", "22 книги", "25 книги", "111 книги"])
        engine.strings.add(language: "ru", forms: ["Items": [.few: "книги", .many: "книг", .other: "книги"]])
        engine.stringsChanged()
        #expect(try subtitles() == ["1 книга", "2 книги", "5 книг", "21 книга", "22 книги", "25 книг", "111 книг"])
        #expect(engine.localize("Items") == "книги", "the key's string is its other form")
        // The extensions: singular key for one, the forms for the rest; a missing category takes other.
        engine.strings.add(language: "ru", strings: ["book": "книга"])
        engine.strings.add(language: "ru", forms: ["books": [.many: "книг", .other: "книги"]])
        func call(_ n: Value, _ name: String) throws -> String? {
            try engine.extensions.resolve(for: n, name: name)?(n, [.string("book")], engine).displayString
        }
        #expect(try [0, 1, 3, 5, 21, 1.5].map { try call(.double($0), "suffixPlural") } == ["0 книг", "1 книга", "3 книги", "5 книг", "21 книга", "1.5 книги"])
        #expect(try call(.int(12), "prefixPlural") == "книг 12")
        // A `one` in the forms wins over the singular key.
        engine.strings.add(language: "ru", forms: ["books": [.one: "книжка", .other: "книги"]])
        #expect(try call(.int(21), "suffixPlural") == "21 книжка")
        // A plain string given later replaces the forms.
        engine.strings.add(language: "ru", strings: ["books": "книжек"])
        #expect(try call(.int(5), "suffixPlural") == "5 книжек")
    }

    /// An app that has strings but none in the person's language shows its English words, counted as English:
    /// `21 Items` under Russian, not `21 Item`.
    @Test func englishWordsAreCountedAsEnglish() throws {
        let session = try BuiltInWordsTests.clinic(language: "en", strings: ["book": "Book", "books": "Books"])
        let engine = session.engine
        engine.locale.language = "ru"
        let f = try #require(engine.extensions.resolve(for: .int(21), name: "suffixPlural"))
        #expect(try f(.int(21), [.string("book")], engine).displayString == "21 Books")
        engine.strings.add(language: "ru", strings: ["book": "книга", "books": "книги"])
        #expect(try f(.int(21), [.string("book")], engine).displayString == "21 книга")
    }

    /// A field's `maxLength` message takes the form of its count when the app gives the forms of
    /// `%@ must be at most %@ characters`; else okit's word (`character` for one only, as before).
    @Test func theMaxLengthMessageTakesTheFormOfItsCount() {
        let strings = StringsTable()
        strings.add(language: "ru", strings: ["%@ must be at most %@ character": "%@: не больше %@ символа"])
        strings.add(language: "ru", forms: ["%@ must be at most %@ characters": [
            .few: "%@: не больше %@ символов", .many: "%@: не больше %@ символов", .other: "%@: не больше %@ символа"]])
        let words = BuiltInWords(language: "ru", strings: strings)
        func message(_ n: Int) -> String? { FieldRules(maxLength: n).worded(words, label: "Имя").messages[.maxLength] }
        #expect(message(1) == "Имя: не больше 1 символа" && message(21) == "Имя: не больше 21 символа")
        #expect(message(5) == "Имя: не больше 5 символов" && message(3) == "Имя: не больше 3 символов")
        func english(_ n: Int) -> String? { FieldRules(maxLength: n).worded(.english, label: "Name").messages[.maxLength] }
        #expect(english(1) == "Name must be at most 1 character" && english(21) == "Name must be at most 21 characters")
    }
}

