/// How a list's rows follow the model: one full pass when the list opens (keys of every row, one sort), then
/// row by row — a book added, deleted or renamed moves one row (a binary search and a 4-byte-per-row move),
/// so adding N books to an open list costs O(N log N) in all, not O(N² log N) (issue 16).
///
/// One subscription records what every row's keys read. Its `keyObserver` hears each changed key: a field of a
/// row whose keys read only its own fields marks that row; an edit of the data collection's membership comes
/// with its `MembershipJournal`; anything else (the data path's own reads, rows whose keys read other entities,
/// sections merged by title, too many edits at once) makes the next refresh a full pass, as before.
struct RowFollowing {
    /// What the data path and the list's flags read: a change to any of it needs a full pass (except the data
    /// collection's membership, which the journal follows).
    var structureKeys: Set<DependencyKey> = []
    var collection: EntityCollection?
    var journal: MembershipJournal?
    var order = ListRowOrder(grouped: false, sorted: false, groupAscending: true, ascending: true)
    /// The rows' order can be kept row by row (every key read only its row's fields; no sections merged).
    var inPlace = false
    var needsFull = false
    var dirty: [Entity] = []
    /// Rows removed since the last full pass (their reads stay recorded until it).
    var removedSince = 0
    /// The rows' search texts are computed (the first search computes them; later rows get theirs at once).
    var searchReady = false
    /// Each section title's group key (`mergingSections`), kept as rows come and go; nil when the titles are the
    /// keys' texts (no `groupName`, text keys), so that no title is another key's.
    var titles: [String?: Value]?
}

extension ListScreen {
    /// Brings the rows up to date: nothing when nothing they read changed, row by row when it can, else a full
    /// pass.
    func refresh() throws {
        if let keeper {
            try keeper.refresh()
            forgetMatchesOfOldRows()
            return
        }
        if let s = keysSubscription, !s.isStale { s.touch(); return }
        if let s = keysSubscription, !s.cancelled, try updateInPlace(s) {
            engine.graph.markFresh(s)
            s.touch()
            return
        }
        keysSubscription?.cancel()
        follow = RowFollowing()
        let s = engine.graph.subscribe({ [unowned self] in
            try self.rebuild()
            return .null
        })
        keysSubscription = s
        if let e = s.lastError { throw e }
        s.keyObserver = { [unowned self] key in self.observe(key) }
        matching = nil
    }

    /// A changed key the rows read: which row it concerns, or that a full pass is needed.
    func observe(_ key: DependencyKey) {
        if follow.needsFull || !follow.inPlace { return }
        if follow.structureKeys.contains(key) {
            if case .members(let c) = key, c === follow.collection, follow.journal != nil { return }
            follow.needsFull = true
            return
        }
        if case .field(let e, _) = key {
            if rows.slot(of: e) != nil { follow.dirty.append(e) }
            // Else the key of a row removed since the last full pass: nothing shows it.
            return
        }
        follow.needsFull = true
    }

    /// The app's language's order of texts, read as part of what the rows depend on: a new language sorts again.
    func textCollation() -> TextCollation {
        engine.graph.record(.locale)
        return TextCollation(language: engine.locale.language)
    }

