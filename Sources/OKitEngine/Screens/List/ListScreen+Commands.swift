/// The commands of list screens (screens.md "List"): row taps and the segue, accessories, edit-mode selection,
/// search with scopes, the title tap and bar buttons (quick and more actions, add, delete and reorder:
/// ListScreen+Editing.swift).
extension ListScreen {
    var app: AppShell {
        get throws {
            guard let shell else { throw ShellError.notStarted }
            return shell
        }
    }

    /// This list for the screens it opens by a row's segue or a bar button.
    var opening: OpeningList { OpeningList(context: context, dataPath: declaration.dataPath) }

    /// The visible rows' positions in `rows`, with their section numbers (a new section at each new title).
    func visibleWithSections() -> [(index: Int, section: Int)] {
        var out: [(Int, Int)] = []
        var section = 0
        var last: String?? = .none
        for i in visible() {
            let title = rows.title(i)
            if case .some(let t) = last { if t != title { section += 1 } }
            last = .some(title)
            out.append((i, section))
        }
        return out
    }

    /// The entity of a row (screens.md "Commands": position, pair, id, then text).
    public func entity(row: RowAddress) throws -> Entity {
        try refresh()
        let shown = visible()
        switch row {
        case .position(let n):
            guard n >= 1, n <= shown.count else { throw ShellError.noRow(row.description, count: shown.count) }
            return rows[shown[n - 1]].entity
        case .pair:
            let all = visibleWithSections()
            let i = try row.resolve(all.map { (section: $0.section, id: nil, text: nil) })
            return rows[all[i].index].entity
        case .key(let k):
            if let i = shown.first(where: { rows[$0].entity.id == k }) { return rows[i].entity }
            var matches: [Int] = []
            for (pos, i) in shown.enumerated() where try rowText(rows[i].entity) == k {
                matches.append(pos)
            }
            if matches.count == 1 { return rows[shown[matches[0]]].entity }
            if matches.count > 1 { throw ShellError.ambiguousRow(k, candidates: matches.map { "\($0 + 1)" }) }
            if let n = Int(k) { return try entity(row: .position(n)) }
            // As a person writes it: `les miserables` for the row "Les Misérables" (one row only).
            let folded = MatchedText.fold(k)
            var alike: [Int] = []
            for (pos, i) in shown.enumerated() where try rowText(rows[i].entity).map(MatchedText.fold) == folded { alike.append(pos) }
            if alike.count == 1 { return rows[shown[alike[0]]].entity }
            if alike.count > 1 { throw ShellError.ambiguousRow(k, candidates: alike.map { "\($0 + 1)" }) }
            var near: [String] = []
            for i in shown where near.count < 5 {
                if let t = try rowText(rows[i].entity),
                   t.localizedCaseInsensitiveContains(k) { near.append(t) }
            }
            throw ShellError.noRowMatching(k, candidates: near, count: shown.count)
        }
    }

    /// Taps a row: `tapEdit` in edit mode, `tap` otherwise, else the `segue` with the row's entity (not while
    /// editing, not when `navEnabled` is false).
    public func tap(_ row: RowAddress) throws {
        let entity = try entity(row: row)
        let a = declaration.actions
        if editing {
            if let action = a.tapEdit { try action.run(engine, on: entity); return }
            if !declaration.selectPath.isEmpty { try toggleSelection(entity); return }
            throw ShellError.notAllowed("tap while editing", id)
        }
        if let action = a.tap { try action.run(engine, on: entity); return }
        guard declaration.segue != nil || declaration.present != nil else { throw ShellError.noSegue(id) }
        guard try flag(declaration.navEnabled, row: entity, default: true) else { throw ShellError.disabled("tap", row.description) }
        let app = try app
        try app.opening(from: opening) {
            if let segue = declaration.segue { try app.push(segue, context: entity) } else if let present = declaration.present {
                try app.presentScreen(present, context: entity)
            }
        }
    }

    /// A row's tap opens its `segue` (else its `present`) with the row's entity, a bar button its own on the
    /// list's context: the places a URL may name after this list (`ShellScreen.opens`).
    public func opens(_ screen: String, entity: String?, presenting: Bool) throws -> Bool {
        if declaration.buttons.open(screen, entity: entity, presenting: presenting, on: context) { return true }
        let rowOpens = presenting ? (declaration.segue == nil ? declaration.present : nil) : declaration.segue
        guard rowOpens == screen, let id = entity, let e = engine.lookup(id: id, from: context?.model) else { return false }
        return try hasRow(e)
    }

    /// Whether an entity is one of the list's rows (searched out or not).
    func hasRow(_ e: Entity) throws -> Bool {
        try refresh()
        return rows.slot(of: e) != nil
    }

    /// Taps a row's accessory (the `accyEdit*` properties in edit mode, falling back to the display ones).
    public func accessory(_ row: RowAddress) throws {
        let entity = try entity(row: row)
        let acc = accessoryProperties
        guard let action = acc.tap, try flag(acc.show, row: entity, default: true) else { throw ShellError.notAllowed("accessory", id) }
        guard try flag(acc.enabled, row: entity, default: true) else { throw ShellError.disabled("accessory", row.description) }
        try action.run(engine, on: entity)
    }

    /// The accessory's properties for the current mode.
    var accessoryProperties: (text: String, icon: String, show: String, enabled: String, tap: Action?) {
        let a = declaration.actions
        if editing, !(a.accyEditText.isEmpty && a.accyEditIcon.isEmpty && a.accyEditTap == nil) {
            return (a.accyEditText, a.accyEditIcon, a.accyEditShow, a.accyEditEnabled, a.accyEditTap)
        }
        return (a.accyText, a.accyIcon, a.accyShow, a.accyEnabled, a.accyTap)
    }

