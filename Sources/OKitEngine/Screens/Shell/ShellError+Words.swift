/// A refusal a person meets, worded in a language's built-in words (docs/built-in-words.md): the shell's refusals
/// and the command line's that a person can make (`edit: "maybe" is neither on nor off`). Its English text is its
/// `description`; the terminal shell, JSON lines and flow tests say `text(_:)` in the app's language.
public protocol WordedRefusal: Error {
    func text(_ words: BuiltInWords) -> String
}

extension ShellError: WordedRefusal {
    /// The refusal in `words` (the app's language, its own strings over okit's). A programmer's refusal (a screen
    /// declared twice, a kind the app does not know, a property to set) stays English (`programmerText`).
    public func text(_ words: BuiltInWords) -> String {
        if let english = programmerText { return english }
        func b(_ s: String, _ limit: Int = 40) -> String { ShellError.brief(s, limit) }
        func list(_ items: [String]) -> String { ShellError.briefList(items, words) }
        switch self {
        case .unknownTab(let id, let tabs): return words(.noTab, b(id), list(tabs))
        case .atHome: return words(.atFirstScreen)
        case .atPresentedRoot: return words(.atFirstPresented)
        case .nothingPresented: return words(.nothingPresented)
        case .screenClosed: return words(.screenClosed)
        case .ambiguousRow(let k, let c): return words(.ambiguousRow, b(k), list(c))
        case .noRowMatching(let k, let c, let n):
            return c.isEmpty ? words(.noRowNamed, count: Double(n), b(k), String(n))
                : words(.noRowMeant, b(k), list(c.map { words(.quoted, b($0)) }))
        case .noButton(let x, let all): return words(.noButtonNamed, b(x), list(all))
        case .noMenuItem(let x, let all): return words(.noMenuItemNamed, b(x), list(all))
        case .searchTooLong(let n): return words(.searchTooLong, count: Double(n), String(n), String(SearchText.maxLength))
        case .noCell(let c, let cells, let meant):
            return meant.map { words(.noCellMeant, b(c), b($0), list(cells)) } ?? words(.noCellNamed, b(c), list(cells))
        case .notEditable(let c): return words(.takesNoValue, b(c))
        case .notEditing(let c): return words(.editOnFirst, b(c))
        case .noRow(let r, let count): return words(.noRowAt, count: Double(count), b(r, 48), String(count))
        case .noCellAt(let c, let count): return words(.noCellAt, count: Double(count), b(c, 48), String(count))
        case .noAlert: return words(.noAlertWaiting)
        case .noAction(let a, let actions): return words(.noActionNamed, b(a), list(actions))
        case .noScope(let s, let scopes): return words(.noScopeNamed, b(s), list(scopes))
        case .alertPending(let cmd): return words(.alertWaiting, cmd)
        case .disabledButton(let name): return words(.buttonDisabled, b(name, 48))
        case .disabledCellAccessory(let cell): return words(.accessoryDisabled, b(cell, 48))
        case .covered(let cmd): return words(.coveredFirst, cmd)
        case .notCovered: return words(.notCoveredNow)
        case .authenticationFailed: return words(.authenticationFailed)
        case .wrongKind(let cmd, let kind): return words(.notACommandOf, b(cmd), kind)
        case .disabled(let command, let row): return words(.disabledForRow, command, b(row, 48))
        case .notAllowed(let cmd, let id): return ShellError.personsRefusal(cmd).map { words($0, id, cmd) } ?? ""
        case .duplicateScreen, .unknownKind, .unknownScreen, .noHome, .notStarted, .noHelp, .noMenu, .notYet,
             .noContext, .noSearch, .badValue, .noSegue, .worded:
            return programmerText ?? ""
        }
    }

    /// The word of a command a screen does not allow that a person can meet — its state now, or a row's or the
    /// screen's flag binding false (`edit`, `add`, `delete`, …: a bare command as typed) — nil for one whose
    /// remedy is the app's declaration (`move (set reorder)`), which stays English (`programmerText`).
    static func personsRefusal(_ cmd: String) -> BuiltInWord? {
        if !cmd.contains(" ") { return .screenDoesNotAllow }
        return personsReasons[cmd]
    }

    private static let personsReasons: [String: BuiltInWord] = [
        "tap while editing": .tapWhileEditing, "move while searching": .moveWhileSearching,
        "move in a grouped list": .moveInGroupedList,
        "move outside edit mode (edit on first)": .moveOutsideEditMode,
        "select outside edit mode (edit on first)": .selectOutsideEditMode,
        "delete while selecting rows (edit mode with selectPath; edit off first)": .deleteWhileSelecting,
        "edit off (editAlways)": .editOffAlways,
    ]
}

extension CommandUsageError: WordedRefusal {
    /// The refusal in `words` when a person can make it (`edit: "maybe" is neither on nor off`), else its English
    /// message (an unknown command, a missing argument: the command line's words).
    public func text(_ words: BuiltInWords) -> String { worded?(words) ?? message }
}

extension Engine {
    /// The text a person reads for a command's error: a refusal (`WordedRefusal`) in the app's language, its own
    /// strings over okit's words; any other error as `Remedy.message` says it, its remedy in `wording`.
    public func refusalText(_ error: any Error, wording: (@Sendable (Remedy) -> String)?) -> String {
        guard let refusal = error as? any WordedRefusal else { return Remedy.message(for: error, wording: wording) }
        return refusal.text(BuiltInWords(language: locale.language, strings: strings))
    }
}
