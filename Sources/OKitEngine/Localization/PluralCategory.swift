import Foundation

/// CLDR's plural categories of a count (cardinal): which form of a word a number takes in a language. English has
/// `one` (1 book) and `other` (0 books, 2 books); Russian also `few` (2 книги, 22 книги) and `many` (5 книг, 11
/// книг), and `other` for fractions (1,5 книги); Arabic all six. An app gives the forms beyond the singular and
/// the plain plural in its strings (lua-api.md "Counts"): `books = { few = "книги", many = "книг", other = "книги" }`.
public enum PluralCategory: String, CaseIterable, Sendable, Comparable {
    case zero, one, two, few, many, other

    public static func < (a: PluralCategory, b: PluralCategory) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The category of `n` in `language` (`ru`, `pl_PL`; `region` decides Portuguese only: `pt_PT` as English).
    /// The languages with more than two forms follow CLDR's rules (ru, uk, be, pl, cs, sk, hr, sr, bs, sl, lt, lv,
    /// ro, ar, he); French and Portuguese (Brazil) take `one` for 0 and 1 (`i = 0,1`), every other language for
    /// exactly 1, as OKit did.
    public static func of(_ n: Double, language: String, region: String = "") -> PluralCategory {
        let base = (BuiltInWords.base(of: language) ?? language).lowercased()
        guard let rule = rules[base] else {
            if AppLocale.zeroIsSingular(language: language, region: region) { return abs(n) < 2 ? .one : .other }
            return n == 1 ? .one : .other
        }
        return rule(PluralOperands(n))
    }

    /// The categories `language` has besides `one` and `other` for whole numbers or fractions (`few`, `many` in
    /// Russian); empty for a language whose counts take only the singular and the plural.
    public static func extra(in language: String) -> [PluralCategory] {
        let base = (BuiltInWords.base(of: language) ?? language).lowercased()
        guard let rule = rules[base] else { return [] }
        var found = Set<PluralCategory>()
        for n in 0...200 { found.insert(rule(PluralOperands(Double(n)))) }
        for n in [0.5, 1.5, 2.5, 5.5, 0.1, 1.2] { found.insert(rule(PluralOperands(n))) }
        return found.subtracting([.one, .other]).sorted()
    }

    /// CLDR's rules (cldr-json `plurals-type-cardinal`) by base language; a language not here has `one` and `other`.
    static let rules: [String: @Sendable (PluralOperands) -> PluralCategory] = [
        "ru": eastSlavic, "uk": eastSlavic, "be": belarusian, "pl": polish, "cs": westSlavic, "sk": westSlavic,
        "hr": southSlavic, "sr": southSlavic, "bs": southSlavic, "sh": southSlavic, "sl": slovenian,
        "lt": lithuanian, "lv": latvian, "ro": romanian, "mo": romanian, "ar": arabic, "ars": arabic,
        "he": hebrew, "iw": hebrew,
    ]

    /// Russian, Ukrainian: 1, 21 one; 2–4, 22–24 few; 0, 5–20, 25 many; fractions other.
    static func eastSlavic(_ o: PluralOperands) -> PluralCategory {
        guard o.v == 0 else { return .other }
        let i10 = o.i % 10, i100 = o.i % 100
        if i10 == 1 && i100 != 11 { return .one }
        if (2...4).contains(i10) && !(12...14).contains(i100) { return .few }
        return .many
    }

    /// Belarusian: as Russian on n (1.0 is one), other fractions other.
    static func belarusian(_ o: PluralOperands) -> PluralCategory {
        guard o.f == 0 else { return .other }
        return eastSlavic(PluralOperands(i: o.i, v: 0, f: 0))
    }

    /// Polish: 1 one; 2–4, 22–24 few (not 12–14); 0, 5–21, 25 many; fractions other.
    static func polish(_ o: PluralOperands) -> PluralCategory {
        guard o.v == 0 else { return .other }
        if o.i == 1 { return .one }
        let i10 = o.i % 10, i100 = o.i % 100
        return (2...4).contains(i10) && !(12...14).contains(i100) ? .few : .many
    }

    /// Czech, Slovak: 1 one; 2–4 few; fractions many; 0, 5 and more other.
    static func westSlavic(_ o: PluralOperands) -> PluralCategory {
        guard o.v == 0 else { return .many }
        if o.i == 1 { return .one }
        return (2...4).contains(o.i) ? .few : .other
    }

