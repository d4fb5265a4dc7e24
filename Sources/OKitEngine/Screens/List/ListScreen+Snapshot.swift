/// A list's snapshot, recomputed incrementally: each row's snapshot and the header (title, subtitle, prompt,
/// buttons) are computed inside a subscription that records what they read, and kept until a write touches any
/// of it. A snapshot after a write to one book recomputes that book's row only.
final class CachedRow {
    weak var entity: Entity?
    var row: RowSnapshot?
    var subscription: Subscription?
    /// The screen state the row was computed in (edit mode changes selection, accessories, delete).
    var editing = false
}

final class CachedHeader {
    var title: String?
    var subtitle: String?
    var prompt: String?
    var buttons: [ButtonSnapshot] = []
    var subscription: Subscription?
    var editing = false
    var rowCount = 0
}

extension ListScreen {
    /// The screen as a person sees it: title, subtitle, search, index and a window of rows.
    public func snapshot(offset: Int = 0, limit: Int = 200) throws -> ScreenSnapshot {
        try refresh()
        let d = declaration
        let shown = visible()
        var snap = ScreenSnapshot(id: d.id, kind: "list", context: context?.debugName)
        let header = try currentHeader()
        snap.title = header.title
        snap.subtitle = header.subtitle
        snap.prompt = header.prompt
        snap.buttons = header.buttons
        snap.editing = editing
        // In edit mode, whether rows move now: as `move` allows it (not grouped, not while a search hides rows).
        if editing { snap.reorder = try flag(d.reorder, row: context, default: false) && d.group.isEmpty && shown.count == rows.count }
        if try flag(d.search, row: context) {
            let scopes = try scopeTitles()
            let all = engine.word(.all)
            snap.search = SearchSnapshot(visible: true, text: searchText, scopes: scopes.isEmpty ? [] : [all] + scopes,
                                         scope: scopeIndex == 0 || scopeIndex > scopes.count ? all : scopes[scopeIndex - 1])
        }
        snap.rowCount = shown.count
        snap.index = try shownIndex()
        let start = max(0, min(offset, shown.count))
        let end = start + min(max(0, limit), shown.count - start)   // no overflow for a huge limit
        var kept: [ObjectIdentifier: CachedRow] = [:]
        kept.reserveCapacity(end - start)
        var starts: [Int] = []
        for k in start..<end {
            let row = rows[shown[k]]
            var r = try rowSnapshot(row.entity, into: &kept)
            if snap.reorder == false, r.move == true { r.move = false }
            if let last = snap.sections.last, last.header == row.groupTitle {
                snap.sections[snap.sections.count - 1].rows.append(r)
            } else {
                snap.sections.append(SectionSnapshot(header: row.groupTitle, footer: nil, rows: [r]))
                starts.append(k)
            }
        }
        // Rows that left the window stop listening.
        for (key, c) in rowCache where kept[key] == nil { c.subscription?.cancel() }
        rowCache = kept
        if hasSectionLines { try addSectionLines(&snap, shown: shown, starts: starts, end: end) }
        if !bFooter.isEmpty { snap.footer = try footerLine(shown: shown) }
        return snap
    }

    /// A row's snapshot: the kept one while nothing it read changed, else computed again.
    func rowSnapshot(_ e: Entity, into kept: inout [ObjectIdentifier: CachedRow]) throws -> RowSnapshot {
        let key = ObjectIdentifier(e)
        if let c = rowCache[key], c.entity === e, c.editing == editing, let sub = c.subscription, !sub.isStale, let r = c.row {
            sub.touch()
            kept[key] = c
            return r
        }
        // Stale in the same mode: evaluated again in place (the same subscription), not a new one per change.
        if let c = rowCache[key], c.entity === e, c.editing == editing, let sub = c.subscription, !sub.cancelled {
            _ = sub.value
            if let error = sub.lastError { sub.cancel(); rowCache[key] = nil; throw error }
            kept[key] = c
            return c.row ?? RowSnapshot(id: e.id, text: nil, detail: nil)
        }
        rowCache[key]?.subscription?.cancel()
        let c = CachedRow()
        c.entity = e
        c.editing = editing
        c.subscription = engine.graph.subscribe({ [weak self, weak c] in
            guard let self, let c else { return .null }
            self.rowComputations += 1
            c.row = try self.computeRow(e)
            return .null
        })
        if let error = c.subscription?.lastError { c.subscription?.cancel(); throw error }
        kept[key] = c
        rowCache[key] = c
        return c.row ?? RowSnapshot(id: e.id, text: nil, detail: nil)
    }

