/// A detail (or settings) screen: sections of cells evaluated on the context, edit cells that take values in edit
/// mode, per-cell taps, accessories and segues (screens.md "Detail"). Hidden cells (`showDisplay`/`showEdit`
/// false, or a height of 0) and empty sections are absent. Snapshots are incremental (DetailScreen+Snapshot.swift).
public final class DetailScreen: ShellScreen {
    // What a snapshot reads comes first, in the object's first two cache lines (a change reaches screens that are
    // cold in memory: 10,000 open screens, performance.md).
    public let declaration: DetailDeclaration
    public let context: Entity?
    let engine: Engine
    /// The selected row, by its declared position (a row revealed by `selectNextRow`, an inline date or picker).
    public internal(set) var selectedCell: CellPosition?
    /// Edit mode; changing it clears the row selection (as in OKit).
    public internal(set) var editing = false {
        didSet { if oldValue != editing { selectedCell = nil } }
    }
    /// The snapshot caches (DetailScreen+Snapshot.swift): the title bar, each section, each cell.
    var headerCache: CachedDetailPart<DetailHeaderParts>?
    var sectionCache: [CachedDetailPart<DetailSectionParts>?]
    /// The cells' parts in one flat list, section after section (`cellStart`).
    var cellCache: [CachedDetailPart<RowSnapshot?>?]
    /// Each section's first cell in `cellCache` (the declaration's, shared by its screens).
    let cellStart: [Int]
    /// How many times the title bar, a section and a cell were computed (for tests and benchmarks).
    public internal(set) var headerComputations = 0
    public internal(set) var sectionComputations = 0
    public internal(set) var cellComputations = 0
    /// The cells' ids by declared position: `id`, else the path's first part; duplicates numbered `#2`, `#3`.
    let ids: [[String]]
    weak var shell: AppShell?
    public var id: String { declaration.id }
    public var kind: String { declaration.kind }
    public func help() -> String? { declaration.help }

    /// A cell's place in the declaration: section and cell index (0-based).
    public struct CellPosition: Hashable, Sendable {
        public let section: Int
        public let cell: Int
    }

    /// A visible cell with its id, place and context (the screen's, after the cell's `contextPath`).
    struct ShownCell {
        let id: String
        let cell: CellDeclaration
        let position: CellPosition
        let context: Entity?
    }

    /// Opens the screen: the context after `contextPath`; every binding of every cell compiled (a bad one fails
    /// here, naming the cell and property).
    public init(engine: Engine, declaration d: DetailDeclaration, context: Entity?) throws {
        self.engine = engine
        declaration = d
        self.context = d.contextPath.isEmpty ? context : try engine.get(context, d.contextPath).entity
        for s in d.sections {
            for c in s.cells {
                guard CellDeclaration.kinds.contains(c.kind) else { throw DetailError.unknownKind(d.id, c.kind) }
                for (name, b) in c.properties where name == "contextPath" || !CellDeclaration.literalProperties.contains(name) {
                    if CellDeclaration.isLiteral(name, b) { continue }
                    do { _ = try engine.compile(b) } catch { throw DetailError.badBinding(d.id, c.defaultId, name, "\(error)") }
                }
            }
        }
        let layout = d.layout
        self.ids = layout.ids
        cellStart = layout.cellStart
        sectionCache = Array(repeating: nil, count: d.sections.count)
        cellCache = Array(repeating: nil, count: layout.cellCount)
    }

    deinit { cancelSnapshotCache() }

    public func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot { try snapshot() }

    /// This screen for hooks.
    public var info: ScreenInfo { ScreenInfo(id: id, kind: declaration.kind, context: context) }

    public func appear() throws {
        if let hook = declaration.hooks.onAppear { try hook.run(engine, on: context, screen: info) }
    }

    public func disappear() throws {
        if let hook = declaration.hooks.onDisappear { try hook.run(engine, on: context, screen: info) }
    }

    // MARK: Flags and visibility

    /// A flag binding on a context; an empty binding gives the default.
    func flag(_ binding: String, on ctx: Entity?, default value: Bool = true) throws -> Bool {
        try engine.flag(binding, on: ctx, default: value)
    }

    func isEditAlways() throws -> Bool { try flag(declaration.editAlways, on: context, default: false) }