    /// In edit mode, toggles a row's `selectPath` (writes true, or false when it was selected).
    public func select(_ row: RowAddress) throws {
        guard !declaration.selectPath.isEmpty else { throw ShellError.notAllowed("select (no selectPath)", id) }
        guard editing else { throw ShellError.notAllowed("select outside edit mode (edit on first)", id) }
        try toggleSelection(try entity(row: row))
    }

    func toggleSelection(_ entity: Entity) throws {
        let selected = try engine.get(entity, declaration.selectPath, mode: .display).truthy
        try engine.asAction { try engine.set(entity, binding: declaration.selectPath, .bool(!selected)) }
        if let hook = declaration.hooks.onSelect { try hook.runHook("onSelect", engine, on: entity, screen: info) }
    }

    /// Sets the search text and scope (by title or 1-based position; 1 is "All"). A title wins over a position:
    /// with scopes titled "1"–"5" (a rating), "2" is the scope titled "2" — the title a URL or a recorded test
    /// names. A text longer than `SearchText.maxLength` is refused.
    public func search(_ text: String, scope: String?) throws {
        guard try flag(declaration.search, row: context) else { throw ShellError.noSearch(id) }
        guard SearchText.fits(text) else { throw ShellError.searchTooLong(text.count) }
        if let scope {
            let titles = [engine.word(.all)] + (try scopeTitles())
            if let i = titles.firstIndex(of: scope) {
                scopeIndex = i
            } else if let n = Int(scope), n >= 1, n <= titles.count {
                scopeIndex = n - 1
            } else if let i = declaration.plainSearchFilters?.firstIndex(of: scope) {
                scopeIndex = i + 1   // a plain title as the app wrote it, in any language
            } else if scope == BuiltInWord.all.rawValue {
                scopeIndex = 0   // "All" in any language, as scripts written in English say it
            } else if let i = MatchedText.looseMatch(scope, titles) {
                scopeIndex = i   // case and accents aside, as rows and cells
            } else {
                throw ShellError.noScope(scope, scopes: titles)
            }
        }
        search(text)
    }

    /// The search text and the scope's title (nil for "All"); nil when the list searches nothing.
    public var searchQuery: (text: String, scope: String?)? {
        let scope = scopeIndex > 0 ? (try? scopeTitles()).flatMap { scopeIndex <= $0.count ? $0[scopeIndex - 1] : nil } : nil
        return searchText.isEmpty && scope == nil ? nil : (searchText, scope)
    }

    /// The scope titles after "All": plain titles localized, or the display strings of `searchFilters`' parts.
    func scopeTitles() throws -> [String] {
        guard !declaration.searchFilters.isEmpty else { return [] }
        if let plain = declaration.plainSearchFilters { return plain.map { engine.localize($0) } }
        return try engine.getAll(context, declaration.searchFilters, mode: .display).map { $0.displayString ?? "" }
    }

    /// What a row's `searchFilterPath` text equals to be in scope `index` (1-based after "All"): a plain title as
    /// written (OKit compares the raw part, whatever the language shows), else the scope's title.
    func scopeValue(_ index: Int) -> String? {
        if let plain = declaration.plainSearchFilters { return index >= 1 && index <= plain.count ? plain[index - 1] : nil }
        guard let titles = try? scopeTitles(), index >= 1, index <= titles.count else { return nil }
        return titles[index - 1]
    }

    public func titleTap() throws {
        guard let action = declaration.titleTap else { throw ShellError.notAllowed("titleTap", id) }
        try action.run(engine, on: context)
    }

    /// The bar buttons shown now: Edit/Done, + (when a new row's type is known), the declared buttons, help.
    /// `refresh` is OKit's pull to refresh: pressable as `button refresh`, not drawn.
    func buttons() throws -> [ButtonSnapshot] {
        var out: [ButtonSnapshot] = []
        if try flag(declaration.edit, row: context), try !flag(declaration.editAlways, row: context) {
            out.append(ButtonSnapshot(id: "edit", title: engine.word(editing ? .done : .edit), enabled: true))
        }
        if try canAdd() { out.append(ButtonSnapshot(id: "add", title: "+", enabled: true)) }
        out += try engine.shownButtons(declaration.buttons, on: context).map(\.shown)
        if declaration.help != nil { out.append(ButtonSnapshot(id: "help", title: "?", enabled: true)) }
        return out
    }

    /// Presses a bar button by id or title.
    public func button(_ name: String) throws {
        if name == "refresh", !declaration.buttons.contains(where: { $0.id == "refresh" }) {
            guard try flag(declaration.refresh, row: context) else { throw ShellError.notAllowed("refresh", id) }
            invalidateKeys()
            return
        }
        let b = try ButtonSnapshot.pressed(name, among: try buttons())
        let app = try app
        switch b.id {
        case "edit": try setEditing(!editing)
        case "add": try add(text: nil)
        case "help": app.helpText = declaration.help
        default: try app.pressDeclared(b.id, among: declaration.buttons, on: context, list: opening)
        }
    }

    /// The type of a new row: `type`, else the element type of the collection `dataPath` reaches, or filters
    /// (OKit needs `type`; okit finds it). Nil when rows cannot be added (no collection of entities).
    func addType() throws -> String? {
        if let t = declaration.type { return t }
        guard let c = try engine.collectionBehind(context, declaration.dataPath, mode: .display), c.kind != .map,
              case .entity(let name) = c.elementType else { return nil }
        return name
    }

    /// Rows can be deleted: `delete` holds and the rows come from a collection.
    var canDelete: Bool {
        get throws { try flag(declaration.delete, row: context) && dataIsCollection }
    }

    /// The + button shows: `add` holds and a new row's type is known.
    func canAdd() throws -> Bool {
        try flag(declaration.add, row: context) && addType() != nil
    }
}
