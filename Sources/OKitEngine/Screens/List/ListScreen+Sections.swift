/// Section lines (`groupHeader`, `groupFooter`) and the list's footer (`footerPath`), evaluated on a `ListSection`
/// of the rows shown. Each is kept with the rows it was computed on and what its bindings read: a write to a field
/// a section's total read computes that section again (one pass over its rows); a row that comes, goes or moves
/// between sections computes the sections whose rows changed; the others are kept. Lists without these
/// properties do none of this.
final class CachedSection {
    /// The list's footer (`footerPath`) rather than a section's lines.
    let isFooter: Bool
    /// The section's rows (strong references: an entity freed and another made at its address must not compare
    /// equal) and group key.
    var members: [Entity] = []
    var key: Value = .null
    /// The section the bindings are evaluated on, made once and given the new rows when they change: an evaluation
    /// after a write then reads exactly what it read before, and the graph keeps its edges (a new entity each time
    /// made every evaluation detach and attach one edge per row).
    var section: Entity?
    var header: String?
    var footer: String?
    var subscription: Subscription?
    /// The rows' state the members were last confirmed in (`ListScreen.rowsStamp`).
    var stamp: RowsStamp?

    init(isFooter: Bool) { self.isFooter = isFooter }
}

/// What decides which rows a list shows: while it is unchanged, every section has the rows it had.
struct RowsStamp: Equatable {
    let version: Int
    let search: String
    let scope: Int
    let scopeTitle: String?
    let editing: Bool
}

extension ListScreen {
    /// Whether the list declares section lines.
    var hasSectionLines: Bool { !bGroupHeader.isEmpty || !bGroupFooter.isEmpty }

    /// The current rows' state.
    func rowsStamp() -> RowsStamp {
        let title = scopeIndex > 0 ? (try? scopeTitles()).flatMap { scopeIndex <= $0.count ? $0[scopeIndex - 1] : nil } : nil
        return RowsStamp(version: rowsVersion, search: searchText, scope: scopeIndex, scopeTitle: title, editing: editing)
    }

    /// Puts `groupHeader` / `groupFooter` into the window's sections. `starts` gives each section's first position
    /// in `shown` (within the window `start..<end`); the first and last sections may reach beyond the window, and
    /// their lines are computed over all their rows.
    func addSectionLines(_ snap: inout ScreenSnapshot, shown: VisibleRows, starts: [Int], end: Int) throws {
        let stamp = rowsStamp()
        var kept: [String?: CachedSection] = [:]
        for (i, first) in starts.enumerated() {
            let title = snap.sections[i].header
            let c = try section(title, stamp: stamp) {
                var lo = first, hi = i + 1 < starts.count ? starts[i + 1] : end
                if i == 0 { while lo > 0, rows.title(shown[lo - 1]) == title { lo -= 1 } }
                if i + 1 == starts.count { while hi < shown.count, rows.title(shown[hi]) == title { hi += 1 } }
                return ((lo..<hi).map { rows.entity(at: shown[$0]) }, rows.group(at: shown[lo]))
            }
            kept[title] = c
            snap.sections[i].subheader = c.header
            snap.sections[i].footer = c.footer
        }
        for (title, c) in sectionCache where kept[title] == nil { c.subscription?.cancel() }
        sectionCache = kept
    }

    /// The list's footer (`footerPath`) over every row shown.
    func footerLine(shown: VisibleRows) throws -> String? {
        let c = try cached(footerCache, isFooter: true, stamp: rowsStamp()) { (shown.map { rows.entity(at: $0) }, .null) }
        footerCache = c
        return c.footer
    }

    /// The cached lines of the section titled `title`, brought up to date.
    private func section(_ title: String?, stamp: RowsStamp, members: () -> ([Entity], Value)) throws -> CachedSection {
        try cached(sectionCache[title], isFooter: false, stamp: stamp, members: members)
    }

    /// `c` (or a new cache) brought up to date: its rows confirmed (or replaced) when the rows' state changed, its
    /// bindings evaluated again when its rows or anything they read changed.
    private func cached(_ existing: CachedSection?, isFooter: Bool, stamp: RowsStamp,
                        members: () -> ([Entity], Value)) throws -> CachedSection {
        let c = existing ?? CachedSection(isFooter: isFooter)
        var changed = existing == nil
        if c.stamp != stamp {
            let (now, key) = members()
            if !CachedSection.same(c.members, now) || !c.key.isSame(as: key) {
                c.members = now
                c.key = key
                c.section.map { ListSection.update($0, rows: now, key: key) }
                changed = true
            }
            c.stamp = stamp
        }
        if let s = c.subscription, !s.cancelled {
            if changed { engine.graph.reevaluate(s) } else if s.isStale { _ = s.value } else { s.touch() }
        } else {
            c.subscription = engine.graph.subscribe({ [weak self, weak c] in
                guard let self, let c else { return .null }
                try self.computeLines(c)
                return .null
            })
        }
        if let error = c.subscription?.lastError {
            c.subscription?.cancel()
            c.subscription = nil
            throw error
        }
        return c
    }

    /// Evaluates the lines of a section (or the footer) on its rows.
    private func computeLines(_ c: CachedSection) throws {
        if c.isFooter { footerComputations += 1 } else { sectionComputations += 1 }
        let section: Entity
        if let s = c.section {
            section = s
        } else {
            section = ListSection.entity(sectionType, rows: c.members, key: c.key)
            c.section = section
        }
        if c.isFooter {
            c.footer = try engine.evaluate(bFooter, section, mode: .display).displayString
            return
        }
        c.header = bGroupHeader.isEmpty ? nil : try engine.evaluate(bGroupHeader, section, mode: .display).displayString
        c.footer = bGroupFooter.isEmpty ? nil : try engine.evaluate(bGroupFooter, section, mode: .display).displayString
    }
}

extension CachedSection {
    /// The same entities in the same order.
    static func same(_ a: [Entity], _ b: [Entity]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 === $1 }
    }
}