    /// The full pass: every row's keys, one sort.
    func rebuild() throws {
        keptRebuilds += 1
        keptFullPasses += 1
        keptRowsVersion += 1
        let cellOffRow = !declaration.cell["contextPath"].isEmpty
        let hidesRows = cellHidesRows
        // The collection's own elements (shared, copy-on-write): an array copy retained and released every row.
        var items = ValueList()
        var collection: EntityCollection?
        keptDataIsCollection = false
        let (order, structure) = try engine.graph.recording { () throws -> ListRowOrder in
            switch try engine.evaluate(bData, context, mode: .display) {
            case .collection(let c):
                engine.graph.recordMembers(c); items = c.items; keptDataIsCollection = c.kind != .map
                collection = c
            case .list(let l):
                items = ValueList(l)
                // A filtered collection (`expenses[paid == false]`): rows can be deleted from the collection.
                keptDataIsCollection = try engine.filteredCollection(context, declaration.dataPath, mode: .display).map { $0.kind != .map } ?? false
            default: items = ValueList()
            }
            let asc = try engine.evaluate(bSortAsc, context, mode: .display).truthy || bSortAsc.isEmpty
            let groupAsc = try engine.evaluate(bGroupAsc, context, mode: .display).truthy || bGroupAsc.isEmpty
            // `groupSort` false: sections come in the order of their first rows (OKit's unsorted section keys).
            let groupSorted = try flag(declaration.groupSort, row: context, default: true)
            return ListRowOrder(grouped: !bGroup.isEmpty && groupSorted, sorted: !bSort.isEmpty,
                                groupAscending: groupAsc, ascending: asc, collation: textCollation())
        }
        let recorder = engine.graph.recorder
        recorder?.readOther = false
        // With room for the rows to come (as the table's): the first add after a full pass would copy a million keys.
        recorder?.reserve(items.count + ListRowTable.room(items.count))
        var built: [Row] = []
        // With the table's room for rows to come: the table takes this array as it is (no copy of its rows).
        built.reserveCapacity(items.count + ListRowTable.room(items.count))
        // The scope texts, by row (only with `searchFilters`).
        var filters: [String?] = []
        var notEntities = 0
        defer {
            recorder?.piece = nil
            // Rows are entities: a dataPath (a Lua function's list, say) of plain values shows nothing — say so.
            if notEntities > 0 {
                engine.warn("list \"\(id)\": dataPath \"\(ShellError.brief(declaration.dataPath, 60))\" gave \(notEntities) value\(notEntities == 1 ? "" : "s") that \(notEntities == 1 ? "is" : "are") not an entity (rows must be entities, e.g. okit.new(…) or a model's collection); not shown")
            }
        }
        // The sort and group keys numbered by distinct text as each row is built (its key still in the cache).
        let keys = ListKeyReaders(sort: bSort, group: bGroup, engine: engine)
        var sortKeys = TextKeys(capacity: order.sorted ? items.count : 0)
        var groupKeys = TextKeys(capacity: order.grouped ? items.count : 0)
        // Each row's first touch of a book, of its values and of its text was a cache miss, one after another.
        try items.forEachRun { run in
            for i in run.indices {
                EntityReadAhead.step(run, i, slot: keys.sort.slot)
                guard case .entity(let e) = run[i] else { notEntities += 1; continue }
                recorder?.piece = e
                let k = try rowKeys(e, seq: Double(built.count), cellOffRow: cellOffRow, hidesRows: hidesRows, search: false, keys: keys)
                if order.sorted { sortKeys.add(k.row.sort) }
                if order.grouped { groupKeys.add(k.row.group) }
                if !bFilter.isEmpty { filters.append(k.filter) }
                built.append(k.row)
            }
        }
        var sorted = order.sortedOrder(built, groups: groupKeys, sorts: sortKeys)
        let merged = mergeSections(&sorted, built, order: order, textKeys: groupKeys.isAllText)
        indexLetters = nil
        follow.structureKeys = Set(structure)
        follow.order = order
        follow.collection = collection
        follow.journal = collection.map { engine.graph.watchMembers($0) }
        follow.inPlace = collection != nil && !merged && !(recorder?.readOther ?? true) && !cellOffRow
        // The sort texts, gathered as the rows were built, are what the first search folds (when it searches them).
        let sortTexts = searchesSortTexts(cellOffRow: cellOffRow) ? sortKeys.takeTexts() : nil
        if follow.inPlace {
            rows = ListRowTable(following: consume built, order: sorted, filters: filters)
        } else {
            rows = ListRowTable(rows: consume built, order: sorted, filters: filters)
        }
        rows.keepSortTexts(sortTexts)
    }

    /// Whether a search reads the rows' sort keys as they are (`searchIsSort`), on a list that can be searched (its
    /// `search` flag is not plainly off): its full pass then keeps the sort texts for the first search.
    func searchesSortTexts(cellOffRow: Bool) -> Bool {
        searchIsSort && !cellOffRow && !declaration.search.isEmpty && declaration.search != "#false"
    }

