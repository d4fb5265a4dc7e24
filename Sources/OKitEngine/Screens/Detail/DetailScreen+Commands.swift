import Foundation

/// A detail-screen command that is not possible: says why; nothing changed.
public enum DetailError: Error, CustomStringConvertible {
    case unknownKind(String, String)
    case badBinding(String, String, String, String)
    case readOnly(String)
    case takesNoValue(String, String)
    case noValueBinding(String, String, String)
    case ambiguousOption(String, String, positions: [Int])
    case noAccessory(String)

    public var description: String {
        switch self {
        case .unknownKind(let screen, let kind):
            return "screen \"\(screen)\": unknown cell kind \"\(kind)\" (kinds: \(CellDeclaration.kinds.joined(separator: ", ")))"
        case .badBinding(let screen, let cell, let property, let message):
            return "screen \"\(screen)\", cell \(cell), property \(property): \(message)"
        case .readOnly, .takesNoValue, .ambiguousOption: return text(BuiltInWords.english)
        case .noValueBinding(let c, let kind, let property): return "cell \"\(c)\" (\(kind)) has no \(property) to write to"
        case .noAccessory(let c): return "cell \"\(c)\" has no accessory action (set accyTap)"
        }
    }
}

/// The commands of detail screens: taps, accessories, row selection, values of edit cells, edit mode, buttons.
extension DetailScreen {
    var app: AppShell {
        get throws {
            guard let shell else { throw ShellError.notStarted }
            return shell
        }
    }

    /// Taps a cell: its `tapEdit` (edit mode) or `tap` action runs on the cell's context (a cell with neither
    /// runs the screen's on the screen's context); a cell with `selectNextRow = k` selects the row k below instead
    /// of itself (tapping it again unselects), and date and picker cells select themselves in edit mode; then its
    /// `segue` or `present` opens with the cell's context (in display and edit mode).
    public func tap(_ address: RowAddress) throws {
        let shown = try cell(address)
        let c = shown.cell
        let action = tapAction(of: shown)
        let target = try selectionTarget(shown)
        let segue = c["segue"], present = c["present"]
        guard action != nil || target != nil || !segue.isEmpty || !present.isEmpty else {
            throw ShellError.notAllowed("tap on cell \"\(shown.id)\" (it has no tap, segue, present or selectNextRow)", id)
        }
        if let action { try action.action.run(engine, on: action.context) }
        if let target { toggleSelection(target) }
        if !segue.isEmpty {
            try app.push(segue, context: shown.context)
        } else if !present.isEmpty {
            try app.presentScreen(present, context: shown.context)
        }
    }

    /// Selects a cell's row (or the row its `selectNextRow` points to), or unselects it when it is selected.
    public func select(_ address: RowAddress) throws {
        let shown = try cell(address)
        toggleSelection(try selectionTarget(shown) ?? shown.position)
    }

    func toggleSelection(_ target: CellPosition) {
        selectedCell = selectedCell == target ? nil : target
    }

    /// The row a tap selects: `selectNextRow = k` (≠ 0) points k rows further in the same section (OKit's proxy
    /// rows for inline date and picker cells); date and picker cells select themselves in edit mode.
    func selectionTarget(_ shown: ShownCell) throws -> CellPosition? {
        let c = shown.cell
        if !c["selectNextRow"].isEmpty, let k = try engine.get(shown.context, c["selectNextRow"], mode: .display).intValue, k != 0 {
            let (i, overflow) = shown.position.cell.addingReportingOverflow(k)
            if !overflow, i >= 0, i < declaration.sections[shown.position.section].cells.count {
                return CellPosition(section: shown.position.section, cell: i)
            }
        }
        if c.selectsToEdit, editing { return shown.position }
        return nil
    }

