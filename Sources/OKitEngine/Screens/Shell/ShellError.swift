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

    public var description: String {
        func b(_ s: String, _ limit: Int = 40) -> String { ShellError.brief(s, limit) }
        func list(_ items: [String]) -> String { ShellError.briefList(items) }
        switch self {
        case .duplicateScreen(let id): return "screen \"\(id)\" is declared twice"
        case .unknownKind(let kind, let id, let kinds):
            return "screen \"\(id)\" is of kind \"\(b(kind))\", which this app does not know (kinds: \(list(kinds)))"
        case .unknownScreen(let id, let known): return "no screen \"\(b(id))\" (declared: \(list(known)))"
        case .unknownTab(let id, let tabs): return "no tab \"\(b(id))\" (tabs: \(list(tabs)))"
        case .noHome: return "the app has no home screen (okit.app { home = \"screen id\" })"
        case .notStarted: return "the app shell has not started"
        case .atHome: return "already at the first screen of this tab"
        case .atPresentedRoot: return "already at the first screen of the presented screens (close them with close)"
        case .nothingPresented: return "no screen is presented (close dismisses presented screens; use back for pushed ones)"
        case .noHelp(let id): return "screen \"\(id)\" has no help (set help = \"…\")"
        case .noMenu: return "the app has no menu (okit.app { menu = \"screen id\" })"
        case .screenClosed:
            return "the entity the screen showed was removed meanwhile, so the screen closed and the command was not run; look again and repeat it"
        case .notYet(let what): return "\(what) is not available yet"
        case .ambiguousRow(let k, let c): return "\"\(b(k))\" matches rows \(list(c)); address one by its position or id"
        case .noRowMatching(let k, let c, let n):
            return c.isEmpty ? "no row \"\(b(k))\" (the list has \(ShellError.count(n, "row")); address rows by position, id or text)"
                : "no row \"\(b(k))\" (did you mean \(list(c.map { "\"\(b($0))\"" }))?)"
        case .noButton(let x, let all): return "no button \"\(b(x))\" (buttons: \(list(all)))"
        case .noMenuItem(let x, let all): return "no menu item \"\(b(x))\" (menu items: \(list(all)))"
        case .noContext(let x): return "the context binding \"\(b(x))\" does not reach an entity"
        case .noSearch(let id): return "screen \"\(id)\" has no search (set search = \"#true\")"
        case .searchTooLong(let n): return "search text too long (\(n) characters; the limit is \(SearchText.maxLength)): the search is unchanged"
        case .noCell(let c, let cells, let meant):
            return "no cell \"\(b(c))\" (\(meant.map { "did you mean \"\(b($0))\"? " } ?? "")cells: \(list(cells)))"
        case .notEditable(let c): return "cell \"\(b(c))\" takes no value"
        case .notEditing(let c): return "cell \"\(b(c))\" takes values in edit mode only (edit on first)"
        case .badValue(let c, let expected): return "cell \"\(b(c))\" takes \(expected)"
        case .noRow(let r, let count): return "no row \(b(r, 48)) (the list has \(ShellError.count(count, "row")))"
        case .noCellAt(let c, let count): return "no cell \(b(c, 48)) (the screen has \(ShellError.count(count, "cell")))"
        case .noSegue(let id): return "rows of screen \"\(id)\" open nothing (set segue)"
        case .wrongKind(let cmd, let kind): return "\(cmd) is not a command of \(kind) screens"
        case .noAlert: return "no alert is waiting for an answer"
        case .noAction(let a, let actions): return "no action \"\(b(a))\" (actions: \(list(actions)))"
        case .noScope(let s, let scopes):
            return "no search scope \"\(b(s))\" (scopes: \(list(scopes)); pass a scope's title or its 1-based position)"
        case .alertPending(let cmd): return "an alert is waiting: answer it with respond before \(cmd)"
        case .notAllowed(let cmd, let id): return "screen \"\(id)\" does not allow \(cmd)"
        case .disabled(let what, let row): return "the \(what) of row \(b(row, 48)) is disabled"
        case .disabledButton(let name): return "the bar button \"\(b(name, 48))\" is disabled now (its enabledPath is false)"
        case .disabledCellAccessory(let cell): return "the accessory of cell \"\(b(cell, 48))\" is disabled now (its accyEnabled is false)"
        case .covered(let cmd): return "the app is covered by its protection: authenticate before \(cmd)"
        case .notCovered: return "the app is not covered (authenticate answers the protection cover)"
        case .authenticationFailed: return "authentication failed: the app stays covered"
        case .worded(let text): return text
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

    /// `n` things: `1 row`, `6 rows`.
    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    /// Names in a message, each brief, cut with "… (n more)" past about `limit` characters.
    static func briefList(_ items: [String], _ limit: Int = 160) -> String {
        var out = ""
        for (i, item) in items.enumerated() {
            let b = brief(item, 48)
            if i > 0, out.count + b.count + 2 > limit { return out + ", … (\(items.count - i) more)" }
            out += (i > 0 ? ", " : "") + b
        }
        return out
    }
}
