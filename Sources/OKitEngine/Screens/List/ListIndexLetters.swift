import Foundation

/// The letters present in a list's index (`index`): the first letter of each section title, A–Z or `#`, in the
/// order of the sections — kept with their row counts so that a row moving in or out changes them without a pass
/// over every row (the unfiltered list only; a search computes them over its matches). The snapshot shows OKit's
/// whole index (`alphabet`); these say where a chosen letter leads (`target`).
struct ListIndexLetters {
    /// OKit's index as it is shown: "A"…"Z" then "#", whatever sections there are.
    static let alphabet: [String] = (0x41...0x5A).map { String(UnicodeScalar(UInt8($0))) } + ["#"]

    /// The alphabets of the languages written in Greek or Cyrillic letters (a letter that goes with another one in
    /// the language's order, Russian Ё with Е, is not one of the index), and of those written in Latin letters with
    /// letters of their own, as iOS's indexed collation has them (Turkish without Q, W, X; a title starting with
    /// a letter the index lacks is under "#"), and iOS's Japanese and Korean ones. German, French, English and
    /// Chinese keep A–Z (a Chinese title is under "#").
    static let alphabets: [String: String] = [
        "tr": "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ", "az": "ABCÇDEƏFGĞHXIİJKQLMNOÖPRSŞTUÜVYZ",
        "pl": "AĄBCĆDEĘFGHIJKLŁMNŃOÓPQRSŚTUVWXYZŹŻ", "cs": "ABCČDEFGHIJKLMNOPQRŘSŠTUVWXYZŽ",
        "sk": "AÄBCČDĎEFGHIJKLĽMNOÔPQRSŠTŤUVWXYZŽ", "es": "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ",
        "sv": "ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖ", "fi": "ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖ",
        "da": "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ", "nb": "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ",
        "nn": "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ", "no": "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ",
        "ru": "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ", "uk": "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ",
        "be": "АБВГДЕЁЖЗІЙКЛМНОПРСТУЎФХЦЧШЫЬЭЮЯ", "bg": "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЬЮЯ",
        "sr": "АБВГДЂЕЖЗИЈКЛЉМНЊОПРСТЋУФХЦЧЏШ", "mk": "АБВГДЃЕЖЗЅИЈКЛЉМНЊОПРСТЌУФХЦЧЏШ",
        "el": "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ",
        // iOS's: the 五十音 rows, or the 14 basic consonants, then A–Z (`EastAsianText.indexHead`).
        "ja": "あかさたなはまやらわABCDEFGHIJKLMNOPQRSTUVWXYZ", "ko": "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎABCDEFGHIJKLMNOPQRSTUVWXYZ",
    ]

    /// The index shown for an app's language (`tr`, `tr_TR`): its alphabet and "#" for a language in `alphabets`,
    /// else OKit's A–Z and "#".
    static func alphabet(for language: String) -> [String] {
        let base = String(language.prefix { $0 != "_" && $0 != "-" })
        return (alphabets[language] ?? alphabets[base]).map { $0.map(String.init) + ["#"] } ?? alphabet
    }

    /// `text` upper-cased as the index's language does: Turkish and Azerbaijani `i` is `İ` (`ı` is `I`).
    static func upper(_ text: String, in index: [String]) -> String {
        index.contains("İ") ? LanguageCase.upper(text, language: "tr") : text.uppercased()
    }

    /// Whether an index is OKit's A–Z one.
    static func isLatin(_ index: [String]) -> Bool { index.count == 27 && index.first == "A" && index[25] == "Z" }

    /// The index letter of a section title in `index`: its first letter upper-cased when the index has it, else
    /// that letter without its accent (Ё → Е), else "#"; full-width letters as their ordinary ones, a kana under
    /// its 五十音 row in the Japanese index, a Hangul syllable under its initial consonant in the Korean one. In the
    /// A–Z index, `letter(_:)`.
    static func letter(_ title: String?, in index: [String]) -> String {
        if isLatin(index) { return letter(title) }
        guard let c = title?.first, let u = c.unicodeScalars.first else { return "#" }
        var first = String(c)
        if u.value >= 0x3000 {
            let head = index.first == "あ" ? EastAsianText.row(u.value)
                : index.first == "ㄱ" ? EastAsianText.initialConsonant(u.value) : nil
            if let head { return head }
            let v = EastAsianText.narrow(u.value)
            if v < 0x80 { first = String(UnicodeScalar(UInt8(v))) }
        }
        let upper = ListIndexLetters.upper(first, in: index)
        if index.contains(upper) { return upper }
        let bare = upper.folding(options: .diacriticInsensitive, locale: nil)
        return index.contains(bare) && bare != "#" ? bare : "#"
    }

