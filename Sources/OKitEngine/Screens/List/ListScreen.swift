import Foundation

/// A list screen's rows: from `dataPath` on the context, sorted by `rowSort` (typed), grouped by `group`
/// (sections ordered by group key), filtered by the search text (OKit's normalization), windowed.
///
/// The sort, group and search keys of every row are computed once and kept; a search keystroke only filters
/// the kept order (and, when the new text extends the old one, only the rows that matched before). What the
/// keys read is tracked: a change to any of it, or to the collection, recomputes them before the next snapshot.
public final class ListScreen: ShellScreen {
    public let declaration: ListDeclaration
    public let context: Entity?
    let engine: Engine
    weak var shell: AppShell?
    public internal(set) var editing = false
    public var id: String { declaration.id }
    public var kind: String { declaration.kind }
    public func help() -> String? { declaration.help }

    /// A row's keys. Fields are in this order so that the two bools sit in the group key's padding: 80 bytes a
    /// row (a list of 100,000 books keeps 100,000 of them). The search and scope texts are not here: the table
    /// keeps them by slot (`ListRowTexts`, `ListRowTable.filters`), and `RowKeys` carries them to it.
    struct Row {
        let entity: Entity
        /// The row's place in the data when it was placed (rows with equal keys keep the data's order).
        var seq: Double
        let groupTitle: String?
        let group: Value
        /// The cell hides the row (`showDisplay`/`showEdit`, heights of 0) outside / in edit mode.
        var hiddenDisplay = false
        var hiddenEdit = false
        /// The `rowSort` key.
        let sort: Value
    }

    /// A row with the texts the table keeps beside it: the search text before normalizing (nil before the first
    /// search) and the `searchFilterPath` text a scope compares (nil without scopes).
    struct RowKeys {
        let row: Row
        let search: String?
        let filter: String?
    }

    /// The screen that keeps the rows' keys for every screen of this declaration on this context, when this one
    /// shares them (ListScreen+Sharing.swift); nil when this screen keeps its own rows (it is a keeper, or it was
    /// made on its own).
    let keeper: ListScreen?
    /// The keeper's `rowsVersion` this screen's search matches were computed on.
    var seenRowsVersion = -1
    /// The rows this screen keeps (a keeper's, or an unshared screen's); a sharing screen reads its keeper's.
    var ownRows = ListRowTable()
    /// The rows in their order: the keeper's when this screen shares them. A sharing screen changes them only
    /// through the table's lazily built parts (slots, search texts, letters); rows move in the keeper's refresh.
    var rows: ListRowTable {
        _read { if let keeper { yield keeper.ownRows } else { yield ownRows } }
        _modify { if let keeper { yield &keeper.ownRows } else { yield &ownRows } }
    }
    /// How rows follow changes (ListScreen+Rows.swift).
    var follow = RowFollowing()
    /// The index letters of all rows, kept while rows move (nil until asked for).
    var indexLetters: ListIndexLetters?
    /// True when `dataPath` reached a collection the rows can be added to and deleted from (not a computed list).
    var keptDataIsCollection = false
    var dataIsCollection: Bool { (keeper ?? self).keptDataIsCollection }
    /// The search scope: 0 is "All", n the n-th part of `searchFilters`.
    var scopeIndex = 0
    var keysSubscription: Subscription?
    var searchText = ""
    private var normalizedQuery = ""
    /// The search text as typed (trimmed, lower-cased) when it normalizes to nothing but is not blank (signs, an
    /// emoji: `🥟`): rows are then matched on their search text as written, case aside. Nil otherwise.
    private var literalQuery: String?
    /// The display positions the search matches (32-bit: 400 KB for 100,000 matches).
    var matching: [Int32]?
    /// How many times the rows' keys were computed (for tests; a sharing screen's are its keeper's).
    public var rebuilds: Int { (keeper ?? self).keptRebuilds }
    var keptRebuilds = 0
    /// How many of those were full passes over every row (for tests; the others moved single rows).
    public var fullPasses: Int { (keeper ?? self).keptFullPasses }
    var keptFullPasses = 0
    /// Rows' and the header's snapshots, each kept with what it read (ListScreen+Snapshot.swift).
    var rowCache: [ObjectIdentifier: CachedRow] = [:]
    var headerCache: CachedHeader?
    /// How many row snapshots were computed (for tests: after a write, only the affected rows).
    public internal(set) var rowComputations = 0
    /// How many times the header (title, subtitle, prompt, buttons) was computed.
    public internal(set) var headerComputations = 0
    /// Section lines and the footer, each kept with its rows and what it read (ListScreen+Sections.swift).
    var sectionCache: [String?: CachedSection] = [:]
    var footerCache: CachedSection?
    /// The type of the sections those bindings are evaluated on (`ListSection`).
    let sectionType = ListSection.makeType()
    /// Bumped whenever the rows change (a full pass, or rows followed one by one); a sharing screen's is its keeper's.
    var rowsVersion: Int { (keeper ?? self).keptRowsVersion }
    var keptRowsVersion = 0
    /// How many times a section's lines (`groupHeader`, `groupFooter`) were computed; how many times the
    /// footer (`footerPath`) was (for tests: after a write, only the sections that read it).
    public internal(set) var sectionComputations = 0
    public internal(set) var footerComputations = 0

