/// What a detail (or settings) screen has as OKit's ModelBaseTableController and ModelDetailTableController beside
/// its sections: the count in its title (`titleCount`, `subTitleObject`, `subTitleObjectPlural`, `subTitleSwap`,
/// as a list's) and the controller-level actions (`tap`, `tapEdit`, `accyTap`, `accyEditTap`), which okit applies
/// to every cell that has none of its own (screens.md "Detail").
extension DetailDeclaration {
    public var titleCount: String {
        get { storage.titleCount }
        _modify { makeUnique(); yield &storage.titleCount }
    }
    public var subTitleObject: String {
        get { storage.subTitleObject }
        _modify { makeUnique(); yield &storage.subTitleObject }
    }
    public var subTitleObjectPlural: String {
        get { storage.subTitleObjectPlural }
        _modify { makeUnique(); yield &storage.subTitleObjectPlural }
    }
    /// Swaps title and subtitle (default `#false`, as OKit's).
    public var subTitleSwap: String {
        get { storage.subTitleSwap }
        _modify { makeUnique(); yield &storage.subTitleSwap }
    }
    /// The screen's actions by name (`tap`, `tapEdit`, `accyTap`, `accyEditTap`), run on the screen's context for
    /// a cell without its own: `tap` in display mode, `tapEdit` in edit mode (*fix*: OKit's was never called), and
    /// on a cell's accessory `accyTap`, in edit mode `accyEditTap` (else `accyTap`).
    public var actions: [String: Action] {
        get { storage.actions }
        _modify { makeUnique(); yield &storage.actions }
    }

    /// The action a tap on `cell` runs in a mode: its own `tap` (`tapEdit` in edit mode), or for a cell with
    /// neither, the screen's (`screenLevel`: run on the screen's context rather than the cell's).
    public func tapAction(of cell: CellDeclaration, editing: Bool) -> (action: Action, screenLevel: Bool)? {
        if cell.actions["tap"] != nil || cell.actions["tapEdit"] != nil {
            return (editing ? cell.actions["tapEdit"] : cell.actions["tap"]).map { ($0, false) }
        }
        return (editing ? actions["tapEdit"] : actions["tap"]).map { ($0, true) }
    }

    /// The screen-level action properties (OKit's ModelDetailTableController's).
    public static let actionProperties: Set<String> = ["tap", "tapEdit", "accyTap", "accyEditTap"]

    /// The title properties, as every table screen has them (`ScreenTitleProperties`).
    var titleProperties: ScreenTitleProperties {
        ScreenTitleProperties(titlePath: titlePath, subTitlePath: subTitlePath, titleCount: titleCount, subTitleObject: subTitleObject,
                              subTitleObjectPlural: subTitleObjectPlural, subTitleSwap: subTitleSwap)
    }
}
