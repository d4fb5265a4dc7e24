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
}
