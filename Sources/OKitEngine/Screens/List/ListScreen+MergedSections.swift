/// Sections with equal titles (screens.md "List"): a full pass merges them, and rows followed one by one are
/// checked to keep every title in one run on one key (else the next refresh is a full pass).
extension ListScreen {
    /// A full pass's sections: those named alike merged in `sorted` (true when any did), and each title's key kept
    /// for the rows followed one by one after it.
    func mergeSections(_ sorted: inout [Int32], _ rows: [Row], order: ListRowOrder, textKeys: Bool) -> Bool {
        follow.titles = nil
        // Sections in key order whose titles are their keys' texts never merge: nothing to look at.
        guard !bGroup.isEmpty, !(order.grouped && bGroupName.isEmpty && textKeys) else { return false }
        let sections = ListScreen.mergingSections(sorted, rows, rowOrder: order)
        follow.titles = sections.titles
        guard let merged = sections.order else { return false }
        sorted = merged
        return true
    }

    /// Sections with equal titles merge (screens.md "List"): when the rows of a title come with more than one
    /// group key (`groupName` naming several keys alike, e.g. High for 5, 9 and 10) or in two places, they make
    /// one section in the place of the title's first rows, and the rows of such a section are put back in the row
    /// order (`rowSort`, else the data's) — OKit merges rows into the first key seen, in row order. `order` is nil
    /// when no section merges (one pass over the rows, comparing a row's key only with the row before it of the
    /// same title; no sort); `titles` then gives each title's key, for the rows followed one by one.
    static func mergingSections(_ order: [Int32], _ rows: [Row], rowOrder: ListRowOrder) -> (order: [Int32]?, titles: [String?: Value]) {
        var titles: [String?: Value] = [:]
        var previous = -1
        var merging = false
        for i in order.lazy.map(Int.init) {
            if previous >= 0, rows[previous].groupTitle == rows[i].groupTitle {
                if !rows[previous].group.isSame(as: rows[i].group) { merging = true; break }
            } else if titles.updateValue(rows[i].group, forKey: rows[i].groupTitle) != nil {
                merging = true; break
            }
            previous = i
        }
        guard merging else { return (nil, titles) }
        var buckets: [[Int32]] = []
        var bucketOf: [String?: Int] = [:]
        var mixed: Set<Int> = []   // sections of more than one run or key: sorted again
        var last = -1
        for i in order {
            let row = rows[Int(i)]
            if let b = bucketOf[row.groupTitle] {
                if b != last || !rows[Int(buckets[b][0])].group.isSame(as: row.group) { mixed.insert(b) }
                buckets[b].append(i)
                last = b
            } else {
                bucketOf[row.groupTitle] = buckets.count
                last = buckets.count
                buckets.append([i])
            }
        }
        let inSection = ListRowOrder(grouped: false, sorted: rowOrder.sorted, groupAscending: true,
                                     ascending: rowOrder.ascending, collation: rowOrder.collation)
        for b in mixed { buckets[b].sort { inSection.before(rows[Int($0)], rows[Int($1)]) } }
        return (buckets.flatMap { $0 }, [:])
    }

    /// Whether the row now at display position `p`, placed row by row, leaves every title in one run on one key:
    /// it joins the run of its title and key, or starts a title no row has, without splitting a run. Otherwise
    /// sections would merge, which a full pass does (`mergingSections`). Lists without `group` always can.
    func keepsSectionsApart(at p: Int) -> Bool {
        guard !bGroup.isEmpty else { return true }
        let title = rows.title(p), key = rows.group(at: p)
        let before = p > 0 ? rows.title(p - 1) : nil, after = p + 1 < rows.count ? rows.title(p + 1) : nil
        if p > 0, p + 1 < rows.count, before == after, before != title { return false }   // splits a run
        var joined = false
        for q in [p - 1, p + 1] where q >= 0 && q < rows.count {
            let sameTitle = rows.title(q) == title
            if sameTitle != rows.group(at: q).isSame(as: key) { return false }
            joined = joined || sameTitle
        }
        guard follow.titles != nil else {
            // Titles are the keys' texts: a text key's title is no other key's.
            if case .string = key { return true }
            return false
        }
        if joined { return true }
        if follow.titles?[title] != nil { return false }
        follow.titles?[title] = key
        return true
    }

    /// Forgets the title of the row at display position `p`, about to leave, when it is the last row of its run.
    func titleLeaves(at p: Int) {
        guard !bGroup.isEmpty, follow.titles != nil else { return }
        let title = rows.title(p)
        if p > 0, rows.title(p - 1) == title { return }
        if p + 1 < rows.count, rows.title(p + 1) == title { return }
        follow.titles?[title] = nil
    }
}
