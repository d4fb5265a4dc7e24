import Foundation
import Synchronization

/// The order of texts in an app's language (screens.md "rowSort"): a list's text keys and sections.
///
/// Three levels, as a collation has them: the letters (case and accents folded, except the letters the language
/// counts as letters of their own), then the accents (`e` before `é`, `Е` before `Ё`), then the case (upper-case
/// first, as ASCII has it). ASCII texts keep their order — each character is its lower-cased byte, signs and
/// digits before the letters — so a list of ASCII names is in the same order in every language; callers compare
/// two ASCII texts by their bytes without this.
///
/// Which letters are letters of their own, and where, comes from the language's collation in ICU (through
/// Foundation), for the Latin, Greek and Cyrillic letters: Polish ł sorts after l, ż after ź after z; Russian й
/// after и, while ё goes with е; Spanish ñ after n; Swedish å ä ö after z; German ä goes with a. Each such letter
/// is weighed just after the letter the collation puts it after, so the order stays one total order for any mix
/// of texts, ASCII or not, and a text's place never depends on the other texts of the list.
///
/// The scripts come in the language's order too (CLDR's `[reorder …]`, as ICU has it): Latin, Greek, Cyrillic in
/// most languages; Cyrillic first in Russian, Ukrainian, Bulgarian, Serbian, …; Greek first in Greek; Latin, kana,
/// kanji in Japanese. Each weight carries its script's place in its top three bits (`ScriptOrder`), ASCII signs
/// and digits before every script. Full-width and half-width forms weigh as their ordinary ones, and kana by
/// their sound (`EastAsianText`).
final class TextCollation {
    let language: String
    private var built: Letters?

    init(language: String) { self.language = language }

    /// The language's letters of their own and its order of scripts (built once per language, on first use).
    var letters: Letters {
        if let built { return built }
        let l = TextCollation.letters(for: language)
        built = l
        return l
    }

    /// Each letter of its own (lower- and upper-case scalar) and its weight (before its script's place is added).
    var weights: [UInt32: UInt32] { letters.table }

    /// Whether a text is ASCII.
    @inline(__always)
    static func isASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }

    /// The weight of an ASCII byte: the byte lower-cased, shifted to leave room for the letters after it.
    @inline(__always)
    static func asciiWeight(_ b: UInt32) -> UInt32 { (b >= 65 && b <= 90 ? b + 32 : b) << 8 }

    /// A text's letters: one weight per character, case and accents folded except the language's own letters.
    func primary(_ text: String) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(text.utf8.count)
        let letters = self.letters, table = letters.table, scripts = letters.scripts
        // Decomposed accents (o + U+0301) are composed first, so that Polish `ó` is one letter however written.
        let s = !table.isEmpty && text.unicodeScalars.contains { (0x300...0x36F).contains($0.value) }
            ? text.precomposedStringWithCanonicalMapping : text
        var run = String.UnicodeScalarView()
        func flush() {
            guard !run.isEmpty else { return }
            for f in FoldedText.fold(String(run)).unicodeScalars {
                out.append(scripts.placed(f.value < 0x80 ? TextCollation.asciiWeight(f.value) : f.value << 8))
            }
            run = String.UnicodeScalarView()
        }
        var kana: UInt32 = 0   // the plain kana before (`ー` and `ゝ` repeat it), else 0
        for u in s.unicodeScalars {
            if u.value >= 0x3000, let w = TextCollation.eastAsian(u.value, after: &kana) {
                flush()
                if w != 0 { out.append(scripts.placed(w)) }
                continue
            }
            kana = 0
            if u.value < 0x80 {
                flush()
                out.append(scripts.placed(TextCollation.asciiWeight(u.value)))
            } else if let w = table[u.value] {
                flush()
                out.append(scripts.placed(w))
            } else {
                run.append(u)
            }
        }
        flush()
        return out
    }

    /// The weight of a full-width or half-width form (its ordinary form's) or of a kana (its plain hiragana's; 0 for
    /// a voicing mark, weighed with the accents), `kana` the plain kana it leaves for a `ー` after it; nil for any
    /// other character (`EastAsianText`).
    @inline(__always)
    static func eastAsian(_ value: UInt32, after kana: inout UInt32) -> UInt32? {
        let v = EastAsianText.narrow(value)
        if v < 0x80 {
            kana = 0
            return asciiWeight(v)
        }
        if let p = EastAsianText.plainKana(v) {
            kana = p
            return p << 8
        }
        if v == 0x3099 || v == 0x309A { return 0 }
        if kana != 0, EastAsianText.repeatsKana(v) { return EastAsianText.repeated(v, after: kana) << 8 }
        return nil
    }

    /// The letters' order of two ASCII texts: their bytes lower-cased, compared without a copy.
    @inline(__always)
    static func compareASCIILetters(_ a: String, _ b: String) -> Int {
        var i = a.utf8.makeIterator(), j = b.utf8.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let p?, let q?):
                let (x, y) = (p >= 65 && p <= 90 ? p + 32 : p, q >= 65 && q <= 90 ? q + 32 : q)
                if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// Lexicographic order of two weight sequences: −1, 0 or 1.
    static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// The letters' order of two texts: −1, 0 or 1.
    func compareLetters(_ a: String, _ b: String) -> Int {
        TextCollation.compare(primary(a), primary(b))
    }

    /// The order of two texts with the same letters: accents (case folded), then case; 0 only for the same text.
    static func tie(_ a: String, _ b: String) -> Int {
        if !isASCII(a) || !isASCII(b) {
            // Accents and a kana's voicing first (`Ｅ` before `é`, `ハ` before `ば`), then width, kana and case.
            let (x, y) = (EastAsianText.secondary(a), EastAsianText.secondary(b))
            var c = ValueOrder.compareScalars(x.lowercased(), y.lowercased())
            if c == 0, x != a || y != b { c = ValueOrder.compareScalars(a.lowercased(), b.lowercased()) }
            if c != 0 { return c }
        }
        return ValueOrder.compareScalars(a, b)
    }

    /// A language's letters of their own and its order of scripts.
    struct Letters: Sendable {
        let table: [UInt32: UInt32]
        let scripts: ScriptOrder
    }

    private static let cache = Mutex<[String: Letters]>([:])

    /// The letters of a language (built once per language: a few hundred comparisons in ICU).
    static func letters(for language: String) -> Letters {
        if let l = cache.withLock({ $0[language] }) { return l }
        let l = Letters(table: CollationTable.build(language), scripts: ScriptOrder(language: language))
        cache.withLock { $0[language] = l }
        return l
    }
}

