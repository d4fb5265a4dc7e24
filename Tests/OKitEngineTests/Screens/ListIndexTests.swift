import Testing
@testable import OKitEngine

/// OKit's section index (issue 36 item 10): a grouped list with `index` shows "A"…"Z" and "#" whatever sections
/// there are; a letter without a section leads to the next section after it (A…Z, then "#"), else the last one.
@Suite struct ListIndexTests {
    func list(_ names: [String], _ configure: (inout ListDeclaration) -> Void = { _ in }) throws -> (ShopFixture, ListScreen) {
        let f = try ShopFixture()
        try f.start(books: names)
        f.engine.extensions.register("string", "initial") { v, _, _ in .string(String((v.displayString ?? "").prefix(1)).uppercased()) }
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        d.group = "name/initial"
        d.index = "#true"
        configure(&d)
        return (f, try ListScreen(engine: f.engine, declaration: d, context: f.root))
    }

    static let alphabet = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R",
                           "S", "T", "U", "V", "W", "X", "Y", "Z", "#"]

    @Test func theIndexIsTheWholeAlphabetAndHash() throws {
        let (_, screen) = try list(["Dune", "Emma", "Anna"])
        let snap = try screen.snapshot()
        #expect(snap.index == Self.alphabet, "27 letters, not only A, D and E")
        #expect(snap.sections.map(\.header) == ["A", "D", "E"])
        let (_, empty) = try list([])
        #expect(try empty.snapshot().index == Self.alphabet, "shown even before there are rows")
    }

    @Test func aListWithoutGroupingOrIndexHasNone() throws {
        let (_, ungrouped) = try list(["Dune"]) { $0.group = "" }
        #expect(try ungrouped.snapshot().index == [])
        #expect(try ungrouped.indexRow("D") == nil, "OKit's index does nothing without grouping")
        let (_, off) = try list(["Dune"]) { $0.index = "" }
        #expect(try off.snapshot().index == [])
    }

    @Test func aLetterLeadsToItsSectionOrTheNextOne() throws {
        // Rows: Anna (1), Dune (2), Dusk (3), Emma (4), Zed (5).
        let (_, screen) = try list(["Dune", "Emma", "Anna", "Zed", "Dusk"])
        #expect(try screen.indexRow("A") == 1)
        #expect(try screen.indexRow("D") == 2)
        #expect(try screen.indexRow("b") == 2, "B has no section: D is the next one; lower case is taken")
        #expect(try screen.indexRow("F") == 5, "F…Y lead to Z")
        #expect(try screen.indexRow("#") == nil, "no title outside A–Z: # leads to no letter's section")
        #expect(try screen.indexRow("?") == nil, "not a letter of the index")
        let snap = try screen.snapshot()
        #expect(snap.indexSection("C") == 1 && snap.indexSection("E") == 2 && snap.indexSection("#") == nil)
    }

    @Test func hashHoldsTitlesNotStartingWithALetterAndSearchNarrowsTheTargets() throws {
        let (_, screen) = try list(["2001", "Dune", "Anna"])
        // Digits sort first: 2001 (1, section "2"), Anna (2), Dune (3).
        #expect(try screen.snapshot().sections.map(\.header) == ["2", "A", "D"])
        #expect(try screen.indexRow("#") == 1)
        #expect(try screen.indexRow("E") == 3, "no letter after E has a section: the last one, not # at the top")
        #expect(try screen.snapshot().indexSection("Z") == 2)
        screen.search("dune")
        #expect(try screen.indexRow("A") == 1, "the rows shown: Dune is row 1")
    }

    /// out-ru finding 4: in a language written in Cyrillic letters the index is its alphabet and "#", and each
    /// letter leads to its section (every A–Z letter led to the last one). Cyrillic comes before Latin in Russian
    /// (CLDR's `[reorder Cyrl]`), so the Latin titles under "#" are after Я, where the index shows "#".
    @Test func aRussianListsIndexIsTheRussianAlphabet() throws {
        let (f, screen) = try list(["Ёлка", "Елена", "Жук", "Ястреб", "Anna", "йод"])
        f.engine.locale = AppLocale(language: "ru")
        let snap = try screen.snapshot()
        #expect(snap.index == "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ".map(String.init) + ["#"], "no Ё: it goes with Е")
        // Rows: Елена (1), Ёлка (2), Жук (3), йод (4, section "Й"), Ястреб (5), Anna (6, "#").
        #expect(snap.sections.map(\.header) == ["Е", "Ё", "Ж", "Й", "Я", "A"])
        #expect(try screen.indexRow("Е") == 1)
        #expect(try screen.indexRow("Ж") == 3)
        #expect(try screen.indexRow("З") == 4, "З has no section: Й is the next one")
        #expect(try screen.indexRow("Я") == 5)
        #expect(try screen.indexRow("#") == 6, "a Latin title is under #, after the Russian ones")
        #expect(try screen.indexRow("Ё") == nil && screen.indexRow("A") == nil, "not letters of this index")
        #expect(snap.indexSection("Е") == 0 && snap.indexSection("К") == 4 && snap.indexSection("#") == 5)
        f.engine.locale = AppLocale(language: "pl")
        #expect(try screen.snapshot().index == "AĄBCĆDEĘFGHIJKLŁMNŃOÓPQRSŚTUVWXYZŹŻ".map(String.init) + ["#"])
        f.engine.locale = AppLocale(language: "de", region: "AT")
        #expect(try screen.snapshot().index == Self.alphabet, "German keeps A–Z")
    }

    /// out-turkish finding 6: a Turkish list's index is the Turkish alphabet (Ç Ğ İ Ö Ş Ü, no Q W X), and "#" leads
    /// to the titles outside it, never to a letter's section (it led to Ç's).
    @Test func aTurkishListsIndexIsTheTurkishAlphabet() throws {
        let (f, screen) = try list(["Çılbır", "Cacık", "İçli Köfte", "Irmik", "Ispanaklı", "Öğmeç", "Otlu", "2001"])
        f.engine.extensions.register("string", "initial") { v, _, _ in .string(StringExtensions.initial(v.displayString ?? "")) }
        f.engine.locale = AppLocale(language: "tr", region: "TR")
        let snap = try screen.snapshot()
        #expect(snap.index == "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ".map(String.init) + ["#"])
        // Rows: 2001 (1), Cacık (2), Çılbır (3), Irmik (4), Ispanaklı (5), İçli Köfte (6), Otlu (7), Öğmeç (8).
        #expect(snap.sections.map(\.header) == ["2", "C", "Ç", "I", "İ", "O", "Ö"])
        #expect(try screen.indexRow("Ç") == 3 && screen.indexRow("Ğ") == 4 && screen.indexRow("İ") == 6)
        #expect(try screen.indexRow("Ö") == 8 && screen.indexRow("#") == 1)
        #expect(try screen.indexRow("Q") == nil, "not a letter of the Turkish index")
        #expect(snap.indexSection("#") == 0 && snap.indexSection("Ç") == 2 && snap.indexSection("Ş") == 6)
    }
}
