import Foundation
import Testing
@testable import OKitEngine

/// A Japanese user's findings (probe-ja, sort): with `language = "ja"` a list's rows and sections came in code point
/// order (every hiragana before every katakana, full-width digits and Latin after kanji, half-width katakana last),
/// `name/initial` split `カニ` from `かき`, and the index was A–Z with every letter leading to the last section.
/// Now: ICU's `ja` order (digits, Latin, kana by sound, kanji), iOS's index (あ か さ … わ, A–Z, #), and width
/// never moves a digit or a Latin letter, in any language.
@Suite struct ListJapaneseOrderTests {
    /// A list of books named `names`, sorted by name, grouped by the built-in `name/initial` when `group`.
    func list(_ names: [String], language: String, group: Bool = false, index: Bool = false) throws -> (ShopFixture, ListScreen) {
        let f = try ShopFixture()
        f.engine.locale = AppLocale(language: language)
        try f.start(books: names)
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        if group { d.group = "name/initial" }
        if index { d.index = "#true" }
        return (f, try ListScreen(engine: f.engine, declaration: d, context: f.root))
    }

    func rows(_ s: ListScreen) throws -> [String] {
        try s.snapshot(offset: 0, limit: 1_000).sections.flatMap { $0.rows.compactMap(\.text) }
    }

    static let probe = ["きのこ", "カニ", "かき", "ｶﾒ", "Ａpple", "banana", "漢字", "ア", "あ", "ぱん", "はな", "ばら",
                        "ヴァイオリン", "ゔ", "1番", "１０番", "2番"]

