/// An open selection screen: a list screen whose rows are checked when the model's selection points to them.
/// `tap` and `select` toggle a row (one undoable transaction); the Clear and Close buttons; `autoClose`.
/// Nothing about the selection is kept here: every snapshot reads it from the model again.
public final class SelectionScreen: ShellScreen {
    public let declaration: SelectionDeclaration
    let list: ListScreen
    weak var shell: AppShell?
    /// The context the pushing screen handed over (before `selectionContextPath`).
    let selectionBase: Entity?
    /// The effective `selectionPath` (its default filled in).
    public let selectionPath: String

    init(declaration: SelectionDeclaration, list: ListScreen, selectionBase: Entity?, selectionPath: String) throws {
        self.declaration = declaration
        self.list = list
        self.selectionBase = selectionBase
        self.selectionPath = selectionPath
        let engine = list.engine
        for (name, text) in [("selectionPath", selectionPath), ("selectionContextPath", declaration.selectionContextPath)]
            + declaration.flags.map({ ($0.name, $0.binding) }) {
            do { _ = try engine.compile(text) } catch { throw SelectionError.badBinding(declaration.id, name, "\(error)") }
        }
    }

    var engine: Engine { list.engine }
    public var id: String { declaration.id }
    public var kind: String { declaration.kind }
    public func help() -> String? { declaration.list.help }
    public var context: Entity? { list.context }
    public var editing: Bool { list.editing }
    public func setEditing(_ on: Bool) throws { try list.setEditing(on) }
    public var viewState: ScreenViewState { list.viewState }
    public func restore(_ state: ScreenViewState) { list.restore(state) }
    public func appear() throws { try list.appear() }
    public func opens(_ screen: String, entity: String?, presenting: Bool) throws -> Bool { try list.opens(screen, entity: entity, presenting: presenting) }
    public func disappear() throws { try list.disappear() }

    /// Where the selection lives now: one ref entity (nil while an optional ref field is unset), or a collection.
    enum Target {
        case single(Entity?)
        case multi(EntityCollection)
    }

    /// The entity `selectionPath` is evaluated on: the context handed over, or `selectionContextPath` on it.
    public func selectionContext() throws -> Entity? {
        let path = declaration.selectionContextPath
        guard !path.isEmpty else { return selectionBase }
        guard let e = try engine.get(selectionBase, path).entity else { throw ShellError.noContext(path) }
        return e
    }

    /// The value of `selectionPath`, checked: a ref (or a ref-like entity with a `refKey` field) or nil for a
    /// single choice; an array or set of refs for several.
    func target() throws -> Target {
        let ctx = try selectionContext()
        let value = try engine.get(ctx, selectionPath)
        switch value {
        case .null:
            return .single(nil)
        case .entity(let e) where SelectionScreen.isRefLike(e.type):
            return .single(e)
        case .collection(let c) where c.kind != .map:
            switch c.elementType {
            case .ref: return .multi(c)
            case .entity(let name) where engine.schema.type(named: name).map(SelectionScreen.isRefLike) == true: return .multi(c)
            default: break
            }
        default: break
        }
        throw SelectionError.notRefs(id, selectionPath, describe(value))
    }

    private func describe(_ value: Value) -> String {
        switch value {
        case .collection(let c):
            if c.kind == .map { return "a map" }
            return "a collection of \(c.elementType.declaration)"
        case .entity(let e): return "an entity of type \(e.type.name)"
        default: return "a \(value.typeName) value"
        }
    }

    /// Built-in refs, and declared types with a `refKey` field (OKit's ModelRef subclasses, `refType`).
    static func isRefLike(_ t: EntityType) -> Bool {
        t.isRef || t.field(named: "refKey")?.type == .string
    }

    /// The row id a ref-like value points to (nil when it points nowhere).
    func key(of value: Value) throws -> String? {
        guard case .entity(let r) = value, SelectionScreen.isRefLike(r.type) else { return nil }
        guard case .string(let k) = try engine.read(r, "refKey"), !k.isEmpty else { return nil }
        return k
    }

    /// The ids of the selected rows, read from the model.
    func selectedKeys() throws -> Set<String> {
        switch try target() {
        case .single(let r):
            guard let r, let k = try key(of: .entity(r)) else { return [] }
            return [k]
        case .multi(let c):
            engine.graph.recordMembers(c)
            return Set(try c.items.compactMap { try key(of: $0) })
        }
    }

