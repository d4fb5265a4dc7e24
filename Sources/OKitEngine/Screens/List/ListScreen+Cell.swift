/// A list's row cell beyond `path`/`detailPath`: OKit's table-cell properties (`contextPath`, `imagePath`,
/// `ribbonColor`, `accyPath`, `editPath`, heights and show flags, …) and edit cells (`cell = okit.cell.date { … }`,
/// OKit's Bookshop dates list). Such a row is drawn as a detail cell on the row's entity, so every cell property
/// means in a list what it means in a detail screen; `set ROW VALUE` writes an edit cell's value.
extension ListScreen {
    /// True when the cell has only `path`, `detailPath` and `contextPath` (the fast path: two bindings a row).
    static func isPlainCell(_ c: CellDeclaration) -> Bool {
        c.kind == "table" && c.actions.isEmpty && c.properties.keys.allSatisfy { plainCellProperties.contains($0) }
    }

    static let plainCellProperties: Set<String> = ["path", "detailPath", "contextPath"]

    /// The properties that hide a row (show flags and heights).
    static let visibilityProperties = ["showDisplay", "showEdit", "heightDisplay", "heightEdit"]

    /// True when the cell can hide rows.
    var cellHidesRows: Bool { ListScreen.visibilityProperties.contains { !declaration.cell[$0].isEmpty } }

    /// Where a row's cell bindings are evaluated: the row's entity, after the cell's `contextPath`.
    func cellContext(_ e: Entity) throws -> Entity? {
        let path = declaration.cell["contextPath"]
        return path.isEmpty ? e : try engine.get(e, path, mode: .display).entity
    }

    /// The row's cell as a one-cell detail screen on the row's entity, in the list's edit mode.
    func cellScreen(_ e: Entity) throws -> DetailScreen {
        var d = DetailDeclaration(id: id)
        d.sections = [SectionDeclaration(cells: [declaration.cell])]
        let screen = try DetailScreen(engine: engine, declaration: d, context: e)
        screen.shell = shell
        screen.editing = editing
        return screen
    }

    /// Whether a row shows in a mode (its cell's `showDisplay`/`showEdit` and heights), evaluated on the row's
    /// entity as OKit does (§5.1 "Heights"), never after the cell's `contextPath`.
    func rowShown(_ e: Entity, editing: Bool) throws -> Bool {
        let c = declaration.cell
        let show = editing ? c["showEdit"] : c["showDisplay"]
        if !show.isEmpty, !(try engine.get(e, show, mode: .display).truthy) { return false }
        let height = editing && !c["heightEdit"].isEmpty ? c["heightEdit"] : c["heightDisplay"]
        guard !height.isEmpty, let h = try engine.get(e, height, mode: .display).doubleValue else { return true }
        return h > 0
    }

    /// The row drawn through its cell: text, detail, image, ribbon, accessory and control.
    func cellRow(_ e: Entity, into r: inout RowSnapshot) throws {
        let screen = try cellScreen(e)
        guard let shown = try screen.shownCells().first else { return }
        let cellRow = try screen.row(shown)
        r.text = cellRow.text
        r.detail = cellRow.detail
        r.image = cellRow.image
        r.ribbon = cellRow.ribbon
        r.control = cellRow.control
        r.invalid = cellRow.invalid
        if declaration.cell.kind != "table" { r.kind = declaration.cell.kind }
        if r.accessory == nil { r.accessory = cellRow.accessory }
    }

    /// Sets the value of a row whose cell is an edit cell (`set ROW VALUE`), as a detail cell takes it.
    public func set(cell row: RowAddress, value: Value) throws {
        guard CellDeclaration.editKinds.contains(declaration.cell.kind) else {
            throw ShellError.notAllowed("set (the rows' cell is a \(declaration.cell.kind) cell; set takes values of edit cells)", id)
        }
        let e = try entity(row: row)
        try cellScreen(e).set(cell: .position(1), value: value)
    }
}
