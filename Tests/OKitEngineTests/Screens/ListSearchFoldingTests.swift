import Foundation
import Testing
@testable import OKitEngine

/// Search folds what OKit's `searchNormalized` folds beyond case and Latin accents (screens.md "search"): width
/// (half-width katakana, full-width letters and digits), Arabic vowel marks and the hamza and madda on alef, and
/// canonical forms (NFC and NFD are one). A search of signs or emoji alone, which folds to nothing, is matched as
/// typed, case aside.
@Suite struct ListSearchFoldingTests {
    func screen(_ names: [String]) throws -> (ShopFixture, ListScreen) {
        let f = try ShopFixture()
        try f.start(books: names)
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        return (f, try ListScreen(engine: f.engine, declaration: d, context: f.root))
    }

    func found(_ screen: ListScreen, _ typed: String) throws -> Set<String> {
        screen.search(typed)
        return Set(try screen.snapshot(offset: 0, limit: 100).sections.flatMap(\.rows).compactMap(\.text))
    }

    @Test func widthIsFolded() throws {
        let (_, s) = try screen(["カレーライス", "ｶﾂ丼", "ＡＢＣサラダ", "123 soup", "Tomato", "かつ煮"])
        for (typed, rows) in [("ｶﾚｰ", ["カレーライス"]), ("カレー", ["カレーライス"]), ("カツ", ["ｶﾂ丼"]), ("ｶﾂ", ["ｶﾂ丼"]),
                              ("abc", ["ＡＢＣサラダ"]), ("ＡＢＣ", ["ＡＢＣサラダ"]), ("ａｂｃ", ["ＡＢＣサラダ"]),
                              ("１２３", ["123 soup"]), ("123", ["123 soup"]), ("ＴＯＭ", ["Tomato"])] {
            #expect(try found(s, typed) == Set(rows), "\(typed)")
        }
        #expect(try found(s, "かつ") == ["かつ煮"], "hiragana and katakana stay apart")
    }

    @Test func arabicMarksAndTheHamzaOnAlefAreFolded() throws {
        let (_, s) = try screen(["كَبْسَة", "مُلُوخِيَّة", "أرز بالحليب", "إدام", "آيس كريم", "كبـــة", "Crème brûlée"])
        for (typed, rows) in [("كبسة", ["كَبْسَة"]), ("كَبْسَة", ["كَبْسَة"]), ("ملوخية", ["مُلُوخِيَّة"]), ("ارز", ["أرز بالحليب"]),
                              ("أرز", ["أرز بالحليب"]), ("ادام", ["إدام"]), ("ايس", ["آيس كريم"]), ("كبة", ["كبـــة"]),
                              ("brulee", ["Crème brûlée"])] {
            #expect(try found(s, typed) == Set(rows), "\(typed)")
        }
        #expect(SearchText.normalize("שָׁלוֹם") == SearchText.normalize("שלום"), "Hebrew points too")
    }

    @Test func canonicallyEqualTextsAreOne() throws {
        let (_, s) = try screen(["ガトー", "カ\u{3099}ンモ", "ｶﾞﾑ", "カステラ", "E\u{301}lan", "Éclair"])
        for typed in ["ガ", "カ\u{3099}", "ｶﾞ"] {
            #expect(try found(s, typed) == ["ガトー", "カ\u{3099}ンモ", "ｶﾞﾑ"], "\(typed.unicodeScalars.map(\.value))")
        }
        #expect(try found(s, "カ") == ["カステラ"], "a kana's voiced mark is kept: カ is not ガ")
        #expect(try found(s, "é") == ["E\u{301}lan", "Éclair"])
        #expect(try found(s, "e\u{301}c") == ["Éclair"])
    }

    @Test func aSearchOfSignsOrEmojiAloneIsMatchedAsTyped() throws {
        let (f, s) = try screen(["餃子 🥟", "Dumplings", "C++ Primer", "C# in Depth", "Ravioli 🥟🥟", "R2-D2"])
        #expect(try found(s, "🥟") == ["餃子 🥟", "Ravioli 🥟🥟"])
        #expect(try s.snapshot().search == SearchSnapshot(visible: true, text: "🥟"))
        #expect(try found(s, " 🥟🥟 ") == ["Ravioli 🥟🥟"], "spaces around it aside")
        #expect(try found(s, "++") == ["C++ Primer"])
        #expect(try found(s, "#") == ["C# in Depth"])
        #expect(try found(s, "-") == ["R2-D2"])
        #expect(try found(s, "🍜").isEmpty, "nothing matches: no row, not every row")
        #expect(try found(s, "   ").count == 6, "a blank search filters nothing")
        #expect(try found(s, "c++") == ["C++ Primer", "C# in Depth"], "with a letter, OKit's rule: signs are ignored")
        #expect(try found(s, "🥟 餃") == ["餃子 🥟"])
        _ = try found(s, "🥟")
        try f.engine.set(f.book(1), "name", .string("Dumplings 🥟"))
        #expect(Set(try s.snapshot(offset: 0, limit: 100).sections.flatMap(\.rows).compactMap(\.text)) == ["餃子 🥟", "Ravioli 🥟🥟", "Dumplings 🥟"],
                "a row changed while the search is shown is matched again")
    }

    /// Texts of a list's first search folded from the sort keys in place and those folded one by one agree.
    @Test func theFoldingIsTheSameAlongEveryPath() throws {
        let names = ["ｶﾚｰ", "カレー", "ＡＢＣ", "كَبْسَة", "أرز", "カ\u{3099}", "ガ", "Ærø", "naïve"]
        let (_, s) = try screen(names)
        _ = try s.snapshot()
        for n in names {
            let expected = Set(names.filter { SearchText.contains(SearchText.normalize($0), SearchText.normalize(n)) })
            #expect(try found(s, n) == expected, "\(n)")
        }
        #expect(SearchText.normalize("ｶﾚｰ") == SearchText.normalize("カレー"))
        #expect(SearchText.normalize("Ａｂｃ１２３") == "abc123")
        #expect(SearchText.normalize("Crème Brûlée") == "cremebrule")
    }
}
