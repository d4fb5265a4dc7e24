import OKitEngine

/// While a session records, a `set` from a form is run as a person names it in a test, so the line is what
/// `okit-run APP --record` writes for the same change (web.md "Development mode"): the cell by the title the page
/// shows (the form sends its id: `Amount` where the page says `金額`), a picker's choice by the option's name (the
/// form sends its position: `3` where the page says `Poetry`). Each only where it names the same cell or option
/// for sure, and a cell only by a title that is a label (its `path` a text, `%Amount`, not the data it shows:
/// bookshop's `name` cell is titled by the book's name); otherwise the form's address stays.
extension WebApp {
    /// `asSeen` for the session's page: the cells' labels from the screen's declaration.
    static func asSeen(_ name: String, _ args: [String: Value], _ ws: WebSession) -> [String: Value] {
        guard let shown = ws.shown else { return args }
        return asSeen(name, args, shown: shown, labelled: labelledCells(of: shown.screen.id, in: ws.shell).contains)
    }

    /// The ids of the detail screen's cells titled by a label (`path` a text: `%Amount`, `#Note`).
    static func labelledCells(of screen: String, in shell: AppShell) -> Set<String> {
        let cells = (shell.declaration(screen) as? DetailDeclaration)?.identifiedCells ?? []
        return Set(cells.filter { c in
            let path = c.cell["path"].trimmingCharacters(in: .whitespaces)
            return path.hasPrefix("%") || path.hasPrefix("#")
        }.map(\.id))
    }

    static func asSeen(_ name: String, _ args: [String: Value], shown: Snapshot?,
                       labelled: (String) -> Bool) -> [String: Value] {
        guard name == "set", let shown, let given = args["cell"] else { return args }
        let rows = shown.screen.sections.enumerated().flatMap { s, section in section.rows.map { (s, $0) } }
        let keyed = rows.map { (section: $0.0, id: $0.1.id, text: $0.1.text) }
        guard let address = RowAddress(given), let i = try? address.resolve(keyed) else { return args }
        let row = rows[i].1
        var seen = args
        if let title = row.text, !title.isEmpty, row.id.map(labelled) == true, (try? RowAddress.key(title).resolve(keyed)) == i,
           Int(title) == nil {
            seen["cell"] = .string(title)
        }
        if row.kind == "picker", case .string(let v)? = args["value"], let n = Int(v), let options = row.control?.options,
           n >= 1, n <= options.count {
            let option = options[n - 1]
            if !option.isEmpty, Int(option) == nil, options.filter({ $0 == option }).count == 1 { seen["value"] = .string(option) }
        }
        return seen
    }
}