    func flag(_ binding: String, default value: Bool) throws -> Bool {
        binding.isEmpty ? value : try engine.flag(binding, on: try selectionContext(), default: value)
    }

    /// True while the screen is on a presented stack (OKit shows Close only for modal selections).
    var isPresented: Bool {
        shell?.presented.contains { $0.contains { $0 === self } } ?? false
    }

    // MARK: Snapshot

    /// The list's snapshot with kind `selection`, every row `checked`, and the Close and Clear buttons first.
    public func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot {
        var snap = try list.snapshot(offset: offset, limit: limit)
        snap.kind = "selection"
        if snap.sections.contains(where: { !$0.rows.isEmpty }) {
            let keys = try selectedKeys()
            for s in snap.sections.indices {
                for r in snap.sections[s].rows.indices {
                    snap.sections[s].rows[r].checked = snap.sections[s].rows[r].id.map { keys.contains($0) } ?? false
                }
            }
        }
        snap.buttons = try selectionButtons() + snap.buttons
        return snap
    }

    func selectionButtons() throws -> [ButtonSnapshot] {
        var out: [ButtonSnapshot] = []
        if isPresented, try flag(declaration.close, default: true) { out.append(ButtonSnapshot(id: "close", title: engine.word(.close), enabled: true)) }
        if try flag(declaration.clear, default: true) { out.append(ButtonSnapshot(id: "clear", title: engine.word(.clear), enabled: true)) }
        return out
    }

    // MARK: Commands

    /// Toggles a row (OKit's row tap: list taps and navigation do not apply).
    public func tap(_ row: RowAddress) throws { try toggle(row) }
    /// Toggles a row, as `tap`.
    public func select(_ row: RowAddress) throws { try toggle(row) }
    public func accessory(_ row: RowAddress) throws { try list.accessory(row) }
    public func search(_ text: String, scope: String?) throws { try list.search(text, scope: scope) }
    public func titleTap() throws { try list.titleTap() }

    /// Presses Clear, Close, or one of the list's buttons (by id or title).
    public func button(_ name: String) throws {
        let own = try selectionButtons()
        guard let b = own.first(where: { $0.id == name || $0.title == name }) else {
            do { try list.button(name) } catch ShellError.noButton(_, let others) {
                throw ShellError.noButton(name, buttons: own.map(\.id) + others)
            }
            return
        }
        switch b.id {
        case "clear": try clearSelection()
        default: try closeScreen()
        }
    }

    /// Selects or unselects a row's entity per `unique`, `unselect`, `selectAppend` and `refType`, runs `onSelect`,
    /// then closes the screen when `autoClose` is true.
    func toggle(_ address: RowAddress) throws {
        let row = try list.entity(row: address)
        guard row.type.hasId, let key = row.id, !key.isEmpty else { throw SelectionError.noId(id, address.description) }
        let unique = try flag(declaration.unique, default: true)
        let unselect = try flag(declaration.unselect, default: true)
        let append = try flag(declaration.selectAppend, default: false)
        let autoClose = try flag(declaration.autoClose, default: false)
        try engine.asAction {
            try engine.transaction {
                switch try target() {
                case .single(let ref): try toggleSingle(ref, row: row, key: key, unselect: unselect)
                case .multi(let c): try toggleMulti(c, row: row, key: key, unique: unique, unselect: unselect, append: append)
                }
                if let hook = declaration.list.hooks.onSelect {
                    try hook.runHook("onSelect", engine, on: row, screen: ScreenInfo(id: id, kind: "selection", context: context))
                }
            }
        }
        if autoClose { try closeScreen() }
    }

    private func toggleSingle(_ ref: Entity?, row: Entity, key: String, unselect: Bool) throws {
        if let ref {
            try requireTarget(ref.type.refTarget, row: row)
            if try self.key(of: .entity(ref)) == key {
                if unselect { try unselectSingle(ref) }
            } else {
                try engine.set(ref, "refKey", .string(key))
            }
        } else {
            // An unset optional field: write the row (a ref field wraps it) or a new `refType` entity, then make
            // sure the field now points to the row (a `refType` written into a ref field would point elsewhere).
            let value = try declaration.refType.map { Value.entity(try makeRef($0, key: key)) } ?? .entity(row)
            try engine.set(try selectionContext(), binding: selectionPath, value)
            guard case .single(let written) = try target(), let written, try self.key(of: .entity(written)) == key else {
                throw SelectionError.refTypeMismatch(id, declaration.refType ?? row.type.name, selectionPath)
            }
        }
    }

