import Foundation

/// Upper- and lower-casing in an app's language (the `upper`, `lower` and `capitalize` extensions): Turkish and
/// Azerbaijani pair `i` with `İ` and `ı` with `I` (`pilav` → `PİLAV`, `IRMIK` → `ırmık`), and Lithuanian keeps the
/// dot of an `i` under an accent. Every other language cases as Unicode does, without Foundation's locales (the
/// plain `String` casing: the fast path).
enum LanguageCase {
    /// The languages whose casing differs from Unicode's default (ICU's special casing).
    static let special: Set<String> = ["tr", "az", "lt"]

    /// The Foundation locale to case `language` with, or nil when the default casing is its own.
    static func locale(_ language: String) -> Locale? {
        let base = String(language.prefix { $0 != "_" && $0 != "-" }).lowercased()
        return special.contains(base) ? Locale(identifier: base) : nil
    }

    static func upper(_ s: String, language: String) -> String {
        guard let locale = locale(language), !isASCIIWithoutI(s) else { return s.uppercased() }
        return s.uppercased(with: locale)
    }

    static func lower(_ s: String, language: String) -> String {
        guard let locale = locale(language), !isASCIIWithoutI(s) else { return s.lowercased() }
        return s.lowercased(with: locale)
    }

    /// The first character upper-cased, the rest as it is (`istanbul pilavı` → `İstanbul pilavı` in Turkish).
    static func capitalize(_ s: String, language: String) -> String {
        guard let first = s.first else { return "" }
        return upper(String(first), language: language) + s.dropFirst()
    }

    /// ASCII text with no `i` or `I`: cased the same in every language.
    private static func isASCIIWithoutI(_ s: String) -> Bool {
        s.utf8.allSatisfy { $0 < 0x80 && $0 != 0x49 && $0 != 0x69 }
    }
}
