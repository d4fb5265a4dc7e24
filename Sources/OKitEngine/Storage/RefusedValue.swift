import Foundation

/// A value of a shared model the database refused (storage.md "Values a database refuses"), as a store's error
/// carries it for a person's page: the server's log and `okit/refused.jsonl` keep the details (the database's
/// reason, the row, the file), the page names only the field and the value (web.md "Durable per command").
public struct RefusedValue: Sendable, Equatable {
    /// The entity type.
    public let type: String
    /// The field refused; nil: a whole row (a new row, a deletion, or an edit no single field explains).
    public let field: String?
    /// The value as JSON (of a field), as in the model files.
    public let value: String
    /// Of a whole row read before: the fields it changed.
    public let changed: [String]

    public init(type: String, field: String?, value: String, changed: [String] = []) {
        self.type = type
        self.field = field
        self.value = value
        self.changed = changed
    }
}

extension Engine {
    /// `Not saved: Count "5000"` in the app's language: each refused field by its label (the app's strings) with
    /// the value as its cell shows it, a row refused whole by the fields it changed, a new row or a deletion by its
    /// type; at most three, then `…`.
    public func refusedNotice(_ refused: [RefusedValue]) -> String {
        let named: [String] = refused.prefix(3).map { r in
            let type = schema.type(named: r.type)
            if let f = r.field {
                let spec = type?.field(named: f)
                return (spec.map(fieldLabel) ?? f) + " " + word(.quoted, Self.brief(shownValue(json: r.value, spec)))
            }
            if !r.changed.isEmpty {
                return r.changed.map { f in type?.field(named: f).map(fieldLabel) ?? f }.joined(separator: ", ")
            }
            return strings.own(r.type, language: locale.language) ?? r.type
        }
        return word(.notSaved, named.joined(separator: ", ") + (refused.count > 3 ? ", …" : ""))
    }

    /// A value on one line, at most 48 characters (`…` past them), as the shell's refusals quote a person's text.
    private static func brief(_ s: String) -> String {
        let line = s.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
        return line.count > 48 ? String(line.prefix(48)) + "…" : line
    }
}
