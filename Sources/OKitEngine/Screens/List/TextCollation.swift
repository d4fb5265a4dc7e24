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
final class TextCollation {
    let language: String
    private var table: [UInt32: UInt32]?

    init(language: String) { self.language = language }

    /// Each letter of its own (lower- and upper-case scalar) and its weight.
    var weights: [UInt32: UInt32] {
        if let table { return table }
        let t = TextCollation.weights(for: language)
        table = t
        return t
    }

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
        let table = weights
        // Decomposed accents (o + U+0301) are composed first, so that Polish `ó` is one letter however written.
        let s = !table.isEmpty && text.unicodeScalars.contains { (0x300...0x36F).contains($0.value) }
            ? text.precomposedStringWithCanonicalMapping : text
        var run = String.UnicodeScalarView()
        func flush() {
            guard !run.isEmpty else { return }
            for f in FoldedText.fold(String(run)).unicodeScalars {
                out.append(f.value < 0x80 ? TextCollation.asciiWeight(f.value) : f.value << 8)
            }
            run = String.UnicodeScalarView()
        }
        for u in s.unicodeScalars {
            if u.value < 0x80 {
                flush()
                out.append(TextCollation.asciiWeight(u.value))
            } else if let w = table[u.value] {
                flush()
                out.append(w)
            } else {
                run.append(u)
            }
        }
        flush()
        return out
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
            let c = ValueOrder.compareScalars(a.lowercased(), b.lowercased())
            if c != 0 { return c }
        }
        return ValueOrder.compareScalars(a, b)
    }

    private static let built = Mutex<[String: [UInt32: UInt32]]>([:])

    /// The letters of its own of a language (built once per language: a few hundred comparisons in ICU).
    static func weights(for language: String) -> [UInt32: UInt32] {
        if let t = built.withLock({ $0[language] }) { return t }
        let t = CollationTable.build(language)
        built.withLock { $0[language] = t }
        return t
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