    let bData, bSort, bSortAsc, bGroup, bGroupName, bGroupAsc, bSearchPath, bText, bDetail, bFilter: Binding
    let bGroupHeader, bGroupFooter, bFooter: Binding
    /// The rows' cell has only `path`, `detailPath` and `contextPath` (ListScreen+Cell.swift).
    let plainCell: Bool
    /// The search text's binding is the sort key's (one evaluation per row gives both).
    let searchIsSort: Bool

    /// A list screen that keeps its own rows (`keeper` nil), or shares those of `keeper` (ListScreen+Sharing.swift).
    public convenience init(engine: Engine, declaration d: ListDeclaration, context: Entity?) throws {
        try self.init(engine: engine, declaration: d, context: context, keeper: nil)
    }

    init(engine: Engine, declaration d: ListDeclaration, context: Entity?, keeper: ListScreen?) throws {
        self.engine = engine
        self.keeper = keeper
        declaration = d
        let base = d.contextPath.isEmpty ? context : try engine.get(context, d.contextPath).entity
        self.context = base
        bData = try engine.compile(d.dataPath)
        bSort = try engine.compile(d.rowSort)
        bSortAsc = try engine.compile(d.rowSortAsc)
        bGroup = try engine.compile(d.group)
        bGroupName = try engine.compile(d.groupName)
        bGroupAsc = try engine.compile(d.groupSortAsc)
        bSearchPath = try engine.compile(d.searchPath.isEmpty ? d.cellPath : d.searchPath)
        bText = try engine.compile(d.cellPath)
        plainCell = ListScreen.isPlainCell(d.cell)
        searchIsSort = !d.rowSort.isEmpty && (d.searchPath.isEmpty ? d.cellPath : d.searchPath) == d.rowSort
        bDetail = try engine.compile(d.cellDetailPath)
        bGroupHeader = try engine.compile(d.groupHeader)
        bGroupFooter = try engine.compile(d.groupFooter)
        bFooter = try engine.compile(d.footerPath)
        bFilter = try engine.compile(d.searchFilters.isEmpty ? "" : (d.searchFilterPath.isEmpty ? d.cellPath : d.searchFilterPath))
    }

    /// Forgets the rows' keys: the next snapshot computes them again (the refresh button).
    /// Whatever read the old keys (every viewer's window) is told: cancelling them alone tells nobody, and a shared
    /// window would go on showing the old rows to everyone, deaf to adds, until a shown row changed.
    func invalidateKeys() {
        if let keeper { keeper.invalidateKeys(); return }
        guard let old = keysSubscription else { return }
        keysSubscription = nil
        old.cancel()
        try? engine.transaction { engine.graph.changed(.derived(old)) }
    }

    /// Turns edit mode on or off: needs the Edit button (`edit`) or `editAlways` (which keeps it on).
    deinit {
        keysSubscription?.cancel()
        for (_, c) in rowCache { c.subscription?.cancel() }
        headerCache?.subscription?.cancel()
        for (_, c) in sectionCache { c.subscription?.cancel() }
        footerCache?.subscription?.cancel()
    }