    /// The value of part `index` of a multipart screen property; nil when the property has no such part or the
    /// part is empty.
    func part(_ multipart: String, _ index: Int) throws -> Value? {
        guard !multipart.isEmpty else { return nil }
        let b = try engine.compile(multipart)
        guard index < b.parts.count else { return nil }
        if case .constant(.null) = b.parts[index] { return nil }
        return try engine.evaluate(Binding(text: b.text, parts: [b.parts[index]]), context, mode: .display)
    }

    /// Whether a section shows its header and footer: its part of `sectionsShowDisplay`/`sectionsShowEdit` when
    /// that part is not empty, else its own `showDisplay`/`showEdit`. False hides the header and footer only, as in
    /// OKit (§5.3: their height 0, a nil title); its cells show per their own `showDisplay`/`showEdit`.
    func sectionTitlesShown(_ index: Int) throws -> Bool {
        let s = declaration.sections[index]
        if let v = try part(editing ? declaration.sectionsShowEdit : declaration.sectionsShowDisplay, index) { return v.truthy }
        return try flag(editing ? s.showEdit : s.showDisplay, on: context)
    }

    /// The context of a cell: the screen's, after the cell's `contextPath`.
    func cellContext(_ c: CellDeclaration) throws -> Entity? {
        c["contextPath"].isEmpty ? context : try engine.get(context, c["contextPath"]).entity
    }

    /// A cell's tap opens its `segue` (else its `present`) with the cell's context, a bar button its own on the
    /// screen's: the places a URL may name after this screen (`ShellScreen.opens`).
    public func opens(_ screen: String, entity: String?, presenting: Bool) throws -> Bool {
        if declaration.buttons.open(screen, entity: entity, presenting: presenting, on: context) { return true }
        for (_, c) in declaration.identifiedCells {
            let target = presenting ? (c["segue"].isEmpty ? c["present"] : "") : c["segue"]
            if target == screen, (try? cellContext(c))?.id == entity { return true }
        }
        return false
    }

    /// The `heightSelect` that applies to a cell (default `#216` for date and picker cells).
    static func heightSelect(_ c: CellDeclaration) -> String {
        c["heightSelect"].isEmpty ? (c.selectsToEdit ? "#216" : "") : c["heightSelect"]
    }

    /// A cell is visible per `showEdit` (edit mode) or `showDisplay`, and while its height is not 0: the selected
    /// row's `heightSelect`, else `heightEdit` in edit mode, else `heightDisplay`. As in OKit (§5.1 "Heights")
    /// these are evaluated on the screen's context (a list's row cell: the row's entity), never after the cell's
    /// own `contextPath`.
    func cellShown(_ c: CellDeclaration, at position: CellPosition) throws -> Bool {
        guard try flag(editing ? c["showEdit"] : c["showDisplay"], on: context) else { return false }
        var height = editing && !c["heightEdit"].isEmpty ? c["heightEdit"] : c["heightDisplay"]
        if selectedCell == position, !DetailScreen.heightSelect(c).isEmpty { height = DetailScreen.heightSelect(c) }
        guard !height.isEmpty, let h = try engine.get(context, height, mode: .display).doubleValue else { return true }
        return h > 0
    }

    /// The visible cells in order.
    func shownCells() throws -> [ShownCell] {
        var out: [ShownCell] = []
        for (si, s) in declaration.sections.enumerated() {
            for (ci, c) in s.cells.enumerated() {
                let position = CellPosition(section: si, cell: ci)
                guard try cellShown(c, at: position) else { continue }
                out.append(ShownCell(id: ids[si][ci], cell: c, position: position, context: try cellContext(c)))
            }
        }
        return out
    }

    /// The text a cell shows: `editPath` in edit mode when set, else `path`.
    func text(of c: CellDeclaration, on ctx: Entity?) throws -> String? {
        try engine.text(ctx, editing && !c["editPath"].isEmpty ? c["editPath"] : c["path"])
    }

