import Foundation
import Testing
@testable import OKitEngine

/// Text keys in the app's language's order (out-ru findings 2 and 3): rows and sections follow the language's
/// letters (Polish Ł after L, Russian Е before Ё and Й after И), the case of a letter never splits its sections
/// apart, ASCII texts keep their order in every language, and rows followed one by one land where a full pass
/// puts them.
@Suite struct ListCollationTests {
    func list(_ names: [String], language: String, group: Bool = false) throws -> (ShopFixture, ListScreen) {
        let f = try ShopFixture()
        f.engine.locale = AppLocale(language: language)
        try f.start(books: names)
        // OKit's `initial`: the first character, case kept.
        f.engine.extensions.register("string", "initial") { v, _, _ in .string(String((v.displayString ?? "").prefix(1))) }
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        if group { d.group = "name/initial" }
        return (f, try ListScreen(engine: f.engine, declaration: d, context: f.root))
    }

    func rows(_ s: ListScreen) throws -> [String] {
        try s.snapshot(offset: 0, limit: 1_000).sections.flatMap { $0.rows.compactMap(\.text) }
    }

    static let polish = ["Łódź", "Lalka", "Mróz", "Żaba", "Zamek", "Ćma", "Cisza", "Dom", "Śnieg", "Tygrys", "Ęby", "Ewa"]
    static let polishOrder = ["Cisza", "Ćma", "Dom", "Ewa", "Ęby", "Lalka", "Łódź", "Mróz", "Śnieg", "Tygrys", "Zamek", "Żaba"]

