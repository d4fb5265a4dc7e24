/// A detail screen's snapshot, recomputed incrementally: the title bar, each section's visibility, header and
/// footer, and each cell (its visibility and its row) are computed inside a subscription that records what they
/// read (`CachedDetailPart`), and kept until a write touches any of it, or the screen state they depend on (edit
/// mode, the selected row) changes. After a write to one field only the cells that read it are computed again.

/// A section's header and footer (nil while its `sectionsShowDisplay`/`showDisplay` flag hides them).
struct DetailSectionParts {
    var header: String?
    var footer: String?
}

/// The title bar's parts.
struct DetailHeaderParts {
    var title: String?
    var subtitle: String?
    var prompt: String?
    var buttons: [ButtonSnapshot] = []
}

extension DetailScreen {
    /// What a person sees now: title, buttons, the visible sections with their visible cells and controls.
    public func snapshot() throws -> ScreenSnapshot {
        var snap = ScreenSnapshot(id: declaration.id, kind: declaration.kind, context: context?.debugName)
        let header = try cached(&headerCache, state: editing ? 1 : 0, at: CellPosition(section: 0, cell: 0),
                                count: { $0.headerComputations += 1 }, empty: DetailHeaderParts()) { s, _ in
            // A detail has no rows to count: a `titleCount` that is no number counts 0, as OKit's `getInt ?? 0`.
            let (title, subtitle) = try s.declaration.titleProperties.evaluate(s.engine, on: s.context)
            return DetailHeaderParts(title: title, subtitle: subtitle, prompt: try s.engine.text(s.context, s.declaration.promptPath),
                                     buttons: try s.buttons())
        }
        snap.title = header.title
        snap.subtitle = header.subtitle
        snap.prompt = header.prompt
        snap.buttons = header.buttons
        snap.editing = editing
        for si in declaration.sections.indices {
            let section = try cached(&sectionCache[si], state: editing ? 1 : 0, at: CellPosition(section: si, cell: 0),
                                     count: { $0.sectionComputations += 1 },
                                     empty: DetailSectionParts()) { s, p in try s.computeSection(p.section) }
            var rows: [RowSnapshot] = []
            for ci in declaration.sections[si].cells.indices {
                let position = CellPosition(section: si, cell: ci)
                let state = (editing ? 1 : 0) + (selectedCell == position ? 2 : 0)
                let row = try cached(&cellCache[cellStart[si] + ci], state: state, at: position, count: { $0.cellComputations += 1 },
                                     empty: RowSnapshot?.none) { s, p in try s.computeCell(at: p) }
                if let row { rows.append(row) }
            }
            if !rows.isEmpty { snap.sections.append(SectionSnapshot(header: section.header, footer: section.footer, rows: rows)) }
        }
        snap.rowCount = snap.sections.reduce(0) { $0 + $1.rows.count }
        return snap
    }

    /// A part's value: the kept one while current, else computed again inside a new subscription. `compute`
    /// captures nothing (what it needs comes as `position`): a part then costs no closure context.
    func cached<T>(_ slot: inout CachedDetailPart<T>?, state: Int, at position: CellPosition,
                   count: @escaping (DetailScreen) -> Void, empty: T,
                   compute: @escaping (DetailScreen, CellPosition) throws -> T) throws -> T {
        if let c = slot, c.isCurrent(state) {
            if !c.cancelled { c.touch() }
            return c.computed
        }
        // Stale in the same state: evaluated again in place (the same subscription, its edges kept when it reads
        // what it read before), not a new subscription per change.
        if let c = slot, c.isIn(state), !c.cancelled {
            _ = c.value
            if let error = c.lastError {
                c.cancel()
                slot = nil
                throw error
            }
            return c.computed
        }
        slot?.cancel()
        let c = CachedDetailPart(empty, state: state, screen: self, position: position, count: count, compute: compute)
        engine.graph.subscribe(c)
        if let error = c.lastError {
            c.cancel()
            slot = nil
            throw error
        }
        if c.readsNothing { c.cancel() }   // constant: current until the screen's state changes
        slot = c
        return c.computed
    }

    /// A section's header and footer: a non-empty part of `sectionHeaders`/`sectionFooters` gives its value — nil
    /// when it evaluates to nil, as OKit's `getString(part)` (§5.3) — and an empty or missing one the section's own;
    /// none while its show flag is false (the cells show per their own flags).
    func computeSection(_ si: Int) throws -> DetailSectionParts {
        guard try sectionTitlesShown(si) else { return DetailSectionParts() }
        let s = declaration.sections[si]
        let header = try part(declaration.sectionHeaders, si).map { $0.displayString } ?? engine.text(context, s.header)
        let footer = try part(declaration.sectionFooters, si).map { $0.displayString } ?? engine.text(context, s.footer)
        return DetailSectionParts(header: header, footer: footer)
    }

    /// A cell's row, or nil while it is hidden.
    func computeCell(at position: CellPosition) throws -> RowSnapshot? {
        let c = declaration.sections[position.section].cells[position.cell]
        guard try cellShown(c, at: position) else { return nil }
        return try row(ShownCell(id: ids[position.section][position.cell], cell: c, position: position, context: try cellContext(c)))
    }

    /// Reads the lists of parts and prefetches each part's first line (what the next snapshot checks first), for
    /// `Subscription.warm`: through their addresses, so that no reference count is touched.
    func warmParts() {
        func firstLines(_ parts: UnsafeRawBufferPointer) {
            for bits in parts.bindMemory(to: UInt.self) { Subscription.warmFirstLine(bits) }
        }
        sectionCache.withUnsafeBytes(firstLines)
        cellCache.withUnsafeBytes(firstLines)
    }

    /// Stops listening (the screen closed).
    func cancelSnapshotCache() {
        headerCache?.cancel()
        for c in sectionCache { c?.cancel() }
        for c in cellCache { c?.cancel() }
    }
}