    /// A visible cell by position, (section, cell) pair, id or text (its title as shown: `Menge` for `%Amount` in
    /// `de`). One that none names is refused listing the cells by the names that keep addressing them
    /// (`DetailScreen.shownNames`): a title written as a text, else the id — a title read from the model (a
    /// stepper's `path = "n"` shows `9`) changes with the value, so its cell is listed by its id (`n`).
    func cell(_ address: RowAddress) throws -> ShownCell {
        let cells = try shownCells()
        var keyed: [(section: Int, id: String?, text: String?)] = []
        for c in cells { keyed.append((c.position.section, c.id, try text(of: c.cell, on: c.context))) }
        let named = cells.indices.map { i in (keyed[i].section, keyed[i].id, titleIsText(cells[i].cell) ? keyed[i].text : nil) }
        do {
            return cells[try address.resolve(keyed)]
        } catch ShellError.noRow(let position, let count) {
            // A position past the cells that is the id or the shown text of exactly one cell (`set 9 5` in the
            // shell, for the stepper showing 9) names that cell; else a detail screen shows cells, not a list's rows
            // (`no cell 99 (the screen has 6 cells)`).
            if case .position(let n) = address {
                let matching = keyed.indices.filter { keyed[$0].id == "\(n)" || keyed[$0].text == "\(n)" }
                if matching.count == 1 { return cells[matching[0]] }
            }
            if case .key(let k) = address {
                // A key of digits that names no cell and is no position: refused by name, as any other key.
                throw ShellError.noCell(k, cells: DetailScreen.shownNames(named), meant: DetailScreen.closestTitle(to: k, named))
            }
            throw ShellError.noCellAt(position, count: count)
        } catch ShellError.noRowMatching(let k, _, _) {
            // As a person writes it: `montant` or `date d'echeance` for the title "Montant", "Date d'échéance".
            let folded = MatchedText.fold(k)
            let matching = keyed.indices.filter { i in [keyed[i].id, keyed[i].text].contains { $0.map(MatchedText.fold) == folded } }
            if matching.count == 1 { return cells[matching[0]] }
            if matching.count > 1 { throw ShellError.ambiguousRow(k, candidates: matching.map { "\($0 + 1)" }) }
            throw ShellError.noCell(k, cells: DetailScreen.shownNames(named), meant: DetailScreen.closestTitle(to: k, named))
        }
    }

    /// Whether a cell's title (`editPath` in edit mode, else `path`) is written as a text (`%Name`, `#Copies`, or
    /// none) rather than read from the model.
    func titleIsText(_ c: CellDeclaration) -> Bool {
        let path = editing && !c["editPath"].isEmpty ? c["editPath"] : c["path"]
        guard let b = try? engine.compile(path) else { return false }
        return b.parts.allSatisfy { part in
            switch part {
            case .constant, .localized: return true
            case .path, .expression: return false
            }
        }
    }

    /// The shown title (else id) nearest to a name no cell has, case and accents aside (`NameSuggestion`): "Montant"
    /// for `montnt`; nil when none is near.
    static func closestTitle(to name: String, _ cells: [(section: Int, id: String?, text: String?)]) -> String? {
        let names = cells.map(shownName)
        let folded = names.map(MatchedText.fold)
        guard let near = NameSuggestion.closest(to: MatchedText.fold(name), in: folded), let i = folded.firstIndex(of: near) else { return nil }
        return names[i]
    }

    /// A cell as a person sees it: its title as shown, else its id (a cell without a title).
    static func shownName(_ c: (section: Int, id: String?, text: String?)) -> String {
        c.text.flatMap { $0.isEmpty ? nil : $0 } ?? c.id ?? ""
    }

    /// The visible cells as a person sees them, in order: each one's title as shown, else its id (a cell without a
    /// title); a title that several cells show comes with each one's 1-based position (`Menge (4)`).
    static func shownNames(_ cells: [(section: Int, id: String?, text: String?)]) -> [String] {
        let names = cells.map(shownName)
        var count: [String: Int] = [:]
        for n in names { count[n, default: 0] += 1 }
        return names.enumerated().map { count[$0.element, default: 0] > 1 ? "\($0.element) (\($0.offset + 1))" : $0.element }
    }

    // MARK: Rows