    /// Taps a cell's accessory: `accyEditTap` (else `accyTap`) in edit mode, `accyTap` otherwise, on the cell's
    /// context; a cell with neither that shows an accessory runs the screen's on the screen's context.
    public func accessory(_ address: RowAddress) throws {
        let shown = try cell(address)
        let c = shown.cell
        func prop(_ name: String) -> String {
            let edit = c["accyEdit" + name]
            return editing && !edit.isEmpty ? edit : c["accy" + name]
        }
        let action: (action: Action, context: Entity?)
        if let own = accessoryAction(of: c) {
            action = (own, shown.context)
        } else if !c.hasOwnAccessoryAction, let screenLevel = editing ? declaration.actions["accyEditTap"] ?? declaration.actions["accyTap"]
                    : declaration.actions["accyTap"], try accessory(of: c, on: shown.context) != nil {
            action = (screenLevel, context)
        } else {
            throw DetailError.noAccessory(shown.id)
        }
        guard try flag(prop("Show"), on: shown.context) else { throw DetailError.noAccessory(shown.id) }
        guard try flag(prop("Enabled"), on: shown.context) else { throw ShellError.disabledCellAccessory(shown.id) }
        try action.action.run(engine, on: action.context)
    }

    /// The action a tap on a cell runs and its context: the cell's own (`tap`, in edit mode `tapEdit`) on the
    /// cell's context; for a cell with neither, the screen's (OKit's controller-level ones) on the screen's context.
    func tapAction(of shown: ShownCell) -> (action: Action, context: Entity?)? {
        declaration.tapAction(of: shown.cell, editing: editing).map { ($0.action, $0.screenLevel ? context : shown.context) }
    }

    /// Sets an edit cell's value through its binding (screens.md "Commands": text cells a string; switch a bool;
    /// date a date or ISO 8601 string, clamped; slider and stepper a number, clamped, a stepper to its step;
    /// segment a title or 0-based index, stored as the title with `byTitle`; picker a name, entity id or 1-based
    /// position, a text picker (`optionValues`) an option's text or 1-based position; a switch on a text field
    /// writes its words, `switchValue`). A value the field's rules
    /// refuse fails with the rule's message (`InvalidValue`) and nothing changes.
    public func set(cell address: RowAddress, value: Value) throws {
        let shown = try cell(address)
        let c = shown.cell, ctx = shown.context, name = shown.id
        guard CellDeclaration.editKinds.contains(c.kind) else { throw DetailError.takesNoValue(name, c.kind) }
        guard !c.valuePath.isEmpty else { throw DetailError.noValueBinding(name, c.kind, CellDeclaration.valueProperty(c.kind)) }
        // A value the cell cannot take now is refused naming the cell as the person sees it ("Ajoutée le", "Idade"),
        // not by its id; a program's mistakes above keep the id it used.
        let label = (try? text(of: c, on: ctx)).flatMap { $0.flatMap { $0.isEmpty ? nil : $0 } } ?? engine.localize(name)
        guard editing else { throw ShellError.notEditing(label) }
        if try flag(c["readOnly"], on: ctx, default: false) { throw DetailError.readOnly(label) }
        switch c.kind {
        case "picker" where c.isTextPicker:
            let text = try textOption(c, on: ctx, for: value, cell: label)
            try engine.commandSet(ctx, binding: c.valuePath, .string(text))
        case "picker":
            let chosen = try option(c, on: ctx, for: value, cell: label)
            try engine.asAction {
                try engine.transaction {
                    let current = try engine.get(ctx, c.valuePath)
                    switch current {
                    case .entity(let r) where SelectionScreen.isRefLike(r.type):
                        let key: Value = chosen.id.map { .string($0) } ?? .null
                        try engine.checkCommandWrite(r, "refKey", key)
                        try engine.set(r, "refKey", key)
                    case .string:
                        try engine.commandSet(ctx, binding: c.valuePath, chosen.id.map { .string($0) } ?? .null)
                    default:
                        try engine.commandSet(ctx, binding: c.valuePath, .entity(chosen))
                    }
                }
            }
        default:
            let v = try clearedValue(c, on: ctx, from: value, label: label) ?? newValue(c, on: ctx, from: value, cell: name, label: label)
            try engine.commandSet(ctx, binding: c.valuePath, v)
        }
    }