/// The order of the scripts in a language, as ICU's collation of the language has it (CLDR's `[reorder …]`:
/// Cyrillic first in Russian, Greek in Greek, Latin, kana, then kanji in Japanese, Hangul then Han in Korean, Han in
/// Chinese): a weight's script place is its top three bits — 0 for the ASCII signs and digits (before every
/// letter, as ASCII has them), 1–7 for Latin, Greek, Cyrillic, the other scripts (in the order of their code
/// points, as before), Hangul, kana and Han, in the language's order.
struct ScriptOrder: Sendable, Equatable {
    /// Each script's place (1…7).
    let latin: UInt32, greek: UInt32, cyrillic: UInt32, other: UInt32, hangul: UInt32, kana: UInt32, han: UInt32

    init(latin: UInt32 = 1, greek: UInt32 = 2, cyrillic: UInt32 = 3, other: UInt32 = 4, hangul: UInt32 = 5,
         kana: UInt32 = 6, han: UInt32 = 7) {
        (self.latin, self.greek, self.cyrillic, self.other) = (latin, greek, cyrillic, other)
        (self.hangul, self.kana, self.han) = (hangul, kana, han)
    }

    /// The language's order: its collation's order of `a`, Greek `α`, Cyrillic `а`, Hebrew `א` (for the other
    /// scripts), Hangul `가`, kana `あ` and Han `一`.
    init(language: String) {
        let locale = Locale(identifier: language)
        let probes = ["a", "\u{3B1}", "\u{430}", "\u{5D0}", "\u{AC00}", "\u{3042}", "\u{4E00}"]
        let first = probes.sorted { $0.compare($1, options: [], range: nil, locale: locale) == .orderedAscending }
        let place = { (i: Int) in UInt32((first.firstIndex(of: probes[i]) ?? i) + 1) }
        self.init(latin: place(0), greek: place(1), cyrillic: place(2), other: place(3), hangul: place(4),
                  kana: place(5), han: place(6))
    }

    /// A weight (a character's value shifted left by 8, its step after the letter it follows below) with its
    /// script's place above it. Greek Extended counts as Greek; Hangul Jamo and compatibility Jamo as Hangul.
    @inline(__always)
    func placed(_ weight: UInt32) -> UInt32 {
        let v = weight >> 8
        let place: UInt32
        if v < 0x61 { place = 0 }
        else if v < 0x370 { place = latin }
        else if v < 0x400 { place = greek }
        else if v < 0x530 { place = cyrillic }
        else if v < 0x3040 {
            if v >= 0x1F00 && v < 0x2000 { place = greek }
            else if v >= 0x1100 && v < 0x1200 { place = hangul }
            else { place = other }
        }
        else { place = eastAsian(v) }
        return place << 29 | weight
    }

    /// The place of a character from U+3040 on.
    private func eastAsian(_ v: UInt32) -> UInt32 {
        if v < 0x3100 || (v >= 0x31F0 && v < 0x3200) { return kana }
        if (v >= 0x3130 && v < 0x3190) || (v >= 0xAC00 && v < 0xD800) || (v >= 0xA960 && v < 0xA980) { return hangul }
        if (v >= 0x3400 && v < 0x4DC0) || (v >= 0x4E00 && v < 0xA000) || (v >= 0xF900 && v < 0xFB00)
            || (v >= 0x20000 && v < 0x32000) { return han }
        return other
    }
}