    /// One row's keys: sort, group and its title, scope text, hidden flags, and (with `search`) its search text.
    func rowKeys(_ e: Entity, seq: Double, cellOffRow: Bool, hidesRows: Bool, search: Bool, keys: ListKeyReaders) throws -> RowKeys {
        let sort = try keys.sort.read(e, engine: engine)
        let group = try keys.group.read(e, engine: engine)
        let title = bGroupName.isEmpty ? group.displayString : try engine.evaluate(bGroupName, e, mode: .display).displayString
        // The cell's path (the default scope text) is read where the cell reads it.
        let filter = bFilter.isEmpty ? nil
            : try engine.evaluate(bFilter, declaration.searchFilterPath.isEmpty ? (cellOffRow ? try cellContext(e) : e) : e, mode: .display).displayString ?? ""
        let searchText = search ? try searchValue(e, sort: sort, cellOffRow: cellOffRow) : nil
        let hiddenDisplay = hidesRows ? try !rowShown(e, editing: false) : false
        let hiddenEdit = hidesRows ? try !rowShown(e, editing: true) : false
        // Made once, at the end: a row changed after it was made was copied whole (six retains a row).
        return RowKeys(row: Row(entity: e, seq: seq, groupTitle: title, group: group, hiddenDisplay: hiddenDisplay,
                                hiddenEdit: hiddenEdit, sort: sort),
                       search: searchText, filter: filter)
    }

    /// A row's search text before normalizing (`ListRowTexts` keeps it normalized): `searchPath`, else the
    /// cell's path where the cell reads it.
    func searchValue(_ e: Entity, sort: Value, cellOffRow: Bool) throws -> String {
        // The search text is often the sort key (`searchPath = "name"`, `rowSort = "name"`): read once.
        let value = searchIsSort && !cellOffRow ? sort
            : try engine.evaluate(bSearchPath, declaration.searchPath.isEmpty && cellOffRow ? try cellContext(e) : e, mode: .display)
        return value.displayString ?? ""
    }

    /// Computes every row's search text (the first search after a full pass), its reads added to the rows'.
    func computeSearchTexts() {
        guard !follow.searchReady else { return }
        follow.searchReady = true
        guard let s = keysSubscription, !s.cancelled else { return }
        let cellOffRow = !declaration.cell["contextPath"].isEmpty
        engine.graph.extend(s, piece: nil) { rec in
            rows.setSearchTexts(fromSort: searchIsSort && !cellOffRow) { entity, sort in
                rec.piece = entity
                return (try? searchValue(entity, sort: sort, cellOffRow: cellOffRow)) ?? ""
            }
            rec.piece = nil
            if rec.readOther { follow.inPlace = false }
        }
    }

    /// The display positions of the rows whose search text, as written, contains `literal` (lower-cased) case
    /// aside: a search that normalizes to nothing (`SearchText.literal`). Each row's text is read again (the kept
    /// ones are normalized); `computeSearchTexts` has recorded what they read.
    func literalMatches(_ literal: String) -> [Int32] {
        let cellOffRow = !declaration.cell["contextPath"].isEmpty
        return rows.indices.compactMap { p -> Int32? in
            let row = rows[p]
            let text = (try? searchValue(row.entity, sort: row.sort, cellOffRow: cellOffRow)) ?? ""
            return SearchText.containsLiteral(text, literal) ? Int32(truncatingIfNeeded: p) : nil
        }
    }

