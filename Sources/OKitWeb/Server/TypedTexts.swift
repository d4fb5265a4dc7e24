import OKitEngine

/// What one session's person typed into cells that refused it (web.md "Pages and forms": nothing a person types is
/// dropped), at one place: the session's pages there show each text in its field, marked invalid with the refusal
/// beside it (``RefusedText``), until the person sets that cell again (accepted: forgotten; refused: the new text),
/// leaves the place, or the cell stops taking typed values (edit mode left, the cell gone).
///
/// A page that shows one is the session's own (`WebApp.shownPage`): never a shared page, never a fast answer, so no
/// other session viewing the same screen sees it.
struct TypedTexts: Equatable {
    /// Where they were typed: the location's path (`LocationPath.path`).
    private(set) var place = ""
    /// By the cell's address on the page (its id, else its position).
    private(set) var cells: [String: RefusedText] = [:]

    var isEmpty: Bool { cells.isEmpty }

    /// Keeps `text`, refused by the cell at `cell` on the page at `place` (what was kept at another place goes).
    mutating func keep(_ text: String, refusal: String, cell: String, at place: String) {
        if place != self.place { cells = [:] }
        self.place = place
        cells[cell] = RefusedText(text: text, refusal: refusal)
    }

    mutating func forget(cell: String) {
        cells[cell] = nil
    }

    /// What the page at `place` showing `snapshot` shows: everything goes when the person is elsewhere, and so
    /// does a cell that is gone or takes no typed values now.
    mutating func shown(at place: String, _ snapshot: Snapshot) -> [String: RefusedText] {
        guard !cells.isEmpty else { return [:] }
        if place != self.place {
            cells = [:]
            return [:]
        }
        let still = cells.filter { key, _ in WebApp.shownRow(key, in: snapshot).map(RefusedText.typed(into:)) == true }
        if still.count != cells.count { cells = still }
        return cells
    }
}

extension WebApp {
    /// The cell a `set` form names when a person types into it (``RefusedText/typed(into:)``), by the address its
    /// page gives it (its id, else the position posted); nil for other cells and other commands.
    static func typingCell(_ name: String, _ request: WebRequest, shown: Snapshot) -> String? {
        guard name == "set", let address = request.field("cell"), let row = shownRow(address, in: shown),
              RefusedText.typed(into: row) else { return nil }
        return row.id.flatMap { $0.isEmpty ? nil : $0 } ?? address
    }

    /// Before a `set` runs: the text the person typed into that cell before is forgotten (they changed it; what
    /// they send now is kept instead when it is refused too). The cell's address, for `keepTyped`.
    func forgetTyped(_ name: String, _ request: WebRequest, _ ws: WebSession, shown: Snapshot) -> String? {
        guard let cell = WebApp.typingCell(name, request, shown: shown) else { return nil }
        ws.typed.forget(cell: cell)
        return cell
    }

    /// After that `set` was refused (`ws.error` says why): what was typed is kept for the session's pages at
    /// `place`.
    func keepTyped(_ cell: String?, _ request: WebRequest, _ ws: WebSession, at place: String) {
        guard let cell, let text = request.field("value"), let refusal = ws.error else { return }
        ws.typed.keep(text, refusal: refusal, cell: cell, at: place)
    }
}
