import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Counts in languages with more than two forms (a Russian and a Polish tester's library: "5 книги", "21 книги",
/// "5 książki"): `okit.strings` takes a plural key's forms by CLDR category, every count shows the form of its
/// category, and `okit-run check` notes a plain plural string in such a language.
@Suite struct PluralFormsTests {
    static func app(_ strings: String, language: String = "ru", books: Int = 5) -> String {
        """
        local okit = require "okit"
        okit.locale { language = "\(language)" }
        okit.entity("Book", { title = "string" })
        okit.entity("Library", { books = "[Book]" })
        library = okit.model("Library", { seed = function(root)
          for i = 1, \(books) do root.books:append(okit.new("Book", { title = "B" .. i })) end
        end })
        okit.list("books", { dataPath = "books", titlePath = "%Library", titleCount = "books.@count",
          subTitleObject = "%book", cell = { path = "title" }, groupHeader = "rows.@count/suffixPlural(#book)",
          group = "#all" })
        okit.app { home = "books" }
        \(strings)
        """
    }

    static let russian = """
    okit.strings("ru", { Library = "Библиотека", book = "книга",
      books = { few = "книги", many = "книг", other = "книги" } })
    """

    /// The list's count subtitle and a group header's `suffixPlural` in Russian, for each boundary count.
    @Test func aRussianListCountsWithTheFormsItsStringsGive() throws {
        for (n, word) in [(1, "книга"), (2, "книги"), (5, "книг"), (11, "книг"), (21, "книга"), (22, "книги"), (25, "книг")] {
            let t = try TempApp(["app.lua": Self.app(Self.russian, books: n)])
            let app = try t.launch()
            let screen = try app.shell.snapshot().screen
            #expect(screen.subtitle == "\(n) \(word)" && screen.sections.first?.subheader == "\(n) \(word)",
                    "\(n): \(screen.subtitle ?? "-") / \(screen.sections.first?.subheader ?? "-")")
        }
    }

    /// Polish "one" is 1 only: 21 and 25 take many (`21 książek`), 22 few.
    @Test func aPolishListCountsWithItsForms() throws {
        let polish = """
        okit.strings("pl", { book = "książka", books = { few = "książki", many = "książek", other = "książki" } })
        """
        for (n, word) in [(1, "książka"), (2, "książki"), (5, "książek"), (12, "książek"), (21, "książek"), (22, "książki")] {
            let t = try TempApp(["app.lua": Self.app(polish, language: "pl", books: n)])
            let subtitle = try t.launch().shell.snapshot().screen.subtitle
            #expect(subtitle == "\(n) \(word)", "\(n): \(subtitle ?? "-")")
        }
    }

    /// A table that names no category, or lacks `other`, stops the app at load, at the value, with what to write.
    @Test func formsThatCannotWorkAreRefusedAtTheirValue() throws {
        let misspelled = try DeclarationTypoTests.loadError(Self.app("""
        okit.strings("ru", { book = "книга", books = { fwe = "книги", other = "книги" } })
        """))
        #expect(misspelled == "app.lua:12:55: okit.strings(\"ru\"): the forms of \"books\" are named by CLDR's categories "
                + "zero, one, two, few, many, other, not \"fwe\" (did you mean \"few\"?)", "\(misspelled ?? "loaded")")
        let noOther = try DeclarationTypoTests.loadError(Self.app("""
        okit.strings("ru", { book = "книга", books = { few = "книги", many = "книг" } })
        """))
        #expect(noOther == "app.lua:12:46: okit.strings(\"ru\"): the forms of \"books\" need other = \"…\": the form of a count "
                + "no other category takes (1.5), and what %books shows; like books = { few = \"книги\", many = \"книг\", other = \"…\" }",
                "\(noOther ?? "loaded")")
        let notText = try DeclarationTypoTests.loadError(Self.app("""
        okit.strings("ru", { books = { few = 3, other = "книги" } })
        """))
        #expect(notText?.hasPrefix("app.lua:12:38: okit.strings(\"ru\"): the forms of \"books\" have a number for few, not text") == true,
                "\(notText ?? "loaded")")
    }

    /// `check` notes a plain plural string a count shows in a language with more forms, once, at the string; not
    /// when the forms are given, nor in a language with two forms.
    @Test func checkNotesAPlainPluralInALanguageWithMoreForms() throws {
        let plain = try CheckFindingsTests.check(Self.app("""
        okit.strings("ru", { Library = "Библиотека", book = "книга", books = "книги" })
        """))
        // (Besides the line on okit's own words, which okit has no Russian table of.)
        let notes = { (r: AppCheckResult) in r.problems.filter { !$0.contains("okit has no Russian words") } }
        #expect(notes(plain) == [
            "app.lua:12:71: okit.strings(\"ru\"): \"books\" is one form for every count but one: a page in Russian says "
                + "\"2 книги\" and \"5 книги\" alike, but Russian counts take few (2–4, 22–24, …), many (0, 5–20, …) and other "
                + "(1.5); write books = { few = \"…\", many = \"…\", other = \"книги\" } (docs/lua-api.md, Counts)",
        ], "\(plain.problems)")
        let forms = try CheckFindingsTests.check(Self.app(Self.russian))
        #expect(notes(forms) == [], "\(forms.problems)")
        let german = try CheckFindingsTests.check(Self.app("okit.strings(\"de\", { Library = \"B\", book = \"Buch\", books = \"Bücher\" })",
                                                           language: "de"))
        #expect(german.problems == [], "\(german.problems)")
    }
}
