/// One command of a recorded session as a Lua call of a flow test (`app:tap("Dune")`), written the way a person
/// names things: a row by the text they saw, an alert's action by its title, a bar button by its title. The
/// screen before the command (its snapshot) says what was seen; what it cannot name for sure (a text shown twice,
/// a row past the window) keeps the address the command was given.
struct FlowTestCall {
    /// The Lua text of the call, without indentation.
    let text: String
    /// Whether an argument was a secret left out of the recording (`Driver.secretPlaceholder`).
    let hadSecret: Bool

    /// What a secret is written as (the recording never holds one).
    static let secretText = "SECRET"

    /// The call of command `name` with its arguments in the order of its description (the order of the Lua
    /// signature); trailing absent arguments are left out, a `nil` given is written.
    init(_ name: String, _ args: [String: Value], description: CommandDescription?, before: Snapshot?) {
        var secret = false
        func literal(_ v: Value) -> String {
            switch v {
            case .string(let s) where s == Driver.secretPlaceholder:
                secret = true
                return LuaLiteral.string(Self.secretText)
            case .list(let items): return items.isEmpty ? "{}" : "{ " + items.map(literal).joined(separator: ", ") + " }"
            default: return LuaLiteral.value(v)
            }
        }
        let arguments = description?.arguments ?? args.keys.sorted().map { CommandArgument($0, .value) }
        var written: [String] = []
        // The last argument given (a `set`'s `nil` that clears a field is written: `app:set("Due", nil)`).
        var given = 0
        for (i, a) in arguments.enumerated() where args[a.name] != nil { given = i + 1 }
        for (i, a) in arguments.enumerated() {
            let v = args[a.name] ?? .null
            switch a.form {
            case .row where !v.isNull:
                written.append(RowAddress(v).map { Self.row($0, on: before?.screen) } ?? literal(v))
            case .flag:
                // Absent is on (`app:edit(true)`), or nil before an argument given (`app:authenticate(nil, "…")`); a
                // word read as a switch is written as one (the terminal's `edit on`).
                let word: Bool? = (try? CommandArguments(name, [a.name: v]).flag(a.name)).flatMap { v.isNull ? nil : $0 }
                written.append(args[a.name] == nil ? (i < given - 1 ? "nil" : "true") : word.map { $0 ? "true" : "false" } ?? literal(v))
            case .text where name == "respond" && a.name == "action":
                written.append(Self.action(v, of: before?.alert) ?? literal(v))
            case .text where name == "button":
                written.append(Self.button(v, on: before?.screen) ?? literal(v))
            default:
                written.append(literal(v))
            }
        }
        while written.count > given, written.last == "nil" { written.removeLast() }
        // An answer without fields (the terminal gives `respond No` an empty list) is written as the guide writes it.
        if name == "respond", written.count == 2, written.last == "{}" { written.removeLast() }
        text = "app:\(name)(\(written.joined(separator: ", ")))"
        hadSecret = secret
    }

    /// A row or cell as the person saw it on `screen`: a list row by its text when no other row shows it (an
    /// entity's id or a position would not survive a fresh launch: ids are new, order may differ), else by its
    /// position; a cell by its id (declared by the app, the title for most cells) when given by position. A row
    /// the snapshot cannot resolve keeps the address given.
    static func row(_ address: RowAddress, on screen: ScreenSnapshot?) -> String {
        let given = LuaLiteral.value(address.value)
        guard let screen else { return given }
        var keyed: [(section: Int, id: String?, text: String?)] = []
        var rows: [RowSnapshot] = []
        for (s, section) in screen.sections.enumerated() {
            for r in section.rows {
                keyed.append((s, r.id, r.text))
                rows.append(r)
            }
        }
        guard let i = try? address.resolve(keyed) else { return given }
        let row = rows[i]
        if row.kind != nil {
            // A cell: what the person typed stays; a position becomes the cell's id.
            if case .key = address { return given }
            if let id = row.id, keyed.filter({ $0.id == id }).count == 1 { return LuaLiteral.string(id) }
            return given
        }
        let complete = rows.count >= screen.rowCount
        if let text = row.text, !text.isEmpty, complete, keyed.filter({ $0.text == text }).count == 1,
           !keyed.contains(where: { $0.id == text && $0.text != text }) {
            return LuaLiteral.string(text)
        }
        if case .key(let k) = address, k == row.id { return String(i + 1) }
        return given
    }

    /// An alert's action by its exact title: given by position or in another case.
    static func action(_ v: Value, of alert: AlertSnapshot?) -> String? {
        guard let actions = alert?.actions, let given = v.displayString else { return nil }
        if actions.contains(given) { return LuaLiteral.string(given) }
        let folded = actions.filter { MatchedText.same($0, given) }
        if folded.count == 1 { return LuaLiteral.string(folded[0]) }
        if let n = Int(given), n >= 1, n <= actions.count, actions.filter({ $0 == actions[n - 1] }).count == 1 {
            return LuaLiteral.string(actions[n - 1])
        }
        return nil
    }

    /// A bar button by its title when it was given by id (and the title finds the same button).
    static func button(_ v: Value, on screen: ScreenSnapshot?) -> String? {
        guard let buttons = screen?.buttons, case .string(let given) = v,
              let pressed = buttons.first(where: { $0.id == given || $0.title == given }),
              !pressed.title.isEmpty,
              buttons.first(where: { $0.id == pressed.title || $0.title == pressed.title })?.id == pressed.id else { return nil }
        return LuaLiteral.string(pressed.title)
    }
}