    /// The index's letters in the order a list puts their titles: the index's own, except in Japanese, where
    /// Latin titles sort before kana (ICU's) while iOS's index shows the kana first.
    static func listOrder(_ index: [String]) -> [String] {
        guard index.first == "あ" else { return index }
        let latin = index.filter { $0.utf8.count == 1 && $0 != "#" }
        return latin + index.filter { $0.utf8.count > 1 } + ["#"]
    }

    /// The letter a chosen index letter leads to among the letters present (`present`, in the sections' order):
    /// the letter itself when a section starts with it, else the first letter after it (in `listOrder`);
    /// nil when none comes after it (the list's last section is the place then) or `letter` is not one of the
    /// index (lower-case letters are taken as upper-case). `#` leads to the sections of other titles (digits,
    /// signs) and only there (nil without them: never to a letter's section); a letter past the last one leading
    /// to `#` jumped to the list's top.
    static func target(of letter: String, present: [String], in index: [String] = alphabet) -> String? {
        let upper = ListIndexLetters.upper(letter, in: index)
        let order = listOrder(index)
        guard let want = order.firstIndex(of: upper) else { return nil }
        if upper == "#" { return present.contains("#") ? "#" : nil }
        return present.filter { $0 != "#" && (order.firstIndex(of: $0) ?? -1) >= want }
            .min { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) }
    }

    private(set) var letters: [String] = []
    private var counts: [String: Int] = [:]
    /// Each letter's rows are together: a row can join its letter without changing the letters' order.
    private var contiguous = true

    /// The index letter of a section title as one byte, `A`…`Z` or `#` (no string made for an ASCII title).
    static func letterByte(_ title: String?) -> UInt8 {
        guard let b = title?.utf8.first else { return 0x23 }
        if b >= 0x41 && b <= 0x5A { return b }
        if b >= 0x61 && b <= 0x7A { return b - 32 }
        if b < 0x80 { return 0x23 }
        // Full-width: the ordinary letter's (`Ａ` is `A`).
        if let u = title?.unicodeScalars.first, u.value >= 0xFF01, case let v = EastAsianText.narrow(u.value), v < 0x80 {
            return letterByte(String(UnicodeScalar(UInt8(v))))
        }
        // Other text: its first character upper-cased, when that is one of A–Z.
        let first = title?.first.map { String($0).uppercased() } ?? "#"
        return first.count == 1 && ("A"..."Z").contains(first) ? first.utf8.first ?? 0x23 : 0x23
    }

    /// The index letter of a section title: `A`…`Z` or `#`.
    static func letter(_ title: String?) -> String { String(UnicodeScalar(letterByte(title))) }

    /// The letters of rows whose titles' letters (`letterByte`) are these, in order, counted in a table of 128
    /// (a list's first snapshot read 100,000 titles, retaining each, to count at most 27 letters).
    init<S: Sequence>(letterBytes: S) where S.Element == UInt8 {
        var count = [Int](repeating: 0, count: 128)
        var order: [UInt8] = []
        var current: UInt8 = 0
        for b in letterBytes {
            let l = Int(b & 0x7F)
            if b == current { count[l] += 1; continue }
            if count[l] > 0 { contiguous = false } else { order.append(UInt8(l)) }
            count[l] += 1
            current = b
        }
        letters = order.map { String(UnicodeScalar($0)) }
        for l in order { counts[String(UnicodeScalar(l))] = count[Int(l)] }
    }

    /// A row of title `title` came in at position `p` (`title(i)` gives the titles after it came in); false when
    /// the letters must be computed again.
    mutating func inserted(_ title: String?, at p: Int, count: Int, title at: (Int) -> String?) -> Bool {
        guard contiguous else { return false }
        let l = ListIndexLetters.letter(title)
        let before = p > 0 ? ListIndexLetters.letter(at(p - 1)) : nil
        let after = p + 1 < count ? ListIndexLetters.letter(at(p + 1)) : nil
        if let n = counts[l], n > 0 {
            guard before == l || after == l else { return false }
            counts[l] = n + 1
            return true
        }
        if let before, let after, before == after { return false }   // inside another letter's rows
        let i = before.flatMap { b in letters.firstIndex(of: b).map { $0 + 1 } } ?? 0
        letters.insert(l, at: i)
        counts[l] = 1
        return true
    }

    /// A row of title `title` went out.
    mutating func removed(_ title: String?) {
        let l = ListIndexLetters.letter(title)
        guard let n = counts[l] else { return }
        if n <= 1 {
            counts[l] = nil
            letters.removeAll { $0 == l }
        } else {
            counts[l] = n - 1
        }
    }
}