    /// Everything a row shows, from its bindings.
    func computeRow(_ e: Entity) throws -> RowSnapshot {
        let d = declaration
        let a = d.actions
        let acc = accessoryProperties
        let plain = plainCell
        let ctx = plain && !d.cell["contextPath"].isEmpty ? try cellContext(e) : e
        var r = RowSnapshot(id: e.id,
                            text: plain ? try engine.evaluate(bText, ctx, mode: .display).displayString : nil,
                            detail: plain ? try engine.evaluate(bDetail, ctx, mode: .display).displayString : nil)
        // In edit mode with selectPath (OKit's multi-select) rows show no delete control.
        let deletable = try canDelete && !(editing && !d.selectPath.isEmpty)
        r.delete = try deletable && (try flag(d.deleteEnabled, row: e, default: true)) && (try flag(d.editEnabled, row: e, default: true))
        if editing, !d.selectPath.isEmpty { r.selected = try flag(d.selectPath, row: e) }
        // What `move` takes (ListScreen+Editing.swift); a search makes it false in `snapshot`.
        if editing {
            r.move = try flag(d.reorder, row: context, default: false) && d.group.isEmpty
                && (try flag(d.reorderEnabled, row: e, default: true)) && (try flag(d.editEnabled, row: e, default: true))
        }
        // OKit's leading swipe shows with a name or an image (an image alone has no title).
        let quickTitle = a.quickName.isEmpty ? nil : try engine.text(e, a.quickName)
        let quickImage = a.quickImage.isEmpty ? nil : try engine.text(e, a.quickImage)
        if quickTitle != nil || quickImage != nil {
            r.quick = QuickSnapshot(title: quickTitle ?? "", enabled: try flag(a.quickEnabled, row: e, default: true),
                                    image: quickImage.flatMap { $0.isEmpty ? nil : $0 })
        }
        r.more = try flag(a.more, row: context) && (try flag(a.moreEnabled, row: e, default: true))
        if !acc.text.isEmpty || !acc.icon.isEmpty, try flag(acc.show, row: e, default: true) {
            r.accessory = AccessorySnapshot(kind: acc.tap == nil ? "label" : "button",
                                            text: try engine.text(e, acc.text.isEmpty ? acc.icon : acc.text),
                                            enabled: try flag(acc.enabled, row: e, default: true))
        }
        if !plain { try cellRow(e, into: &r) }
        return r
    }

    /// Title, subtitle, prompt and buttons: kept while nothing they read changed.
    func currentHeader() throws -> CachedHeader {
        if let h = headerCache, h.editing == editing, h.rowCount == rows.count, let sub = h.subscription, !sub.isStale { sub.touch(); return h }
        headerCache?.subscription?.cancel()
        let h = CachedHeader()
        h.editing = editing
        h.rowCount = rows.count
        h.subscription = engine.graph.subscribe({ [weak self, weak h] in
            guard let self, let h else { return .null }
            self.headerComputations += 1
            try self.computeHeader(into: h)
            return .null
        })
        if let error = h.subscription?.lastError { h.subscription?.cancel(); throw error }
        headerCache = h
        return h
    }

    func computeHeader(into h: CachedHeader) throws {
        let d = declaration
        let (title, subtitle) = try titles()
        h.title = title
        h.subtitle = subtitle
        h.prompt = try engine.text(context, d.promptPath)
        h.buttons = try buttons()
    }

    /// The title a tab shows: the list's title without computing its rows, so a tab bar does not depend on the rows
    /// of the lists it names.
    public func tabTitle() throws -> String? { try titles().title }

    /// Title and subtitle (`titlePath`, `subTitlePath`, `titleCount` with `subTitleObject`, `subTitleSwap`).
    func titles() throws -> (title: String?, subtitle: String?) {
        try declaration.titleProperties.evaluate(engine, on: context)
    }
}
