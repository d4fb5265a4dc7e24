import Foundation

/// How a command's name for something is matched against what a screen shows (screens.md: "case and accents
/// aside"): rows, cells, options, menu items, scopes, tabs, switch and on/off words. `FoldedText.fold` (the one
/// sort folding) and, as search does, Turkish and Azerbaijani's dotless `ı` as `i` — `İ` folds to `i` already — so
/// `ISPANAKLI BÖREK` names "Ispanaklı Börek" and `HAYIR` is "Hayır" in every language, whatever letter the
/// keyboard had. One folding for all matchers; the sort order (TextCollation) keeps `FoldedText.fold`.
public enum MatchedText {
    public static func fold(_ s: String) -> String {
        let f = FoldedText.fold(s)
        guard f.unicodeScalars.contains("\u{131}") else { return f }
        return String(String.UnicodeScalarView(f.unicodeScalars.map { $0 == "\u{131}" ? "i" : $0 }))
    }

    /// The one of `names` that `typed` matches case and accents aside (`food` for "Food"); nil when none or more
    /// than one does.
    public static func looseMatch(_ typed: String, _ names: [String]) -> Int? {
        let key = fold(typed.trimmingCharacters(in: .whitespaces))
        let hits = names.indices.filter { fold(names[$0]) == key }
        return hits.count == 1 ? hits[0] : nil
    }

    /// Whether two texts are the same case and accents aside.
    public static func same(_ a: String, _ b: String) -> Bool { fold(a) == fold(b) }
}
