/// OKit's section index (screens.md "List", `index`): on a grouped list the snapshot shows "A"…"Z" and "#", and
/// choosing a letter leads to the first section whose title starts with it; a letter without a section leads to the
/// next section after it in the index's order (A…Z, then "#" for titles not starting with A–Z), and when none comes
/// after it, to the last section; "#" leads to those other titles only. A list without grouping has no index (OKit's
/// does nothing there). In a language written in Greek or Cyrillic letters, or in Latin letters with letters of its
/// own (Turkish, Polish, …), the index is its alphabet and "#" (`ListIndexLetters.alphabet(for:)`); in Japanese and
/// Korean it is iOS's (あ か … わ or ㄱ ㄴ … ㅎ, A–Z, "#"), "next" in the list's order (`ListIndexLetters.listOrder`).
extension ListScreen {
    /// The index the snapshot shows: the whole alphabet and "#" when `index` holds on a grouped list, else none.
    func shownIndex() throws -> [String] {
        guard !declaration.group.isEmpty, try flag(declaration.index, row: context) else { return [] }
        return ListIndexLetters.alphabet(for: engine.locale.language)
    }

    /// The index letters of the sections shown, in their order (what a chosen letter is matched against).
    func indexLettersPresent() throws -> [String] {
        try refresh()
        return try presentLetters(visible(), index: shownIndex())
    }

    /// The index letters of the rows `shown`, in their order: kept with the rows for the A–Z index, else read
    /// from the titles (an alphabet's index; choosing a letter is rare).
    private func presentLetters(_ shown: VisibleRows, index: [String]) -> [String] {
        if index.isEmpty || ListIndexLetters.isLatin(index) { return currentIndexLetters(shown) }
        var present: [String] = []
        var last: String??
        for p in shown.indices {
            let title = rows.title(shown[p])
            if last == .some(title) { continue }
            last = .some(title)
            let l = ListIndexLetters.letter(title, in: index)
            if !present.contains(l) { present.append(l) }
        }
        return present
    }

    /// Where choosing the index letter `letter` leads: the 1-based position, over the rows shown (after search and
    /// scope, as commands address rows), of the first row of its section. Nil without an index or rows, or for a
    /// letter that is not in the index.
    public func indexRow(_ letter: String) throws -> Int? {
        try refresh()
        let index = try shownIndex()
        guard !index.isEmpty, index.contains(ListIndexLetters.upper(letter, in: index)) else { return nil }
        let shown = visible()
        guard let lastRow = shown.indices.last else { return nil }
        let letterAt = { (p: Int) in ListIndexLetters.letter(self.rows.title(shown[p]), in: index) }
        if let target = ListIndexLetters.target(of: letter, present: presentLetters(shown, index: index), in: index),
           let p = shown.indices.first(where: { letterAt($0) == target }) {
            return p + 1
        }
        // "#" without titles outside the index's letters leads nowhere, never to a letter's section.
        if letter == "#" { return nil }
        // No section at or after the letter: the last section, from its first row.
        let lastTitle = rows.title(shown[lastRow])
        var p = lastRow
        while p > 0, rows.title(shown[p - 1]) == lastTitle { p -= 1 }
        return p + 1
    }
}

extension ScreenSnapshot {
    /// Where choosing the index letter `letter` leads among the sections this snapshot holds (a list's window):
    /// the 0-based number of the first section whose header's index letter is the letter, else of the first one
    /// after it in the list's order of the index's letters (A…Z, then "#"; `ListIndexLetters.listOrder`), else the
    /// last section; nil without an index or sections, or for a letter that is not in the index. A front end's
    /// index links take their targets from here.
    public func indexSection(_ letter: String) -> Int? {
        guard !index.isEmpty, !sections.isEmpty, index.contains(ListIndexLetters.upper(letter, in: index)) else { return nil }
        let letters = sections.map { ListIndexLetters.letter($0.header, in: index) }
        var present: [String] = []
        for l in letters where !present.contains(l) { present.append(l) }
        guard let target = ListIndexLetters.target(of: letter, present: present, in: index) else {
            return letter == "#" ? nil : sections.count - 1   // "#" never leads to a letter's section
        }
        return letters.firstIndex(of: target)
    }
}
