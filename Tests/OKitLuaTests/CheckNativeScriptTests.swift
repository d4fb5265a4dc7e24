import Foundation
@testable import OKitEngine
@testable import OKitLua
import Testing

/// `okit-run check` asked a Russian app for a Russian string of a name already written in Russian (outside tester,
/// finding 5): `["название"]` ("its rule messages say "Название"; add ["название"] = "…"") and `%Полка`. A key or
/// derived label written in the script of a language that is not written in Latin letters is that language's
/// text; a Latin key (`%Books`, `code`) is still asked for, and so is a Cyrillic key in another Cyrillic language
/// than the app's.
@Suite struct CheckNativeScriptTests {
    static let app = """
    local okit = require "okit"
    okit.locale { language = "ru" }
    okit.entity("Книга", {
      ["название"] = { "string", required = true },
      ["цена"] = { "double", min = 0 },
      code = { "string", required = true },
    })
    okit.entity("Полка", { ["книги"] = "[Книга]" })
    okit.model("Полка")
    okit.list("books", { dataPath = "книги", titlePath = "%Полка", cell = { path = "название", detailPath = "%Books" } })
    okit.app { home = "books" }

    """

    /// The problems, without the line about okit's words left in English (okit has no Russian or Ukrainian words).
    static func problems(_ source: String) throws -> [String] {
        try CheckFindingsTests.check(source).problems.filter { !$0.contains("okit has no") }
    }

    @Test func aKeyOrLabelInTheLanguagesScriptNeedsNoString() throws {
        #expect(try Self.problems(Self.app + "okit.strings(\"ru\", { Back = \"Назад\" })\n") == [
            "app.lua:6:3: field \"code\" of Книга has no string in \"ru\": its rule messages say \"Code\" (a page in Russian "
                + "shows \"Code is required\"); add [\"code\"] = \"…\" to okit.strings(\"ru\", …) or give the field a label",
            "app.lua:10:106: screen books, property cell.detailPath: \"%Books\" has no string in \"ru\": a page in Russian "
                + "shows \"Books\"; add [\"Books\"] = \"…\" to okit.strings(\"ru\", …) (the same word too, if it is one)",
        ])
    }

    /// An app in Russian with Ukrainian strings: `%Полка` is Russian, so Ukrainian still needs its own string.
    @Test func anotherLanguageOfTheSameScriptStillNeedsItsString() throws {
        let problems = try Self.problems(Self.app + "okit.strings(\"uk\", { Books = \"Книги\", code = \"Код\" })\n")
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("app.lua:4:4: field \"название\" of Книга has no string in \"uk\"") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("app.lua:5:4: field \"цена\" of Книга has no string in \"uk\"") }, "\(problems)")
        #expect(problems.contains { $0.contains("\"%Полка\" has no string in \"uk\"") }, "\(problems)")
        // The same strings in an app whose language is Ukrainian: the Cyrillic names are its own.
        let ukrainian = Self.app.replacingOccurrences(of: "language = \"ru\"", with: "language = \"uk\"")
        #expect(try Self.problems(ukrainian + "okit.strings(\"uk\", { Books = \"Книги\", code = \"Код\" })\n") == [])
    }

    @Test func aTextIsWrittenInALanguagesScriptOnlyWhenEveryLetterIs() {
        #expect(LanguageScript.isWritten("Полка", in: "ru"))
        #expect(LanguageScript.isWritten("Полка 2", in: "ru_RU"))
        #expect(LanguageScript.isWritten("Βιβλία", in: "el"))
        #expect(LanguageScript.isWritten("本棚の本", in: "ja"))
        #expect(!LanguageScript.isWritten("Polka", in: "ru"))
        #expect(!LanguageScript.isWritten("Полка Plus", in: "ru"))
        #expect(!LanguageScript.isWritten("2", in: "ru"))
        #expect(!LanguageScript.isWritten("Полка", in: "el"))
        // A language written in Latin letters has no exemption: `Notes` may be English.
        #expect(!LanguageScript.isWritten("Notizen", in: "de"))
        #expect(!LanguageScript.isWritten("Łódź", in: "pl"))
    }
}