/// Building a language's table of letters of their own (`TextCollation`).
enum CollationTable {
    /// The scripts whose letters are placed: Latin (the Latin-1 letters, Latin Extended-A, Romanian's ș ț and
    /// Vietnamese's ơ ư), Greek, Cyrillic.
    static let scripts: [[ClosedRange<UInt32>]] = [
        [0x61...0x7A, 0xDF...0x17F, 0x1A0...0x1B0, 0x218...0x21B],
        [0x3AC...0x3CE],
        [0x430...0x45F, 0x490...0x4FF],
    ]

    static func build(_ language: String) -> [UInt32: UInt32] {
        let locale = Locale(identifier: language)
        var table: [UInt32: UInt32] = [:]
        for ranges in scripts {
            let letters = ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init).map { String($0) }
                .filter { $0.lowercased() == $0 && $0.first?.isLetter == true }
            place(groups(letters, locale), into: &table)
        }
        return table
    }

    /// The letters in the language's order, those it counts as one letter together (accents and case aside).
    ///
    /// Two letters are one when a digit after them decides their order: "e9" after "é0" (Foundation's
    /// `.diacriticInsensitive` drops the accents before the language sees them, so Polish ę was e). Digits make
    /// no contraction with a letter, as Hungarian's `gy` or Czech's `ch` would.
    static func groups(_ letters: [String], _ locale: Locale) -> [[String]] {
        let sorted = letters.sorted { $0.compare($1, options: [], range: nil, locale: locale) == .orderedAscending }
        var groups: [[String]] = []
        for c in sorted {
            if let first = groups.last?.first,
               (first + "9").compare(c + "0", options: [], range: nil, locale: locale) == .orderedDescending {
                groups[groups.count - 1].append(c)
            } else {
                groups.append([c])
            }
        }
        return groups
    }

    /// A letter's weight without the table: its folded form's, when that is one character (else nil: `ß` is `ss`).
    static func plainWeight(_ letter: String) -> UInt32? {
        let f = FoldedText.fold(letter).unicodeScalars
        guard f.count == 1, let u = f.first else { return nil }
        return u.value < 0x80 ? TextCollation.asciiWeight(u.value) : u.value << 8
    }

    /// Gives each group a weight: groups whose own weights already follow the language's order keep them (ASCII
    /// letters always; of the others, the longest run in order), and each other group the weight of the group
    /// before it plus 1, 2, … (Polish ł: l's + 1). Letters whose weight changes go into the table, with their
    /// upper-case forms.
    static func place(_ groups: [[String]], into table: inout [UInt32: UInt32]) {
        let isASCII = { (letter: String) in letter.unicodeScalars.allSatisfy(\.isASCII) }
        // A group's own weight: its ASCII letter's, else its first letter's (the language's form of it: е of ё).
        let own = groups.map { g in g.first(where: isASCII).flatMap(plainWeight) ?? g.lazy.compactMap(plainWeight).first }
        let fixed = groups.map { g in g.contains(where: isASCII) }
        let lastFixed = fixed.lastIndex(of: true) ?? -1
        var keeps = [Bool](repeating: false, count: groups.count)
        for i in groups.indices where fixed[i] { keeps[i] = true }
        // After the last ASCII letter: the longest increasing run of own weights above it keeps them (Swedish å
        // after z is no a).
        let floor = lastFixed >= 0 ? own[lastFixed] ?? 0 : 0
        let tail = Array((lastFixed + 1)..<groups.count)
        for i in longestIncreasing(tail.map { own[$0].flatMap { $0 > floor ? $0 : nil } }) { keeps[tail[i]] = true }
        var anchor: UInt32?
        var step: UInt32 = 0
        for (i, g) in groups.enumerated() {
            let weight: UInt32
            if keeps[i], let w = own[i] {
                anchor = w
                step = 0
                weight = w
            } else if let a = anchor, own[i] != nil, step < 255 {
                step += 1
                weight = a | step
            } else {
                continue
            }
            for letter in g where !letter.unicodeScalars.allSatisfy(\.isASCII) {
                guard let w = plainWeight(letter), w != weight else { continue }
                for form in [letter, letter.uppercased()] {
                    let u = form.unicodeScalars
                    if u.count == 1, let s = u.first, !s.isASCII { table[s.value] = weight }
                }
            }
        }
    }

    /// The positions of a longest strictly increasing run of the values (nil values never in it).
    static func longestIncreasing(_ values: [UInt32?]) -> [Int] {
        var length = [Int](repeating: 0, count: values.count)
        var previous = [Int](repeating: -1, count: values.count)
        var best = -1
        for i in values.indices {
            guard let v = values[i] else { continue }
            length[i] = 1
            for j in 0..<i {
                if let w = values[j], w < v, length[j] + 1 > length[i] { length[i] = length[j] + 1; previous[i] = j }
            }
            if best < 0 || length[i] > length[best] { best = i }
        }
        var run: [Int] = []
        var i = best
        while i >= 0 { run.append(i); i = previous[i] }
        return run.reversed()
    }
}