    /// Applies the edits since the last refresh row by row; false when a full pass is needed instead.
    func updateInPlace(_ s: Subscription) throws -> Bool {
        let edits = follow.journal?.drain()
        guard follow.inPlace, !follow.needsFull, let c = follow.collection else { return false }
        if let edits {
            if edits.overflowed { return false }
            let inserts = edits.edits.reduce(0) { n, e in if case .inserted = e { return n + 1 }; return n }
            if inserts > 16 { return false }
            for edit in edits.edits {
                switch edit {
                case .inserted(.entity(let e), let index):
                    guard rows.slot(of: e) == nil, try insertRow(e, hint: index, in: c, s) else { return false }
                case .removed(.entity(let e), _):
                    guard let slot = rows.slot(of: e) else { continue }
                    guard let p = rows.position(of: slot, before: follow.order.before) else { return false }
                    indexLetters?.removed(rows[p].groupTitle)
                    titleLeaves(at: p)
                    rows.remove(at: p)
                    follow.removedSince += 1
                default: return false
                }
            }
        }
        // Rows whose keys read a changed field: out, new keys, back in their place.
        var seen = Set<ObjectIdentifier>()
        for e in follow.dirty where seen.insert(ObjectIdentifier(e)).inserted {
            guard let slot = rows.slot(of: e) else { continue }
            guard let p = rows.position(of: slot, before: follow.order.before) else { return false }
            let old = rows.row(slot: slot)
            guard let k = try keys(of: e, seq: old.seq, s) else { return false }
            titleLeaves(at: p)
            _ = rows.unlink(at: p)
            indexLetters?.removed(old.groupTitle)
            let q = rows.insertionPoint(k.row, before: follow.order.before)
            rows.reinsert(slot, k, at: q)
            guard keepsSectionsApart(at: q) else { return false }
            letterCame(k.row, at: q)
        }
        follow.dirty = []
        // Reads of removed rows stay recorded until a full pass: one after as many removals as rows.
        if follow.removedSince > max(64, rows.count) { return false }
        matching = nil
        keptRebuilds += 1
        keptRowsVersion += 1
        return true
    }

    /// A row for an entity put into the data at `hint` (its position then; checked against the data now).
    private func insertRow(_ e: Entity, hint: Int, in c: EntityCollection, _ s: Subscription) throws -> Bool {
        let items = c.items
        var at = hint
        if !(at >= 0 && at < items.count && items[at].entity === e) {
            guard let i = c.index(of: e) else { return true }   // already gone again
            at = i
        }
        func seq(_ i: Int) -> Double? {
            guard i >= 0, i < items.count, let n = items[i].entity, let slot = rows.slot(of: n) else { return nil }
            return rows.row(slot: slot).seq
        }
        let prev = at > 0 ? seq(at - 1) : nil, next = at + 1 < items.count ? seq(at + 1) : nil
        if at > 0, prev == nil { return false }
        if at + 1 < items.count, next == nil { return false }
        let place: Double
        switch (prev, next) {
        case (nil, nil): place = 0
        case (let p?, nil): place = p + 1
        case (nil, let n?): place = n - 1
        case (let p?, let n?):
            place = (p + n) / 2
            guard place > p, place < n else { return false }   // no room left between them: a full pass renumbers
        }
        guard let k = try keys(of: e, seq: place, s) else { return false }
        let q = rows.insertionPoint(k.row, before: follow.order.before)
        rows.insert(k, at: q)
        guard keepsSectionsApart(at: q) else { return false }
        letterCame(k.row, at: q)
        return true
    }

    /// Keeps the index letters with a row that came in at `p` (or drops them to be computed again).
    private func letterCame(_ row: Row, at p: Int) {
        guard var letters = indexLetters else { return }
        let table = rows
        indexLetters = letters.inserted(row.groupTitle, at: p, count: table.count) { table[$0].groupTitle } ? letters : nil
    }

    /// The index letters of the rows shown.
    func currentIndexLetters(_ shown: VisibleRows) -> [String] {
        if let keeper { return keeper.currentIndexLetters(shown) }
        if shown.allCount != nil {
            if let l = indexLetters { return l.letters }
            let l = ListIndexLetters(letterBytes: rows.letterBytes)
            indexLetters = l
            return l.letters
        }
        return rows.letters(at: shown)
    }

    /// A row's keys computed as part of the rows' subscription (its reads added to it); nil when they read
    /// something other than the row's own fields.
    private func keys(of e: Entity, seq: Double, _ s: Subscription) throws -> RowKeys? {
        let cellOffRow = !declaration.cell["contextPath"].isEmpty
        let hides = cellHidesRows
        return try engine.graph.extend(s, piece: e) { rec -> RowKeys? in
            let row = try rowKeys(e, seq: seq, cellOffRow: cellOffRow, hidesRows: hides, search: follow.searchReady,
                                  keys: ListKeyReaders(sort: bSort, group: bGroup, engine: engine))
            return rec.readOther ? nil : row
        }
    }
}
