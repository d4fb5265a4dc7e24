/// A detail screen's view state across a live reload (`ScreenViewState`): edit mode and the revealed row.
extension DetailScreen {
    public var viewState: ScreenViewState {
        var state = ScreenViewState(editing: editing)
        state.selectedCell = selectedCell.map { [$0.section, $0.cell] }
        return state
    }

    public func restore(_ state: ScreenViewState) {
        if state.editing, !editing, (try? flag(declaration.edit, on: context)) == true { editing = true }
        if let p = state.selectedCell, p.count == 2, p[0] < declaration.sections.count, p[1] < declaration.sections[p[0]].cells.count {
            selectedCell = CellPosition(section: p[0], cell: p[1])
        }
    }
}
