/// A command that is not possible now: says why; nothing changed.
public enum ShellError: Error, CustomStringConvertible {
    case duplicateScreen(String)
    case unknownKind(String, screen: String, kinds: [String])
    case unknownScreen(String, known: [String])
    case unknownTab(String, tabs: [String])
    case noHome
    case notStarted
    case atHome
    case atPresentedRoot
    case nothingPresented
    case noHelp(String)
    case noMenu
    /// The screen the person was on showed an entity that was removed meanwhile: they were taken back.
    case screenClosed
    case notYet(String)
    case ambiguousRow(String, candidates: [String])
    case noRowMatching(String, candidates: [String], count: Int)
    case noButton(String, buttons: [String])
    case noMenuItem(String, items: [String])
    case noContext(String)
    case noSearch(String)
    case searchTooLong(Int)
    /// A name no cell has: the cells by their shown titles, and the one meant when a title is near.
    case noCell(String, cells: [String], meant: String? = nil)
    case notEditable(String)
    case notEditing(String)
    case badValue(String, String)
    case noRow(String, count: Int)
    /// A position or (section, cell) pair no visible cell of a detail screen has: how many cells it shows.
    case noCellAt(String, count: Int)
    case noSegue(String)
    case wrongKind(String, String)
    case noAlert
    case noAction(String, actions: [String])
    case noScope(String, scopes: [String])
    case alertPending(String)
    case notAllowed(String, String)
    case disabled(String, String)
    case disabledButton(String)
    case disabledCellAccessory(String)
    case covered(String)
    case notCovered
    case authenticationFailed
    /// A refusal already worded in the app's language for the person who answered (an alert's fields).
    case worded(String)

    /// The refusal in English (an app's English strings aside): `text(_:)` says it in the app's language.
    public var description: String { text(BuiltInWords.english) }

    /// A programmer's refusal — a mistake in the app's declarations, or a command the app is not set up for (its
    /// remedy is a property to set) — in English in every language; nil for a person's (`text(_:)`).
    var programmerText: String? {
        func b(_ s: String, _ limit: Int = 40) -> String { ShellError.brief(s, limit) }
        func list(_ items: [String]) -> String { ShellError.briefList(items) }
        switch self {
        case .duplicateScreen(let id): return "screen \"\(id)\" is declared twice"
        case .unknownKind(let kind, let id, let kinds):
            return "screen \"\(id)\" is of kind \"\(b(kind))\", which this app does not know (kinds: \(list(kinds)))"
        case .unknownScreen(let id, let known): return "no screen \"\(b(id))\" (declared: \(list(known)))"
        case .noHome: return "the app has no home screen (okit.app { home = \"screen id\" })"
        case .notStarted: return "the app shell has not started"
        case .noHelp(let id): return "screen \"\(id)\" has no help (set help = \"…\")"
        case .noMenu: return "the app has no menu (okit.app { menu = \"screen id\" })"
        case .notYet(let what): return "\(what) is not available yet"
        case .noContext(let x): return "the context binding \"\(b(x))\" does not reach an entity"
        case .noSearch(let id): return "screen \"\(id)\" has no search (set search = \"#true\")"
        case .badValue(let c, let expected): return "cell \"\(b(c))\" takes \(expected)"
        case .noSegue(let id): return "rows of screen \"\(id)\" open nothing (set segue)"
        case .notAllowed(let cmd, _) where ShellError.personsRefusal(cmd) != nil: return nil
        case .notAllowed(let cmd, let id): return "screen \"\(id)\" does not allow \(cmd)"
        case .worded(let text): return text
        default: return nil
        }
    }
}

extension ShellError {
    /// Text from a command or the models in a message: on one line, at most `limit` characters (a huge or
    /// multi-line key keeps the message to one line).
    public static func brief(_ s: String, _ limit: Int = 40) -> String {
        var t = String(s.prefix(limit + 1))
        if t.contains(where: \.isNewline) { t = t.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n") }
        return t.count > limit ? String(t.prefix(limit)) + "…" : t
    }

    /// Names in a message, each brief, joined as the language joins two (`listJoin`: `a, b`), cut with
    /// `… (n more)` past about `limit` characters.
    static func briefList(_ items: [String], _ words: BuiltInWords = .english, _ limit: Int = 160) -> String {
        var out = ""
        for (i, item) in items.enumerated() {
            let b = brief(item, 48)
            guard i > 0 else { out = b; continue }
            let joined = words(.listJoin, out, b)
            if joined.count > limit { return words(.listJoin, out, words(.listMore, String(items.count - i))) }
            out = joined
        }
        return out
    }
}