    @Test func japaneseRowsAreInICUsJapaneseOrder() throws {
        let (_, s) = try list(Self.probe, language: "ja")
        // As ICU's `ja` collation (Foundation's String.compare with the `ja` locale) puts them; of texts equal but
        // for hiragana and katakana, the hiragana first.
        #expect(try rows(s) == ["１０番", "1番", "2番", "Ａpple", "banana", "あ", "ア", "ゔ", "ヴァイオリン", "かき", "カニ",
                                "ｶﾒ", "きのこ", "はな", "ばら", "ぱん", "漢字"])
    }

    @Test func aVoicedKanaComesAfterItsPlainOneBeforeTheNextLetter() throws {
        let (_, s) = try list(["ぱ", "ハ", "ば", "は", "ひ", "ﾊﾞ", "バ", "ほ"], language: "ja")
        #expect(try rows(s) == ["は", "ハ", "ば", "バ", "ﾊﾞ", "ぱ", "ひ", "ほ"], "voicing before kana and width")
        let (_, t) = try list(["コーヒー", "こうちゃ", "こおり", "ここ", "ゴール"], language: "ja")
        #expect(try rows(t) == ["こうちゃ", "コーヒー", "こおり", "ゴール", "ここ"], "ー is the vowel before it: コーヒー is こおひい")
    }

    @Test func japaneseSectionsGroupKanaByTheirRowAsIOSsIndexDoes() throws {
        let (_, s) = try list(Self.probe, language: "ja", group: true)
        let sections = try s.snapshot(offset: 0, limit: 1_000).sections
        #expect(sections.map(\.header) == ["1", "１", "2", "Ａ", "b", "あ", "か", "は", "漢"])
        #expect(sections.first { $0.header == "か" }?.rows.compactMap(\.text) == ["かき", "カニ", "ｶﾒ", "きのこ"])
        #expect(sections.first { $0.header == "あ" }?.rows.compactMap(\.text) == ["あ", "ア", "ゔ", "ヴァイオリン"])
    }

    @Test func theInitialOfAKanaIsItsRowInJapaneseOnly() throws {
        let (f, _) = try list([], language: "ja")
        func initial(_ s: String) throws -> String? {
            try f.engine.extensions.resolve(for: .string(s), name: "initial")?(.string(s), [], f.engine).displayString
        }
        #expect(try ["カニ", "かき", "ｶﾒ", "ギター", "ん", "を", "ゔ", "Ａpple", "漢字"].map(initial)
                == ["か", "か", "か", "か", "わ", "わ", "あ", "Ａ", "漢"])
        f.engine.locale = AppLocale(language: "ko")
        #expect(try ["가방", "까치", "나무", "하늘", "apple"].map(initial) == ["ㄱ", "ㄱ", "ㄴ", "ㅎ", "a"])
        f.engine.locale = AppLocale(language: "en")
        #expect(try ["カニ", "가방"].map(initial) == ["カ", "가"], "OKit's first character in other languages")
    }

    @Test func aJapaneseIndexIsIOSsAndEachLetterLeadsToItsSection() throws {
        let (_, s) = try list(Self.probe, language: "ja", group: true, index: true)
        let snap = try s.snapshot(offset: 0, limit: 1_000)
        #expect(snap.index == "あかさたなはまやらわ".map(String.init) + (0x41...0x5A).map { String(UnicodeScalar(UInt8($0))) } + ["#"])
        // Sections: 1 (0), １ (1), 2 (2), Ａ (3), b (4), あ (5), か (6), は (7), 漢 (8).
        #expect(snap.indexSection("あ") == 5 && snap.indexSection("か") == 6 && snap.indexSection("は") == 7)
        #expect(snap.indexSection("さ") == 7, "さ has no section: は is the next one in the list")
        #expect(snap.indexSection("A") == 3, "full-width Ａ is under A")
        #expect(snap.indexSection("C") == 5, "C…Z have no section: the kana after them")
        #expect(snap.indexSection("わ") == 8, "past the last kana: the last section")
        #expect(snap.indexSection("#") == 0)
        // Rows: 1番 (1, section 1), １０番 (2, section １), 2番, Ａpple, banana (5), あ, ア, ゔ, ヴァイオリン, かき (10) …
        #expect(try s.indexRow("か") == 10 && s.indexRow("B") == 5 && s.indexRow("#") == 1)
    }

    @Test func aKoreanListIsInHangulOrderAndIndexedByInitialConsonant() throws {
        let (_, s) = try list(["하늘", "apple", "가방", "까치", "나무", "漢字", "2"], language: "ko", group: true, index: true)
        let snap = try s.snapshot(offset: 0, limit: 1_000)
        #expect(snap.sections.map(\.header) == ["2", "ㄱ", "ㄴ", "ㅎ", "漢", "a"], "ICU's ko: Hangul, Han, then Latin")
        #expect(snap.index == "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ".map(String.init) + (0x41...0x5A).map { String(UnicodeScalar(UInt8($0))) } + ["#"])
        #expect(snap.indexSection("ㄱ") == 1 && snap.indexSection("ㄷ") == 3 && snap.indexSection("A") == 5)
    }

    @Test func aChineseListKeepsAToZAndPutsHanUnderHash() throws {
        let (_, s) = try list(["北京", "apple", "上海", "Zoo"], language: "zh", group: true, index: true)
        let snap = try s.snapshot(offset: 0, limit: 1_000)
        #expect(snap.index.count == 27 && snap.index.first == "A")
        #expect(snap.sections.map(\.header) == ["上", "北", "a", "Z"], "ICU's zh: Han first (by code point here)")
        #expect(snap.indexSection("#") == 0 && snap.indexSection("A") == 2 && snap.indexSection("Z") == 3)
    }

    /// Width never changes where a digit or a Latin letter goes (screens.md: signs and digits before every letter).
    @Test(arguments: ["en", "de", "ja", "ru"])
    func fullWidthDigitsAndLettersSortWithTheirOrdinaryOnes(language: String) throws {
        let (_, s) = try list(["Ｚebra", "apple", "Ａpple", "１", "2", "Bär", "ｂanana", "Zoo"], language: language)
        #expect(try rows(s) == ["１", "2", "apple", "Ａpple", "ｂanana", "Bär", "Ｚebra", "Zoo"])
        let (_, g) = try list(["Ａpple", "apple", "ｂanana"], language: language, group: true, index: true)
        let snap = try g.snapshot()
        #expect(snap.sections.map(\.header) == ["a", "Ａ", "ｂ"])
        if language != "ru" { #expect(snap.indexSection("B") == 2, "Ｂ is under B") }
    }

    /// The full pass's ranks and the row-by-row comparison agree over a mix of kana, width and Latin.
    @Test(arguments: ["ja", "en", "ko"])
    func theFullPassAndRowByRowComparisonsAgreeOverKana(language: String) throws {
        var rng = SplitMix64(seed: 7)
        let pieces = ["か", "カ", "ｶ", "が", "ガ", "ｶﾞ", "か\u{3099}", "ー", "ゝ", "ぁ", "あ", "ア", "Ａ", "a", "１", "1",
                      "漢", "가", "ㄱ", "é", "E", " ", "　", "ヷ", "わ"]
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

    @Test func halfWidthKatakanaAreTheirFullWidthOnes() {
        let half = (0xFF66...0xFF9D).map { String(UnicodeScalar(UInt32($0))!) }.joined()
        #expect(String(String.UnicodeScalarView(EastAsianText.halfWidthKatakana.compactMap(UnicodeScalar.init)))
                == half.precomposedStringWithCompatibilityMapping)
    }
}