    public func setEditing(_ on: Bool) throws {
        if try flag(declaration.editAlways, row: context) {
            if !on { throw ShellError.notAllowed("edit off (editAlways)", id) }
            return
        }
        guard try flag(declaration.edit, row: context) || editing else { throw ShellError.notAllowed("edit", id) }
        editing = on
        if let hook = declaration.hooks.onEdit { try hook.runHook("onEdit", engine, on: context, screen: info) }
    }

    /// A list leaves edit mode before it opens another screen, as OKit's list controller does before any segue
    /// (screens.md "Lists"): the screen it opens inherits no edit mode from it, and the list is in display mode when
    /// the person comes back. `editAlways` keeps it.
    public func willOpenScreen() throws {
        guard editing, !(try flag(declaration.editAlways, row: context)) else { return }
        try setEditing(false)
    }

    /// This screen for hooks.
    public var info: ScreenInfo { ScreenInfo(id: id, kind: declaration.kind, context: context) }

    public func appear() throws {
        if let hook = declaration.hooks.onAppear { try hook.run(engine, on: context, screen: info) }
    }

    public func disappear() throws {
        if let hook = declaration.hooks.onDisappear { try hook.run(engine, on: context, screen: info) }
    }

    /// Sets the search text (a blank text filters nothing; one that normalizes to nothing else is matched as
    /// written, case aside).
    public func search(_ text: String) {
        let q = SearchText.normalize(text)
        let literal = q.isEmpty ? SearchText.literal(text) : nil
        forgetMatchesOfOldRows()
        if q == normalizedQuery, literal == literalQuery { searchText = text; return }
        if let previous = matching, !normalizedQuery.isEmpty, q.hasPrefix(normalizedQuery) || q.contains(normalizedQuery) {
            matching = q.isEmpty ? nil : rows.refine(previous, searching: q)
        } else {
            matching = nil
        }
        searchText = text
        normalizedQuery = q
        literalQuery = literal
    }

    /// Case- and diacritic-folded sort text (ASCII without Foundation).
    static func fold(_ s: String) -> String { FoldedText.fold(s) }

    /// The rows visible with the current search and scope, in order.
    func visible() -> VisibleRows {
        let searched: VisibleRows
        if normalizedQuery.isEmpty && literalQuery == nil {
            searched = .all(rows.count)
        } else if let m = matching {
            searched = .some(m)
        } else {
            let q = normalizedQuery
            (keeper ?? self).computeSearchTexts()
            let m = literalQuery.map { literalMatches($0) } ?? rows.positions(searching: q)
            matching = m
            seenRowsVersion = rowsVersion
            searched = .some(m)
        }
        let shown = cellHidesRows ? .some(searched.filter { editing ? !rows[$0].hiddenEdit : !rows[$0].hiddenDisplay }) : searched
        guard scopeIndex > 0, let scope = scopeValue(scopeIndex) else { return shown }
        return .some(shown.filter { rows.filter(at: $0) == scope })
    }

    /// A row's text: the cell's `path` on the row's entity (after the cell's `contextPath`).
    func rowText(_ e: Entity) throws -> String? {
        try engine.evaluate(bText, declaration.cell["contextPath"].isEmpty ? e : try cellContext(e), mode: .display).displayString
    }

    func flag(_ binding: String, row: Entity?, default value: Bool = false) throws -> Bool {
        try engine.flag(binding, on: row, default: value)
    }

    /// The entity of a row: a 1-based position among the visible rows, a row id, or a row's text — tried in
    /// that order; exactly one must match.
    public func entity(row: String) throws -> Entity {
        try refresh()
        let shown = visible()
        if let n = Int(row) {
            guard n >= 1, n <= shown.count else { throw ShellError.noRow(row, count: shown.count) }
            return rows[shown[n - 1]].entity
        }
        if let i = shown.first(where: { rows[$0].entity.id == row }) { return rows[i].entity }
        let matches = try shown.filter { try rowText(rows[$0].entity) == row }
        guard matches.count == 1 else { throw ShellError.noRow(row, count: shown.count) }
        return rows[matches[0]].entity
    }
}