    /// Croatian, Serbian, Bosnian: 1, 21 (and 0.1, 1.1) one; 2–4, 22–24 few; 0, 5–20 other.
    static func southSlavic(_ o: PluralOperands) -> PluralCategory {
        let i10 = o.i % 10, i100 = o.i % 100, f10 = o.f % 10, f100 = o.f % 100
        if o.v == 0 && i10 == 1 && i100 != 11 || f10 == 1 && f100 != 11 { return .one }
        if o.v == 0 && (2...4).contains(i10) && !(12...14).contains(i100) || (2...4).contains(f10) && !(12...14).contains(f100) {
            return .few
        }
        return .other
    }

    /// Slovenian: 1, 101 one; 2, 102 two; 3, 4, 103 and fractions few; 0, 5–19, 100 other.
    static func slovenian(_ o: PluralOperands) -> PluralCategory {
        guard o.v == 0 else { return .few }
        switch o.i % 100 {
        case 1: return .one
        case 2: return .two
        case 3, 4: return .few
        default: return .other
        }
    }

    /// Lithuanian: 1, 21 one; 2–9, 22–29 few (not 11–19); fractions many; 0, 10–20, 30 other.
    static func lithuanian(_ o: PluralOperands) -> PluralCategory {
        guard o.f == 0 else { return .many }
        let n10 = o.i % 10, n100 = o.i % 100
        if (11...19).contains(n100) { return .other }
        if n10 == 1 { return .one }
        return n10 >= 2 ? .few : .other
    }

    /// Latvian: 0, 10–20, 30 zero; 1, 21 (not 11) one; 2–9, 22–29 other (fractions by their digits).
    static func latvian(_ o: PluralOperands) -> PluralCategory {
        let whole = o.f == 0
        if whole && (o.i % 10 == 0 || (11...19).contains(o.i % 100)) || o.v == 2 && (11...19).contains(o.f % 100) { return .zero }
        if whole && o.i % 10 == 1 && o.i % 100 != 11 || o.v == 2 && o.f % 10 == 1 && o.f % 100 != 11
            || o.v != 2 && o.f % 10 == 1 { return .one }
        return .other
    }

    /// Romanian: 1 one; 0, 2–19, 101–119 and fractions few ("2 cărți"); 20 and more other ("20 de cărți").
    static func romanian(_ o: PluralOperands) -> PluralCategory {
        if o.i == 1 && o.v == 0 { return .one }
        let whole = o.f == 0
        if o.v != 0 || whole && o.i == 0 || whole && o.i != 1 && (1...19).contains(o.i % 100) { return .few }
        return .other
    }

    /// Arabic: 0 zero; 1 one; 2 two; 3–10, 103–110 few; 11–99, 111 many; 100–102 and fractions other.
    static func arabic(_ o: PluralOperands) -> PluralCategory {
        guard o.f == 0 else { return .other }
        switch o.i {
        case 0: return .zero
        case 1: return .one
        case 2: return .two
        default:
            let n100 = o.i % 100
            return (3...10).contains(n100) ? .few : (11...99).contains(n100) ? .many : .other
        }
    }

    /// Hebrew: 1 and fractions below 1 one; 2 two; everything else other.
    static func hebrew(_ o: PluralOperands) -> PluralCategory {
        if o.i == 1 && o.v == 0 || o.i == 0 && o.v != 0 { return .one }
        return o.i == 2 && o.v == 0 ? .two : .other
    }
}

/// CLDR's operands of a number: `i` its whole part, `v` how many fraction digits it shows, `f` those digits
/// (1.5: i 1, v 1, f 5). A count is shown as its shortest decimal, so 5.0 is 5 (v 0) and 1.25 has v 2.
struct PluralOperands {
    let i: Int
    let v: Int
    let f: Int

    init(i: Int, v: Int, f: Int) {
        self.i = i
        self.v = v
        self.f = f
    }

    init(_ n: Double) {
        let a = abs(n)
        guard a.isFinite, a < 1e15 else { self.init(i: a.isFinite ? 1_000_000 : 0, v: 0, f: 0); return }
        let whole = a.rounded(.towardZero)
        if whole == a { self.init(i: Int(whole), v: 0, f: 0); return }
        // The shortest text that reads back as `a` ("1.5", "0.1"), as a count shows it.
        let text = "\(a)"
        guard let dot = text.firstIndex(of: "."), !text.contains("e") else { self.init(i: Int(whole), v: 1, f: 0); return }
        let digits = text[text.index(after: dot)...].prefix(9)
        self.init(i: Int(whole), v: digits.count, f: Int(digits) ?? 0)
    }
}
