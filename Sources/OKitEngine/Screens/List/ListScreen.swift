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

    struct Row {
        let entity: Entity
        let group: Value
        let groupTitle: String?
        let search: String
        /// The `searchFilterPath` text a scope compares (nil without scopes).
        let filter: String?
        /// The cell hides the row (`showDisplay`/`showEdit`, heights of 0) outside / in edit mode.
        var hiddenDisplay = false
        var hiddenEdit = false
    }

    var rows: [Row] = []
    /// True when `dataPath` reached a collection the rows can be added to and deleted from (not a computed list).
    var dataIsCollection = false
    /// The search scope: 0 is "All", n the n-th part of `searchFilters`.
    var scopeIndex = 0
    private var keysSubscription: Subscription?
    var searchText = ""
    private var normalizedQuery = ""
    private var matching: [Int]?
    /// How many times the rows' keys were computed (for tests).
    public internal(set) var rebuilds = 0
    /// Rows' and the header's snapshots, each kept with what it read (ListScreen+Snapshot.swift).
    var rowCache: [ObjectIdentifier: CachedRow] = [:]
    var headerCache: CachedHeader?
    /// How many row snapshots were computed (for tests: after a write, only the affected rows).
    public internal(set) var rowComputations = 0
    /// How many times the header (title, subtitle, prompt, buttons) was computed.
    public internal(set) var headerComputations = 0

    let bData, bSort, bSortAsc, bGroup, bGroupName, bGroupAsc, bSearchPath, bText, bDetail, bFilter: Binding
    /// The rows' cell has only `path`, `detailPath` and `contextPath` (ListScreen+Cell.swift).
    let plainCell: Bool

    public init(engine: Engine, declaration d: ListDeclaration, context: Entity?) throws {
        self.engine = engine
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
        bDetail = try engine.compile(d.cellDetailPath)
        bFilter = try engine.compile(d.searchFilters.isEmpty ? "" : (d.searchFilterPath.isEmpty ? d.cellPath : d.searchFilterPath))
    }

    /// Forgets the rows' keys: the next snapshot computes them again (the refresh button).
    func invalidateKeys() {
        keysSubscription?.cancel()
        keysSubscription = nil
    }

    /// Turns edit mode on or off: needs the Edit button (`edit`) or `editAlways` (which keeps it on).
    deinit {
        keysSubscription?.cancel()
        for (_, c) in rowCache { c.subscription?.cancel() }
        headerCache?.subscription?.cancel()
    }

    public func setEditing(_ on: Bool) throws {
        if try flag(declaration.editAlways, row: context) {
            if !on { throw ShellError.notAllowed("edit off (editAlways)", id) }
            return
        }
        guard try flag(declaration.edit, row: context) || editing else { throw ShellError.notAllowed("edit", id) }
        editing = on
        if let hook = declaration.hooks.onEdit { try hook.run(engine, on: context, screen: info) }
    }

    /// This screen for hooks.
    public var info: ScreenInfo { ScreenInfo(id: id, kind: declaration.kind, context: context) }

    public func appear() throws {
        if let hook = declaration.hooks.onAppear { try hook.run(engine, on: context, screen: info) }
    }

    public func disappear() throws {
        if let hook = declaration.hooks.onDisappear { try hook.run(engine, on: context, screen: info) }
    }

    /// Sets the search text (a text that normalizes to nothing filters nothing).
    public func search(_ text: String) {
        let q = SearchText.normalize(text)
        if q == normalizedQuery { searchText = text; return }
        if let previous = matching, !normalizedQuery.isEmpty, q.hasPrefix(normalizedQuery) || q.contains(normalizedQuery) {
            matching = q.isEmpty ? nil : previous.filter { rows[$0].search.contains(q) }
        } else {
            matching = nil
        }
        searchText = text
        normalizedQuery = q
    }

    /// Recomputes the rows' keys when something they read changed (or on first use).
    func refresh() throws {
        if let s = keysSubscription, !s.isStale { s.touch(); return }
        keysSubscription?.cancel()
        keysSubscription = engine.graph.subscribe({ [unowned self] in
            try self.rebuild()
            return .null
        })
        if let e = keysSubscription?.lastError { throw e }
        matching = nil
    }

    private func rebuild() throws {
        rebuilds += 1
        let cellOffRow = !declaration.cell["contextPath"].isEmpty
        let hidesRows = cellHidesRows
        let items: [Value]
        dataIsCollection = false
        switch try engine.evaluate(bData, context, mode: .display) {
        case .collection(let c): engine.graph.recordMembers(c); items = Array(c.items); dataIsCollection = c.kind != .map
        case .list(let l): items = l
        default: items = []
        }
        let asc = try engine.evaluate(bSortAsc, context, mode: .display).truthy || bSortAsc.isEmpty
        let groupAsc = try engine.evaluate(bGroupAsc, context, mode: .display).truthy || bGroupAsc.isEmpty
        // Keys in parallel arrays; the sort permutes indices only (no copies of rows).
        var built: [Row] = []
        var sorts: [Value] = []
        var folded: [String?] = []
        var groupFolded: [String?] = []
        built.reserveCapacity(items.count)
        var notEntities = 0
        defer {
            // Rows are entities: a dataPath (a Lua function's list, say) of plain values shows nothing — say so.
            if notEntities > 0 {
                engine.warn("list \"\(id)\": dataPath \"\(ShellError.brief(declaration.dataPath, 60))\" gave \(notEntities) value\(notEntities == 1 ? "" : "s") that \(notEntities == 1 ? "is" : "are") not an entity (rows must be entities, e.g. okit.new(…) or a model's collection); not shown")
            }
        }
        for item in items {
            guard case .entity(let e) = item else { notEntities += 1; continue }
            let sort = bSort.isEmpty ? Value.null : try engine.evaluate(bSort, e, mode: .display)
            let group = bGroup.isEmpty ? Value.null : try engine.evaluate(bGroup, e, mode: .display)
            let title = bGroupName.isEmpty ? group.displayString : try engine.evaluate(bGroupName, e, mode: .display).displayString
            // The cell's path (the default search and filter text) is read where the cell reads it.
            let cellCtx = cellOffRow ? try cellContext(e) : e
            let searchValue = try engine.evaluate(bSearchPath, declaration.searchPath.isEmpty ? cellCtx : e, mode: .display).displayString ?? ""
            let filter = bFilter.isEmpty ? nil : try engine.evaluate(bFilter, declaration.searchFilterPath.isEmpty ? cellCtx : e, mode: .display).displayString ?? ""
            var row = Row(entity: e, group: group, groupTitle: title, search: SearchText.normalize(searchValue), filter: filter)
            if hidesRows {
                row.hiddenDisplay = try !rowShown(e, editing: false)
                row.hiddenEdit = try !rowShown(e, editing: true)
            }
            built.append(row)
            sorts.append(sort)
            if case .string(let s) = sort { folded.append(ListScreen.fold(s)) } else { folded.append(nil) }
            if case .string(let s) = group { groupFolded.append(ListScreen.fold(s)) } else { groupFolded.append(nil) }
        }
        /// Typed comparison of the main key, with the folded text precomputed (screens.md "rowSort").
        func main(_ a: Value, _ fa: String?, _ b: Value, _ fb: String?) -> Int {
            if let fa, let fb { return fa == fb ? 0 : (fa < fb ? -1 : 1) }
            return SortKey.compare(a, b)
        }
        /// The tie-break: case-sensitive text (never reversed).
        func tie(_ a: Value, _ b: Value) -> Int {
            if case .string(let x) = a, case .string(let y) = b { return ValueOrder.compareScalars(x, y) }
            return 0
        }
        // `groupSort` false: sections come in the order of their first rows (OKit's unsorted section keys).
        let groupSorted = try flag(declaration.groupSort, row: context, default: true)
        let grouped = !bGroup.isEmpty && groupSorted, sorted = !bSort.isEmpty
        var order = Array(0..<built.count)
        order.sort { i, j in
            if grouped {
                let (a, b) = (built[i].group, built[j].group)
                let g = main(a, groupFolded[i], b, groupFolded[j])
                if g != 0 { return groupAsc || a.isNull || b.isNull ? g < 0 : g > 0 }
                let t = tie(a, b)
                if t != 0 { return t < 0 }
            }
            if sorted {
                let c = main(sorts[i], folded[i], sorts[j], folded[j])
                if c != 0 { return asc || sorts[i].isNull || sorts[j].isNull ? c < 0 : c > 0 }
                let t = tie(sorts[i], sorts[j])
                if t != 0 { return t < 0 }
            }
            return i < j
        }
        rows = order.map { built[$0] }
        if !bGroup.isEmpty { rows = ListScreen.mergingSections(rows) }
    }

    /// Sections with equal titles merge (screens.md "List"): when the group order puts the same title in two
    /// places (different keys named alike, e.g. `groupName` mapping several keys to one title), the later rows
    /// join the first section of that title, keeping their order. Rows already together are left as they are.
    static func mergingSections(_ rows: [Row]) -> [Row] {
        var seen: Set<String?> = []
        var last: String?? = .none
        var scattered = false
        for r in rows {
            if case .some(let t) = last, t == r.groupTitle { continue }
            if !seen.insert(r.groupTitle).inserted { scattered = true; break }
            last = .some(r.groupTitle)
        }
        guard scattered else { return rows }
        var buckets: [[Row]] = []
        var bucketOf: [String?: Int] = [:]
        for r in rows {
            if let b = bucketOf[r.groupTitle] { buckets[b].append(r) } else {
                bucketOf[r.groupTitle] = buckets.count
                buckets.append([r])
            }
        }
        return buckets.flatMap { $0 }
    }

    /// Case- and diacritic-folded sort text (ASCII without Foundation).
    static func fold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        }
        return s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The rows visible with the current search and scope, in order.
    func visible() -> [Int] {
        let searched: [Int]
        if normalizedQuery.isEmpty {
            searched = Array(rows.indices)
        } else if let m = matching {
            searched = m
        } else {
            let q = normalizedQuery
            searched = rows.indices.filter { rows[$0].search.contains(q) }
            matching = searched
        }
        let shown = cellHidesRows ? searched.filter { editing ? !rows[$0].hiddenEdit : !rows[$0].hiddenDisplay } : searched
        guard scopeIndex > 0, let titles = try? scopeTitles(), scopeIndex <= titles.count else { return shown }
        let scope = titles[scopeIndex - 1]
        return shown.filter { rows[$0].filter == scope }
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
