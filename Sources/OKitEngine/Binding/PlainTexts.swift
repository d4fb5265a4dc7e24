import Foundation

/// A multipart property written as plain texts instead of bindings (`searchFilters = "fruit,veg"`, a picker's
/// `optionValues = "Dog,Cat,Bird"`): no binding marks (`#`, `%`, `/`, `=`, brackets, quotes, `@`, `$`), taken
/// literally as OKit and Action Data do — split at commas, each part trimmed.
enum PlainTexts {
    static let bindingMarks = "#%/={}()[]@'\"$"

    /// The parts of `text` when it is plain, else nil; `list`: only a text with a comma counts (a single word is
    /// a binding path there).
    static func parts(_ text: String, list: Bool = false) -> [String]? {
        guard !text.isEmpty, !list || text.contains(","), !text.contains(where: { bindingMarks.contains($0) }) else { return nil }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
