/// Many shells on one list (a thousand browsers on the bookshop's books): every screen of the same declaration on
/// the same context shares one **keeper** — a list screen of no shell that keeps the rows' sort, group and search
/// keys, their order, the index letters and what the keys read (issue 39: each viewer held its own copy, about
/// 21 MB at 100,000 books). What differs between people stays on each screen: its search text and matches, scope,
/// edit mode, window of row snapshots, header and sections. A write moves the row once, in the keeper; each screen
/// sees the keeper's `rowsVersion` change and drops its matches.
///
/// The keeper lives while a screen uses it (each holds it strongly; the engine's `SharedParts` only weakly), so
/// the rows of a list nobody shows are freed with its last screen.
extension ListScreen {
    /// A screen for a shell: sharing the keeper of the same declaration and context, made when there is none.
    static func sharingRows(engine: Engine, declaration d: ListDeclaration, context: Entity?) throws -> ListScreen {
        let own = try ListScreen(engine: engine, declaration: d, context: context)
        let key = ListRowsKey(d, context: own.context)
        if let keeper = engine.sharedParts.part(for: key) as? ListScreen, keeper.context === own.context {
            return try ListScreen(engine: engine, declaration: d, context: context, keeper: keeper)
        }
        let keeper = try ListScreen(engine: engine, declaration: d, context: context)
        engine.sharedParts.keep(keeper, for: key)
        return try ListScreen(engine: engine, declaration: d, context: context, keeper: keeper)
    }

    /// Drops this screen's search matches when the rows changed since they were computed (the positions moved).
    func forgetMatchesOfOldRows() {
        let version = rowsVersion
        if seenRowsVersion != version {
            matching = nil
            seenRowsVersion = version
        }
    }
}

/// What a list's rows are made from: the declaration's row bindings and the context entity. Two declarations
/// with the same id but other row bindings (a selection's list made for one field) do not share.
struct ListRowsKey: Hashable {
    let id: String
    let rowBindings: [String]
    let context: ObjectIdentifier?

    init(_ d: ListDeclaration, context: Entity?) {
        id = d.id
        let cell = d.cell.properties.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        rowBindings = [d.kind, d.dataPath, d.contextPath, d.rowSort, d.rowSortAsc, d.group, d.groupName, d.groupSortAsc,
                       d.groupSort, d.searchPath, d.searchFilters, d.searchFilterPath, d.cell.kind] + cell
        self.context = context.map(ObjectIdentifier.init)
    }
}