    /// Refuses a row whose type is not the declared target of the refs (`ref Author` takes authors only).
    private func requireTarget(_ target: String?, row: Entity) throws {
        if let target, row.type.name != target { throw SelectionError.wrongRowType(id, row.type.name, target) }
    }

    private func toggleMulti(_ c: EntityCollection, row: Entity, key: String, unique: Bool, unselect: Bool, append: Bool) throws {
        let selected = try c.items.contains { try self.key(of: $0) == key }
        if selected, unique || c.kind == .set {
            guard unselect else { return }
            for i in c.items.indices.reversed() where try self.key(of: c.items[i]) == key { try engine.remove(at: i, from: c) }
            return
        }
        switch c.elementType {
        case .ref(let target):
            if let type = declaration.refType { throw SelectionError.refTypeMismatch(id, type, selectionPath) }
            try requireTarget(target, row: row)
            try engine.insert(.entity(row), into: c, append: append)
        case .entity(let name):
            try engine.insert(.entity(try makeRef(declaration.refType ?? name, key: key)), into: c, append: append)
        default:
            throw SelectionError.notRefs(id, selectionPath, "a collection of \(c.elementType.declaration)")
        }
    }

    /// A new ref-like entity of `type` pointing to `key`.
    private func makeRef(_ type: String, key: String) throws -> Entity {
        guard let t = engine.schema.type(named: type), SelectionScreen.isRefLike(t) else { throw SelectionError.badRefType(id, type) }
        return try engine.make(t, ["refKey": .string(key)])
    }

    /// Empties a single selection: a person's write, so the field's rules apply (`required = true` on the ref
    /// field: the tap or Clear is refused with the rule's message; it emptied the field without a word).
    private func unselectSingle(_ ref: Entity) throws {
        try engine.checkCommandWrite(ref, "refKey", emptyKey(ref))
        try engine.set(ref, "refKey", emptyKey(ref))
    }

    /// What unselecting writes to `refKey`: nil, or "" for a required text field.
    private func emptyKey(_ ref: Entity) -> Value {
        ref.type.isRef || ref.type.field(named: "refKey")?.optional == true ? .null : .string("")
    }

    /// Unselects everything (the Clear button), one transaction.
    public func clearSelection() throws {
        try engine.asAction {
            try engine.transaction {
                switch try target() {
                case .single(let ref):
                    if let ref, try key(of: .entity(ref)) != nil { try unselectSingle(ref) }
                case .multi(let c):
                    if !c.isEmpty { try engine.clear(c) }
                }
            }
        }
    }

    /// Closes the screen: dismissed when presented (with its presented stack), otherwise popped when on top of a
    /// stack it is not the first screen of (a home selection stays).
    func closeScreen() throws {
        guard let shell else { throw ShellError.notStarted }
        guard shell.alerts.isEmpty else { return }
        if isPresented {
            try shell.dismiss(self)
        } else if shell.top === self, shell.currentStackCount > 1 {
            try shell.back()
        }
    }
}

/// A selection screen that cannot do what was asked: says why; nothing changed.
public enum SelectionError: Error, CustomStringConvertible {
    case notRefs(String, String, String)
    case noId(String, String)
    case badRefType(String, String)
    case badBinding(String, String, String)
    case refTypeMismatch(String, String, String)
    case wrongRowType(String, String, String)

    public var description: String {
        switch self {
        case .notRefs(let screen, let path, let got):
            return "selection screen \"\(screen)\": selectionPath \"\(path)\" must reach a ref (one choice) or an array or set of refs (several), not \(got)"
        case .noId(let screen, let row):
            return "selection screen \"\(screen)\": row \(row) has no id and cannot be selected"
        case .badRefType(let screen, let type):
            return "selection screen \"\(screen)\": refType \"\(type)\" is not a declared entity type with a string field \"refKey\""
        case .refTypeMismatch(let screen, let type, let path):
            return "selection screen \"\(screen)\": selectionPath \"\(path)\" does not hold \(type) entities (refType names the declared type of the field's elements; built-in refs need no refType)"
        case .wrongRowType(let screen, let rowType, let target):
            return "selection screen \"\(screen)\": a \(rowType) row cannot be selected into refs to \(target)"
        case .badBinding(let screen, let property, let message):
            return "selection screen \"\(screen)\", property \(property): \(message)"
        }
    }
}