    /// An empty value — JSON's null, or a text of spaces only (`set Due ""`, a web date field emptied) — given a
    /// date, switch, segment, slider or stepper cell: nil (cleared) for an optional field (`date?`, `bool?`, `int?`,
    /// `double?`), as a text cell clears one (Engine+CellText.swift); a date that is not optional refuses it in the
    /// app's language, naming the cell as its title shows it (`Beginn ist erforderlich`). Nil when the value is not
    /// empty, and for another kind's field that is not optional (the kind refuses it as before).
    func clearedValue(_ c: CellDeclaration, on ctx: Entity?, from value: Value, label: String) throws -> Value? {
        switch value {
        case .null: break
        case .string(let s) where s.trimmingCharacters(in: .whitespaces).isEmpty: break
        default: return nil
        }
        guard ["date", "switch", "segment", "slider", "stepper"].contains(c.kind) else { return nil }
        if engine.writtenField(ctx, c.valuePath)?.optional == true { return .null }
        if c.kind == "date" { throw ShellError.worded(engine.word(.isRequired, label)) }
        return nil
    }

    /// The value to write for a command's value, by kind; fails naming what the cell takes.
    /// `name`: the cell as the command named it (for what a program got wrong); `label`: as the person sees it.
    func newValue(_ c: CellDeclaration, on ctx: Entity?, from value: Value, cell name: String, label: String) throws -> Value {
        switch c.kind {
        case "text", "multiline":
            // A number field takes the number as the app's locale writes it (`1.234,5` in `de`); an empty text clears
            // an optional field (Engine+CellText.swift).
            guard let v = try engine.textCellValue(value, on: ctx, binding: c.valuePath, label: label) else {
                throw ShellError.badValue(name, "a string")
            }
            return v
        case "switch":
            switch value {
            case .bool(let on): return try switchValue(on, c, on: ctx)
            case .int(let i) where i == 0 || i == 1: return try switchValue(i == 1, c, on: ctx)
            case .string(let s):
                // Also the app's own Yes and No (ja, nein in German), as a person answers, with or without its
                // accents (si for sí, nao for não).
                let language = engine.locale.language
                let yes = LanguageCase.lower(engine.word(.yes), language: language), no = LanguageCase.lower(engine.word(.no), language: language)
                if let on = CommandArguments.switchWord(s, yes: yes, no: no) { return try switchValue(on, c, on: ctx) }
                throw ShellError.worded(engine.word(.neitherYesNorNo, label, s, yes, no))
            default: break
            }
            throw ShellError.badValue(name, "a bool (true or false)")
        case "date":
            guard var d = try typedDate(value) ?? localDate(value, c, on: ctx) else {
                // A number or a yes/no (JSON's `12`, the terminal's `set Date 12`) is refused as typed text is, in the
                // app's language.
                if case .string(let text) = value { throw try notADate(text, label, c, on: ctx) }
                // Quoted as JSON writes it (`1e-300`, not three hundred zeros).
                switch value {
                case .int(let i): throw try notADate(String(i), label, c, on: ctx)
                case .double(let x): throw try notADate(x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x), label, c, on: ctx)
                case .bool(let b): throw try notADate(b ? "true" : "false", label, c, on: ctx)
                default: break
                }
                throw ShellError.badValue(name, "an okit.date or an ISO 8601 string (2019-05-01T10:00:00Z, ±hh:mm or ±hhmm zones)")
            }
            let (lo, hi) = try dateRange(c, on: ctx)
            if let lo, d < lo { d = lo }
            if let hi, d > hi { d = hi }
            return .date(d)
        case "segment":
            let titles = try segments(c, on: ctx)
            let byTitle = try segmentsByTitle(c, on: ctx)
            if case .string(let s) = value, let i = titles.firstIndex(of: s) { return byTitle ? .string(s) : .int(i) }
            guard !(value.isBool), let i = value.intValue, value.doubleValue == Double(i), i >= 0, titles.isEmpty || i < titles.count,
                  !byTitle || i < titles.count else {
                throw noChoice(.noSegmentNamed, cell: label, value: value, choices: titles, numbered: false)
            }
            return byTitle ? .string(titles[i]) : .int(i)
        case "slider", "stepper":
            // Read and refused as a text cell's number (a fraction for an int field too, never rounded away).
            guard let d = try engine.controlNumber(value, on: ctx, binding: c.valuePath, label: label) else {
                throw ShellError.badValue(name, "a number")
            }
            // Clamped to the range, as OKit's UISlider and UIStepper hold their value; a value inside it is kept as
            // given — a stepper's step is what its − and + add (the web's buttons), as UIStepper's, which reach the
            // maximum even off the step (0, 3, 6, 9, 10), not a grid a given value is rounded to.
            let r = try range(c, on: ctx)
            let lo = r.min.doubleValue ?? 0, hi = r.max.doubleValue ?? 1
            let x = Swift.min(Swift.max(d, lo), hi)
            if c.kind == "slider" { return .double(x) }
            if case .int = try engine.get(ctx, c.valuePath), abs(x) < 9e15 { return .int(Int(x.rounded())) }
            return .double(x)
        default:
            throw DetailError.takesNoValue(name, c.kind)
        }
    }

    /// A date a command gives: a date, or an ISO 8601 text — with its zone that instant, without one (`2026-12-03`,
    /// `2026-12-03T09:30`) the wall-clock time of the app's time zone, as the app's own date forms and the web's
    /// date field are read (`ISODate.parse(_:wallClockIn:)`).
    func typedDate(_ value: Value) -> Date? {
        guard case .string(let s) = value else { return DetailScreen.date(value) }
        return ISODate.parse(s, wallClockIn: engine.locale.zone)
    }

    /// A date a person typed as the app's language writes dates (`03.05.2019` in `de`) or as the cell shows it
    /// (`3 de mayo de 2019` in `es`), or nil. A time alone (`2:30 PM`, as a cell in time mode shows it) is that time
    /// on the day the field holds (today, when it holds none), in the app's time zone.
    func localDate(_ value: Value, _ c: CellDeclaration, on ctx: Entity?) throws -> Date? {
        guard case .string(let text) = value else { return nil }
        if let d = engine.formatters.parseDate(text, locale: engine.locale) { return d }
        guard let time = engine.formatters.parseTime(text, locale: engine.locale) else { return nil }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = engine.locale.zone
        let day = DetailScreen.date(try engine.get(ctx, c.valuePath)) ?? engine.clock.now
        return cal.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: day)
    }

    /// A value that no option or segment of the cell names, refused in the app's language with the cell as its title
    /// shows it and the choices there are (`numbered`: with their 1-based positions), every text in the language's
    /// quotation marks (`„Licht“ hat keine Option „Mond“ (Optionen: 1 „An“, 2 „Aus“; …)`).
    func noChoice(_ word: BuiltInWord, cell label: String, value: Value, choices: [String], numbered: Bool) -> ShellError {
        let quoted = choices.enumerated().map { (numbered ? "\($0.offset + 1) " : "") + engine.word(.quoted, ShellError.brief($0.element)) }
        let list = quoted.isEmpty ? engine.word(.noChoices) : ShellError.briefList(quoted, engine.builtInWords)
        let shown: String
        if case .string(let text) = value { shown = engine.word(.quoted, ShellError.brief(text)) } else if value.isNull {
            shown = engine.word(.quoted, "")      // JSON's null: an empty choice, not code's `nil`
        } else {
            shown = ShellError.brief(Coercion.describe(value), 48)
        }
        return .worded(engine.word(word, label, shown, list))
    }

    /// A typed text that is no date: the cell's title and an example as the cell shows dates, in the app's
    /// language (`Publicado: "33 de mayo" is not a date like 1 de mayo de 2019 or 2019-05-01T10:00:00Z` for a cell
    /// in date mode).
    func notADate(_ text: String, _ label: String, _ c: CellDeclaration, on ctx: Entity?) throws -> ShellError {
        let example = DateExtensions.format(Date(timeIntervalSince1970: 1_556_704_800), try dateStyle(c, on: ctx), relative: false, engine)
        // A long text is quoted briefly (a refusal is one line, whatever was typed).
        return .worded(engine.word(.notADateLike, label, ShellError.brief(text, 48), example))
    }

    /// The one of `names` that `typed` matches case and accents aside (`food` for "Food"), as cells are matched;
    /// nil when none or more than one does.
    static func looseMatch(_ typed: String, _ names: [String]) -> Int? { MatchedText.looseMatch(typed, names) }

    /// The picker option a command names: a name (exactly one; else the one that matches case and accents
    /// aside), an entity id, or a 1-based position.
    func option(_ c: CellDeclaration, on ctx: Entity?, for value: Value, cell label: String) throws -> Entity {
        let all = try options(c, on: ctx)
        if case .entity(let e) = value, all.contains(where: { $0.entity === e }) { return e }
        // A whole number is first the name or id it writes (`set Timeout 5`, the built-in timeouts' ids are "0",
        // "1", "5", "10"), then a position: name, id, position, in that order, however it is written.
        let position = !value.isBool ? value.intValue.flatMap { value.doubleValue == Double($0) ? $0 : nil } : nil
        let text: String? = if case .string(let s) = value { s } else { position.map(String.init) }
        if let s = text {
            let named = all.indices.filter { all[$0].name == s }
            if named.count == 1 { return all[named[0]].entity }
            if named.count > 1 { throw DetailError.ambiguousOption(label, Coercion.describe(value), positions: named.map { $0 + 1 }) }
            if let e = all.first(where: { $0.entity.id == s }) { return e.entity }
            if position == nil, let i = Self.looseMatch(s, all.map(\.name)) { return all[i].entity }
        }
        if let n = position, n >= 1, n <= all.count { return all[n - 1].entity }
        throw noChoice(.noOptionNamed, cell: label, value: value, choices: all.map(\.name), numbered: true)
    }

    /// Turns edit mode on or off (the Edit button shows unless `edit` is false; `editAlways` keeps it on).
    public func setEditing(_ on: Bool) throws {
        if try isEditAlways() {
            if !on { throw ShellError.notAllowed("edit off (editAlways)", id) }
            editing = true
            return
        }
        guard try flag(declaration.edit, on: context) || editing else { throw ShellError.notAllowed("edit", id) }
        editing = on
        if let hook = declaration.hooks.onEdit { try hook.runHook("onEdit", engine, on: context, screen: info) }
    }

    public func titleTap() throws {
        guard let action = declaration.titleTap else { throw ShellError.notAllowed("titleTap", id) }
        try action.run(engine, on: context)
    }

    /// The bar buttons shown now: Edit/Done (unless `edit` is false or `editAlways`), the declared buttons, and
    /// "?" when the screen has help.
    func buttons() throws -> [ButtonSnapshot] {
        var out: [ButtonSnapshot] = []
        if try flag(declaration.edit, on: context), try !isEditAlways() {
            out.append(ButtonSnapshot(id: "edit", title: engine.word(editing ? .done : .edit), enabled: true))
        }
        out += try engine.shownButtons(declaration.buttons, on: context).map(\.shown)
        if declaration.help != nil { out.append(ButtonSnapshot(id: "help", title: "?", enabled: true)) }
        return out
    }

    /// Presses a bar button by id or title.
    public func button(_ name: String) throws {
        let b = try ButtonSnapshot.pressed(name, among: try buttons())
        let app = try app
        switch b.id {
        case "edit": try setEditing(!editing)
        case "help": app.helpText = declaration.help
        default: try app.pressDeclared(b.id, among: declaration.buttons, on: context)
        }
    }
}

extension Value {
    var isBool: Bool { if case .bool = self { return true }; return false }
}