    @Test func polishRowsAndSectionsAreInPolishOrder() throws {
        let (_, plain) = try list(Self.polish, language: "pl")
        #expect(try rows(plain) == ["Cisza", "Ćma", "Dom", "Ewa", "Ęby", "Lalka", "Łódź", "Mróz", "Śnieg", "Tygrys",
                                    "Zamek", "Żaba"])
        let (_, grouped) = try list(Self.polish, language: "pl", group: true)
        #expect(try grouped.snapshot().sections.map(\.header) == ["C", "Ć", "D", "E", "Ę", "L", "Ł", "M", "Ś", "T", "Z", "Ż"])
    }

    @Test func russianSectionsPutЕBeforeЁAndEachCaseNextToTheOther() throws {
        let names = ["Emma", "ebook", "Élise", "apple", "Zed", "Ёлка", "Елена", "ёжик", "ель", "Жук", "Ешь", "Ястреб",
                     "ясень", "йод", "Игла"]
        let (_, grouped) = try list(names, language: "ru", group: true)
        #expect(try grouped.snapshot().sections.map(\.header)
                == ["Е", "е", "Ё", "ё", "Ж", "И", "й", "Я", "я", "a", "E", "e", "É", "Z"], "Cyrillic first, then Latin")
        let (_, plain) = try list(names, language: "ru")
        #expect(try rows(plain) == ["ёжик", "Елена", "Ёлка", "ель", "Ешь", "Жук", "Игла", "йод", "ясень", "Ястреб",
                                    "apple", "ebook", "Élise", "Emma", "Zed"], "Й is a letter after И; Ё goes with Е")
    }

    /// The scripts in the language's order (CLDR's `[reorder …]`, as ICU has it): Latin, Greek, Cyrillic in
    /// English and Polish; Cyrillic first in Russian, Ukrainian, Bulgarian, Serbian; Greek first in Greek. Signs
    /// and digits stay before every letter; a descending sort reverses the whole order.
    @Test(arguments: [("en", "LGC"), ("pl", "LGC"), ("ru", "CLG"), ("uk", "CLG"), ("bg", "CLG"), ("sr", "CLG"),
                      ("el", "GLC")])
    func scriptsComeInTheLanguagesOrder(language: String, order: String) throws {
        let script = ["L": ["apple", "Zoë"], "G": ["άλφα", "Ωμέγα"], "C": ["Банан", "ящик"]]
        let names = ["Ωμέγα", "ящик", "Zoë", "_x", "Банан", "2 b", "apple", "άλφα"]
        let (_, s) = try list(names, language: language)
        #expect(try rows(s) == ["2 b", "_x"] + order.flatMap { script[String($0)]! })
        let (_, grouped) = try list(names, language: language, group: true)
        #expect(try grouped.snapshot().sections.map(\.header)
                == ["2", "_"] + order.flatMap { script[String($0)]!.map { String($0.prefix(1)) } })
    }

    /// `sorted` puts texts where a list puts its rows (it had its own order: Polish Ł with L, Russian Й with И,
    /// Swedish Å with A, Latin before Cyrillic), and follows a change of language.
    @Test(arguments: [
        ("pl", polish),
        ("ru", ["Ёлка", "Елена", "йод", "Игла", "Zed", "ёжик", "apple", "Ястреб"]),
        ("de", ["Äpfel", "Straße", "Apfel", "Strasse", "Zoo", "Öl", "Ofen", "Strand", "apfel"]),
        ("sv", ["Zebra", "Åsa", "Ära", "Öl", "Anna", "Ödla", "Ärt", "ost", "Ålborg"]),
    ])
    func theSortedExtensionPutsTextsWhereAListPutsItsRows(language: String, names: [String]) throws {
        let (f, s) = try list(names, language: language)
        let sorted = try f.engine.text(f.root, "books/name/sorted/join('|')")
        #expect(sorted?.components(separatedBy: "|") == (try rows(s)))
        let expected = ["pl": Self.polishOrder,
                        "ru": ["ёжик", "Елена", "Ёлка", "Игла", "йод", "Ястреб", "apple", "Zed"],
                        "de": ["Apfel", "apfel", "Äpfel", "Ofen", "Öl", "Strand", "Strasse", "Straße", "Zoo"],
                        "sv": ["Anna", "ost", "Zebra", "Ålborg", "Åsa", "Ära", "Ärt", "Ödla", "Öl"]]
        #expect(sorted?.components(separatedBy: "|") == expected[language])
    }

    @Test func theSortedExtensionFollowsTheLanguage() throws {
        let (f, _) = try list([], language: "en")
        let values: Value = .list([.string("Lwów"), .int(3), .null, .string("Mak"), .string("Łabędź"), .string("Банан")])
        let sorted = try #require(f.engine.extensions.resolve(for: values, name: "sorted"))
        func order() throws -> String? { try sorted(values, [], f.engine).displayString }
        #expect(try order() == "3, Łabędź, Lwów, Mak, Банан", "English: ł is an l, Latin first; nil last")
        f.engine.locale = AppLocale(language: "pl")
        #expect(try order() == "3, Lwów, Łabędź, Mak, Банан")
        f.engine.locale = AppLocale(language: "ru")
        #expect(try order() == "3, Банан, Łabędź, Lwów, Mak")
    }

    /// ASCII texts are in the order they always had (lower-cased bytes, then as written), whatever the language.
    @Test(arguments: ["en", "pl", "ru", "sv"])
    func asciiTextsKeepTheirOrderInEveryLanguage(language: String) throws {
        let names = ["b_a", "ba", "Ba", "BA", "a b", "[x", "~z", "Z1", "z0", "10", "9", "a-b", "A"]
        let (_, s) = try list(names, language: language)
        let expected = names.sorted { x, y in
            let (fx, fy) = (x.lowercased(), y.lowercased())
            return fx != fy ? Array(fx.utf8).lexicographicallyPrecedes(fy.utf8) : Array(x.utf8).lexicographicallyPrecedes(y.utf8)
        }
        #expect(try rows(s) == expected)
    }

    /// One total order over any mix: the full pass (ranks of distinct texts) and the comparison of rows one by one
    /// (rows followed as they come) agree, and both are transitive.
    @Test(arguments: ["pl", "ru", "de", "en"])
    func theFullPassAndRowByRowComparisonsAgree(language: String) throws {
        var rng = SplitMix64(seed: 5)
        let pieces = ["Ł", "l", "L", "ó", "o", "O", "é", "e", "E", "ё", "е", "Е", "й", "и", "ß", "ss", "z", "ż", "Ź",
                      "ä", "a", "æ", "ñ", "n", "_", " ", "1", "~", "ı", "I", "o\u{301}"]
        let texts = (0..<400).map { _ in (0..<(1 + rng.below(3))).map { _ in pieces[rng.below(pieces.count)] }.joined() }
        let order = ListRowOrder(grouped: false, sorted: true, groupAscending: true, ascending: true,
                                 collation: TextCollation(language: language))
        let ranks = try #require(ListRowOrder.ranks(texts.count, { .string(texts[$0]) }, ascending: true, order.collation))
        for _ in 0..<4_000 {
            let a = rng.below(texts.count), b = rng.below(texts.count)
            let c = order.main(.string(texts[a]), .string(texts[b]))
            let before = c != 0 ? c < 0 : ListRowOrder.tie(.string(texts[a]), .string(texts[b])) < 0
            #expect((ranks[a] < ranks[b]) == before, "\(texts[a]) / \(texts[b])")
        }
    }

    @Test func aNewLanguageSortsTheRowsAgain() throws {
        let (f, s) = try list(["Lwów", "Mak", "Łabędź"], language: "en")
        #expect(try rows(s) == ["Łabędź", "Lwów", "Mak"], "in English ł is an l: Łabędź is labedz")
        f.engine.locale = AppLocale(language: "pl")
        #expect(try rows(s) == ["Lwów", "Łabędź", "Mak"], "in Polish ł is a letter after l")
        let (g, t) = try list(["Ñu", "Nube", "Oso"], language: "en")
        #expect(try rows(t) == ["Ñu", "Nube", "Oso"], "in English ñ is an n")
        g.engine.locale = AppLocale(language: "es")
        #expect(try rows(t) == ["Nube", "Ñu", "Oso"], "in Spanish ñ is a letter after n")
    }

    @Test func rowsFollowedOneByOneLandWhereAFullPassPutsThem() throws {
        let (f, s) = try list(Self.polish, language: "pl", group: true)
        _ = try s.snapshot()
        let books = try f.engine.collection(f.root, "books")
        for name in ["Łania", "Lis", "Zebra", "Źrebię", "ładny", "Ósemka", "Osa"] {
            try f.engine.insert(.entity(f.engine.make("Book", ["name": .string(name)])), into: books)
            _ = try s.snapshot()
        }
        let followed = try rows(s)
        #expect(s.fullPasses == 1, "every add was followed row by row")
        var d = ListDeclaration(id: "books")
        (d.dataPath, d.cellPath, d.rowSort, d.group) = ("books", "name", "name", "name/initial")
        #expect(try rows(ListScreen(engine: f.engine, declaration: d, context: f.root)) == followed)
        #expect(followed == ["Cisza", "Ćma", "Dom", "Ewa", "Ęby", "Lalka", "Lis", "Łania", "Łódź", "ładny", "Mróz",
                             "Osa", "Ósemka", "Śnieg", "Tygrys", "Zamek", "Zebra", "Źrebię", "Żaba"], "section ł after Ł")
    }
}
