import Foundation

/// How a command's name for something is matched against what a screen shows (screens.md: "case and accents
/// aside"): rows, cells, options, menu items, scopes, tabs, alert actions, switch and on/off words. Search's
/// folding (`SearchText.folded`): case, accents and width aside — `ｶﾞｿﾘﾝ` names "ガソリン" and `ＡＢＣ` "abc", as a
/// Japanese input method types either — and, as search does, Turkish and Azerbaijani's dotless `ı` as `i` (`İ`
/// folds to `i` already), so `ISPANAKLI BÖREK` names "Ispanaklı Börek" and `HAYIR` is "Hayır" in every language,
/// whatever letter the keyboard had. Unlike search, signs and repeated letters count. One folding for all
/// matchers; the sort order (TextCollation) keeps `FoldedText.fold`.
public enum MatchedText {
    public static func fold(_ s: String) -> String {
        // ASCII folds to its lower case alone (no width, no accents): no Foundation.
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return FoldedText.fold(s) }
        let f = SearchText.folded(s)
        guard f.unicodeScalars.contains("\u{131}") else { return f }
        return String(String.UnicodeScalarView(f.unicodeScalars.map { $0 == "\u{131}" ? "i" : $0 }))
    }

    /// The one of `names` that `typed` matches case, accents and width aside (`food` for "Food", `ｶﾞｽ代` for
    /// "ガス代"); nil when none or more than one does.
    public static func looseMatch(_ typed: String, _ names: [String]) -> Int? {
        let key = fold(typed.trimmingCharacters(in: .whitespaces))
        let hits = names.indices.filter { fold(names[$0]) == key }
        return hits.count == 1 ? hits[0] : nil
    }

    /// Whether two texts are the same case, accents and width aside.
    public static func same(_ a: String, _ b: String) -> Bool { fold(a) == fold(b) }
}
