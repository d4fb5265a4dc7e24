import OKitEngine

/// How the terminal shell draws one screen kind's content: the lines under the title, bar buttons and help (the
/// tabs, title, buttons, help and alert are the same for every kind). A kind of one's own brings its lines in its
/// `ScreenKind.renderers["terminal"]`.
protocol TerminalScreenKind: Sendable {
    func lines(_ screen: ScreenSnapshot, _ shell: TerminalShell) -> [String]
}

/// Sections of numbered rows or cells, as every built-in kind shows them; `windowed`: a list's "… N more" when
/// the rows shown are a window of its rows; `marksSelection`: a list's rows selected in edit mode (`selectPath`)
/// show `[x]` (a detail's `selected` cell is the one taking a picker's choice, not a selection).
struct RowsLines: TerminalScreenKind {
    var windowed = false
    var marksSelection = false
    func lines(_ screen: ScreenSnapshot, _ shell: TerminalShell) -> [String] {
        shell.rowsLines(screen, windowed: windowed, marksSelection: marksSelection)
    }
}

/// The terminal's lines of the screen kinds, by kind name: the built-in ones, with those of an app's own kinds
/// over them. A kind without lines of its own is drawn as sections of rows.
struct TerminalKinds {
    private(set) var kinds: [String: any TerminalScreenKind] = ["list": RowsLines(windowed: true, marksSelection: true)]
    let fallback: any TerminalScreenKind = RowsLines()

    init(_ screenKinds: ScreenKinds = .builtIn) {
        for kind in screenKinds.kinds {
            if let lines = kind.renderer("terminal", as: (any TerminalScreenKind).self) { kinds[kind.name] = lines }
        }
    }

    func lines(for kind: String) -> any TerminalScreenKind { kinds[kind] ?? fallback }
}
