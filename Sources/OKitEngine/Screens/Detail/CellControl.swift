import Foundation

/// Controls: what each cell kind shows, and the values each edit kind takes (screens.md "Detail").
extension DetailScreen {
    /// True when a cell's control takes values now: an edit kind, in edit mode, not `readOnly`.
    func takesValues(_ c: CellDeclaration, on ctx: Entity?) throws -> Bool {
        guard CellDeclaration.editKinds.contains(c.kind), editing else { return false }
        return try !flag(c["readOnly"], on: ctx, default: false)
    }

    /// A number from a binding (with its default binding when the property is not set).
    func number(_ c: CellDeclaration, _ property: String, default fallback: String, on ctx: Entity?) throws -> Value {
        let v = try engine.get(ctx, c[property].isEmpty ? fallback : c[property], mode: .display)
        if let n = v.numeric { return n }
        return try engine.get(ctx, fallback).numeric ?? .int(0)
    }

    /// The range of a slider (`#0`…`#1`) or stepper (`#0`…`#100`) and a stepper's step (`#1`).
    func range(_ c: CellDeclaration, on ctx: Entity?) throws -> (min: Value, max: Value, step: Value) {
        let slider = c.kind == "slider"
        return (try number(c, "minValuePath", default: "#0", on: ctx),
                try number(c, "maxValuePath", default: slider ? "#1" : "#100", on: ctx),
                try step(c, on: ctx))
    }

    /// A stepper's step (`#1`): one that is not above 0 is `#1`, as a UIStepper refuses it (`okit-run check`
    /// names it).
    func step(_ c: CellDeclaration, on ctx: Entity?) throws -> Value {
        let step = try number(c, "stepValuePath", default: "#1", on: ctx)
        return (step.doubleValue ?? 0) > 0 ? step : .int(1)
    }

    /// A date from a date value or an ISO 8601 string (`Z`, `±hh:mm` or `±hhmm`).
    static func date(_ v: Value) -> Date? {
        switch v {
        case .date(let d): return d
        case .string(let s): return ISODate.parse(s)
        default: return nil
        }
    }

    /// A date cell's range (`minDatePath`, `maxDatePath`).
    func dateRange(_ c: CellDeclaration, on ctx: Entity?) throws -> (min: Date?, max: Date?) {
        func bound(_ p: String) throws -> Date? {
            c[p].isEmpty ? nil : DetailScreen.date(try engine.get(ctx, c[p], mode: .display))
        }
        return (try bound("minDatePath"), try bound("maxDatePath"))
    }

    /// A segment cell's titles (the parts of `segmentsPath`).
    func segments(_ c: CellDeclaration, on ctx: Entity?) throws -> [String] {
        guard !c["segmentsPath"].isEmpty else { return [] }
        return try engine.getAll(ctx, c["segmentsPath"], mode: .display).map { $0.displayString ?? "" }
    }

    /// A picker's options: the entities of `dataPath` with their `namePath` texts (default: the display string).
    func options(_ c: CellDeclaration, on ctx: Entity?) throws -> [(entity: Entity, name: String)] {
        guard !c["dataPath"].isEmpty else { return [] }
        let data = try engine.get(ctx, c["dataPath"], mode: .display)
        if case .collection(let coll) = data { engine.graph.recordMembers(coll) }
        return try (data.elements ?? []).compactMap(\.entity).map { e in
            (e, try (c["namePath"].isEmpty ? e.displayString : engine.text(e, c["namePath"])) ?? "")
        }
    }

    /// The entity a picker's `selectionPath` points to: a ref's target, an entity, or an id.
    func pickerSelection(_ c: CellDeclaration, on ctx: Entity?) throws -> Entity? {
        switch try engine.get(ctx, c["selectionPath"], mode: .display) {
        case .entity(let r) where r.type.isRef: return engine.resolveRef(r)
        case .entity(let r) where SelectionScreen.isRefLike(r.type):
            guard case .string(let key) = try engine.read(r, "refKey"), !key.isEmpty else { return nil }
            return engine.lookup(id: key, from: r.model)
        case .entity(let e): return e
        case .string(let key) where !key.isEmpty: return engine.lookup(id: key, from: ctx?.model)
        default: return nil
        }
    }

    /// A cell's control, or nil: table cells have none, nor edit cells outside edit mode with
    /// `controlInDisplay` false. `id`: the cell's, for warnings.
    func control(of c: CellDeclaration, on ctx: Entity?, id: String) throws -> ControlSnapshot? {
        let editKind = CellDeclaration.editKinds.contains(c.kind)
        guard editKind || ["progress", "image", "web"].contains(c.kind) else { return nil }
        if editKind, !editing, try !flag(c["controlInDisplay"], on: ctx) { return nil }
        let enabled = try takesValues(c, on: ctx)
        let v = c.valuePath.isEmpty ? Value.null : try engine.get(ctx, c.valuePath, mode: .display)
        var control = ControlSnapshot(value: SnapshotValue(v), enabled: enabled)
        switch c.kind {
        case "text", "multiline":
            control.placeholder = try engine.text(ctx, c["placeholder"])
            if try flag(c["secure"], on: ctx, default: false) {
                control.secure = true
                control.value = .null
            }
        case "switch":
            control.value = .bool(DetailScreen.switchIsOn(v))
        case "date":
            control.value = DetailScreen.date(v).map { .string(ISODate.format($0, fractional: false)) } ?? .null
            let (lo, hi) = try dateRange(c, on: ctx)
            control.min = lo.map { .string(ISODate.format($0, fractional: false)) }
            control.max = hi.map { .string(ISODate.format($0, fractional: false)) }
        case "segment":
            let titles = try segments(c, on: ctx)
            control.segments = titles
            if try segmentsByTitle(c, on: ctx) {
                control.index = v.displayString.flatMap { titles.firstIndex(of: $0) }
            } else if let i = v.intValue, i >= 0, titles.isEmpty || i < titles.count {
                control.index = i
            }
        case "picker" where c.isTextPicker:
            let options = try textOptions(c, on: ctx)
            control.options = options.map(\.title)
            control.value = v.displayString.map { .string($0) } ?? .null
            control.selected = DetailScreen.textOptionPosition(of: v, in: options)
        case "picker":
            let options = try options(c, on: ctx)
            control.options = options.map(\.name)
            let selected = try pickerSelection(c, on: ctx)
            control.value = selected?.id.map { .string($0) } ?? .null
            if let selected, let i = options.firstIndex(where: { $0.entity === selected }) { control.selected = i + 1 }
        case "slider", "stepper":
            let r = try range(c, on: ctx)
            control.min = SnapshotValue(r.min)
            control.max = SnapshotValue(r.max)
            if c.kind == "stepper" { control.step = SnapshotValue(r.step) }
        case "progress":
            control.value = SnapshotValue(v.numeric ?? .null)
        case "image":
            control.value = imageText(v, cell: id).map { .string($0) } ?? .null
        case "web":
            control.value = v.displayString.map { .string($0) } ?? .null
        default:
            break
        }
        return control
    }
}
