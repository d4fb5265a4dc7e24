/// A list's view state across a live reload (`ScreenViewState`): edit mode, the search text and its scope.
extension ListScreen {
    public var viewState: ScreenViewState {
        var state = ScreenViewState(editing: editing)
        state.search = searchText
        state.scopeIndex = scopeIndex
        return state
    }

    public func restore(_ state: ScreenViewState) {
        if state.editing, !editing, (try? flag(declaration.edit, row: context)) == true { editing = true }
        guard !state.search.isEmpty || state.scopeIndex > 0, (try? flag(declaration.search, row: context)) == true else { return }
        let scopes = (try? scopeTitles())?.count ?? 0
        scopeIndex = state.scopeIndex <= scopes ? state.scopeIndex : 0
        search(state.search)
    }

}
