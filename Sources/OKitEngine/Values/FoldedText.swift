import Foundation

/// A text with case and diacritics folded, as a person's name for something is matched against what is shown
/// (`menge` for `Menge`, `fallig` for `Fällig`): ASCII without Foundation, other text by Foundation's folding.
/// `ListScreen.fold` is this; the shell's own matches (tabs, switch words) use it here, naming no screen kind.
enum FoldedText {
    static func fold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        }
        return s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