    /// A cell's row: texts, image, ribbon, accessory, selection and control.
    func row(_ shown: ShownCell) throws -> RowSnapshot {
        let c = shown.cell
        let ctx = shown.context
        let detailPath = editing && !c["editDetailPath"].isEmpty ? c["editDetailPath"] : c["detailPath"]
        var row = RowSnapshot(id: shown.id, text: try text(of: c, on: ctx), detail: try engine.text(ctx, detailPath))
        row.kind = c.kind
        let imagePath = editing && !c["editImagePath"].isEmpty ? c["editImagePath"] : c["imagePath"]
        if !imagePath.isEmpty { row.image = imageText(try engine.get(ctx, imagePath, mode: .display), cell: shown.id) }
        row.ribbon = try engine.text(ctx, editing && !c["editRibbonColor"].isEmpty ? c["editRibbonColor"] : c["ribbonColor"])
        row.accessory = try accessory(of: c, on: ctx)
        row.selected = selectedCell == shown.position
        row.control = try control(of: c, on: ctx, id: shown.id)
        if CellDeclaration.editKinds.contains(c.kind), !c.valuePath.isEmpty {
            // A rule that fails (a `validate` function's error) shows no message and warns; the screen stays.
            do { row.invalid = try engine.currentInvalidMessage(ctx, binding: c.valuePath) } catch {
                engine.warn("screen \"\(id)\", cell \"\(shown.id)\": the rules of the field it writes failed: \(error)")
            }
        }
        if row.detail == nil, detailPath.isEmpty {
            // OKit's date and picker cells show their value in the detail label.
            row.detail = try valueLabel(of: c, on: ctx, control: row.control)
        }
        return row
    }

    /// The accessory: a button (`accyText`/`accyIcon`), else the kind of `accyPath` (OKit's accessory type, by
    /// name or UIKit number), else a detail button when the cell has an accessory action; the `accyEdit*`
    /// properties in edit mode. `accyShow` false hides the button (and that detail button), not `accyPath`'s
    /// kind: in OKit it hides the accessory view, and the cell's accessory type still shows (§5.2), as in a list.
    func accessory(of c: CellDeclaration, on ctx: Entity?) throws -> AccessorySnapshot? {
        guard c.declaresAccessory else { return nil }
        func prop(_ name: String) -> String {
            let edit = c["accyEdit" + name]
            return editing && !edit.isEmpty ? edit : c["accy" + name]
        }
        let shown = try flag(prop("Show"), on: ctx)
        guard shown || !prop("Path").isEmpty else { return nil }
        let enabled = try flag(prop("Enabled"), on: ctx)
        if shown, !prop("Text").isEmpty || !prop("Icon").isEmpty {
            let text = try engine.text(ctx, prop("Text")) ?? engine.text(ctx, prop("Icon"))
            return AccessorySnapshot(kind: "button", text: text, enabled: enabled)
        }
        if !prop("Path").isEmpty {
            let v = try engine.get(ctx, prop("Path"), mode: .display)
            let names = ["none", "disclosure", "detailDisclosure", "checkmark", "detail"]
            func named(_ i: Int) -> String { i >= 0 && i < names.count ? names[i] : "none" }
            var kind: String?
            switch v {
            case .int(let i): kind = named(i)
            case .double: kind = v.intValue.map(named)
            case .string(let s): kind = Int(s).map(named) ?? (names.contains(s) ? s : nil)   // an unknown name: none, as OKit
            default: kind = nil
            }
            guard let kind, kind != "none", !kind.isEmpty else { return nil }
            return AccessorySnapshot(kind: kind, text: nil, enabled: enabled)
        }
        if shown, accessoryAction(of: c) != nil { return AccessorySnapshot(kind: "detail", text: nil, enabled: enabled) }
        return nil
    }

    /// The accessory action for the current mode: `accyEditTap` (falling back to `accyTap`) in edit mode.
    func accessoryAction(of c: CellDeclaration) -> Action? {
        editing ? (c.actions["accyEditTap"] ?? c.actions["accyTap"]) : c.actions["accyTap"]
    }

    /// Images and data as text: a binary field's label, else its size (`1234 bytes`); a base64 text (or `data:`
    /// URL) its format and size (`image/png, 68 bytes`); a name as it is. A text taken as base64 that decodes to
    /// no image shows nothing and warns, naming the cell.
    func imageText(_ v: Value, cell: String) -> String? {
        if case .entity(let meta) = v, meta.type.kind == .binary || meta.type.kind == .inlineBinary {
            if let slot = meta.type.slot(of: "label"), let label = meta.values[slot].displayString { return label }
            if let slot = meta.type.slot(of: "size"), let size = meta.values[slot].intValue { return "\(size) bytes" }
            return meta.debugName
        }
        guard case .string(let text) = v else { return v.displayString }
        switch Base64Image.read(text) {
        case .notBase64: return text
        case .image(let image): return image.label
        case .invalid(let why):
            engine.warn("screen \"\(id)\", cell \"\(cell)\": its image is a text okit cannot show: \(why)")
            return nil
        }
    }
}
