import Foundation

/// A detail screen: sections of cells evaluated on the context; edit cells take values in edit mode
/// (screens.md "Detail"). Hidden cells (`showDisplay`/`showEdit` false) and empty sections are absent.
public final class DetailScreen: ShellScreen {
    public let declaration: DetailDeclaration
    public let context: Entity?
    let engine: Engine
    weak var shell: AppShell?
    public internal(set) var editing = false
    public var id: String { declaration.id }

    public func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot { try snapshot() }

    public func appear() throws {
        if let hook = declaration.hooks.onAppear { try hook.run(engine, on: context) }
    }

    public init(engine: Engine, declaration d: DetailDeclaration, context: Entity?) throws {
        self.engine = engine
        declaration = d
        self.context = d.contextPath.isEmpty ? context : try engine.get(context, d.contextPath).entity
        for s in d.sections {
            for c in s.cells { for (_, b) in c.properties { _ = try engine.compile(b) } }
        }
    }

    static let editKinds: Set<String> = ["text", "multiline", "switch", "date", "segment", "picker", "slider", "stepper"]

    func visible(_ binding: String, default value: Bool = true) throws -> Bool {
        binding.isEmpty ? value : try engine.get(context, binding, mode: .display).truthy
    }

    /// The visible cells with their ids (duplicates numbered `#2`, `#3`), in order.
    func visibleCells() throws -> [(id: String, cell: CellDeclaration, section: Int)] {
        var out: [(String, CellDeclaration, Int)] = []
        var seen: [String: Int] = [:]
        let editAlways = try visible(declaration.editAlways, default: false)
        for (si, s) in declaration.sections.enumerated() {
            guard try visible(editing ? s.showEdit : s.showDisplay) else { continue }
            for c in s.cells {
                let ctx = c["contextPath"].isEmpty ? context : try engine.get(context, c["contextPath"]).entity
                let show = editing || editAlways ? c["showEdit"] : c["showDisplay"]
                let shown = try show.isEmpty || engine.get(ctx, show, mode: .display).truthy
                guard shown else { continue }
                let base = c.defaultId
                let n = (seen[base] ?? 0) + 1
                seen[base] = n
                out.append((n == 1 ? base : "\(base)#\(n)", c, si))
            }
        }
        return out
    }

    /// A visible cell by position, (section, cell) pair, id or text.
    func cell(_ address: RowAddress) throws -> (id: String, cell: CellDeclaration, section: Int) {
        let cells = try visibleCells()
        var keyed: [(section: Int, id: String?, text: String?)] = []
        for c in cells {
            let ctx = c.cell["contextPath"].isEmpty ? context : try engine.get(context, c.cell["contextPath"]).entity
            keyed.append((c.section, c.id, try engine.text(ctx, c.cell["path"])))
        }
        do {
            return cells[try address.resolve(keyed)]
        } catch ShellError.noRowMatching(let k, _, _) {
            throw ShellError.noCell(k, cells: cells.map(\.id))
        }
    }

    public func snapshot() throws -> ScreenSnapshot {
        var snap = ScreenSnapshot(id: declaration.id, kind: declaration.kind, context: context?.debugName)
        snap.title = try engine.text(context, declaration.titlePath)
        snap.subtitle = try engine.text(context, declaration.subTitlePath)
        snap.editing = editing
        var lastSection = -1
        for (id, c, si) in try visibleCells() {
            let ctx = c["contextPath"].isEmpty ? context : try engine.get(context, c["contextPath"]).entity
            var row = RowSnapshot(id: id, text: try engine.text(ctx, c["path"]), detail: try engine.text(ctx, c["detailPath"]))
            row.kind = c.kind
            if !c.valuePath.isEmpty {
                let v = try engine.get(ctx, c.valuePath, mode: .display)
                let readOnly = try visible(c["readOnly"], default: false)
                row.control = ControlSnapshot(value: SnapshotValue(v), enabled: editing && !readOnly)
            }
            if si != lastSection {
                let s = declaration.sections[si]
                snap.sections.append(SectionSnapshot(header: try engine.text(context, s.header), footer: try engine.text(context, s.footer), rows: []))
                lastSection = si
            }
            snap.sections[snap.sections.count - 1].rows.append(row)
        }
        snap.rowCount = snap.sections.reduce(0) { $0 + $1.rows.count }
        return snap
    }

    /// Sets an edit cell's value (two-way write through its value binding; clamped for sliders and steppers).
    public func set(cell: RowAddress, value: Value) throws {
        let c = try self.cell(cell).cell
        let cell = cell.description
        guard DetailScreen.editKinds.contains(c.kind), !c.valuePath.isEmpty else { throw ShellError.notEditable(cell) }
        guard editing else { throw ShellError.notEditing(cell) }
        if try visible(c["readOnly"], default: false) { throw ShellError.notEditable(cell) }
        let ctx = c["contextPath"].isEmpty ? context : try engine.get(context, c["contextPath"]).entity
        var v = value
        if c.kind == "slider" || c.kind == "stepper" {
            guard let d = value.doubleValue else { throw ShellError.badValue(cell, "a number") }
            let lo = try engine.get(ctx, c["minValuePath"].isEmpty ? "#0" : c["minValuePath"]).doubleValue ?? 0
            let hi = try engine.get(ctx, c["maxValuePath"].isEmpty ? (c.kind == "slider" ? "#1" : "#100") : c["maxValuePath"]).doubleValue ?? 1
            var x = min(max(d, lo), hi)
            if c.kind == "stepper" {
                let step = try engine.get(ctx, c["stepValuePath"].isEmpty ? "#1" : c["stepValuePath"]).doubleValue ?? 1
                if step > 0 { x = lo + ((x - lo) / step).rounded() * step; x = min(x, hi) }
            }
            v = x == x.rounded() && abs(x) < 9e15 ? .int(Int(x)) : .double(x)
        } else if c.kind == "switch" {
            v = .bool(value.truthy)
        }
        try engine.asAction { try engine.set(ctx, binding: c.valuePath, v) }
    }

    /// Turns edit mode on or off (the Edit button shows unless `edit` is false; `editAlways` keeps it on).
    public func setEditing(_ on: Bool) throws {
        if try visible(declaration.editAlways, default: false) {
            if !on { throw ShellError.notAllowed("edit off (editAlways)", id) }
            return
        }
        guard try visible(declaration.edit, default: true) || editing else { throw ShellError.notAllowed("edit", id) }
        editing = on
        if let hook = declaration.hooks.onEdit { try hook.run(engine, on: context) }
    }
}

/// A control's state in a snapshot.
public struct ControlSnapshot: Equatable, Sendable {
    public var value: SnapshotValue
    public var enabled: Bool
}

/// A value in a snapshot (keeps its type: a switch's value is a bool, a stepper's a number).
public enum SnapshotValue: Equatable, Sendable {
    case null, bool(Bool), int(Int), double(Double), string(String)

    init(_ v: Value) {
        switch v {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        default: self = v.displayString.map { .string($0) } ?? .null
        }
    }
}
