/// One model change as `app:changes` lists it (testing.md, screens.md "Commands"): a field write with its old
/// and new value, or a collection change (insert, remove, move) with the element's index and id.
///
/// Paths are binding syntax from the model's root with 0-based indices: `books[0]/marked` for a field,
/// `books` for the collection a change happened in, `tags/kind` through a map.
public struct LoggedChange {
    public enum Operation: String, Sendable { case set, insert, remove, move }

    /// The model's name.
    public let model: String
    /// For `set`: the field's path; for collection operations: the collection's path.
    public let path: String
    public let operation: Operation
    /// For `set`: the value before the write.
    public let old: Value
    /// For `set`: the value after the write.
    public let new: Value
    /// For collection operations: the 0-based index (insert, remove: where; move: where to).
    public let index: Int?
    /// For `move`: the 0-based index the element came from.
    public let from: Int?
    /// For collection operations: the element (an entity, a reference entity or a plain value).
    public let element: Value
    /// For a map insert: the key.
    public let key: String?

    /// For collection operations: the element's id (a reference's target id); nil for elements without ids.
    public var id: String? {
        guard case .entity(let e) = element else { return nil }
        if e.type.isRef, case .string(let key) = e.values[1] { return key }
        return e.id
    }
}

/// Collects the changes of every model while it is active (`Engine.recordChanges`). It listens through the
/// engine's change observers, which the write paths call only when there is an observer (an empty check when
/// no log is active). Paths are computed when the change happens, so later moves do not shift them. A change
/// undone by a rollback (a failed command or transaction) leaves the log again.
public final class ChangeLog {
    /// The changes so far, in order.
    public private(set) var changes: [LoggedChange] = []
    unowned let engine: Engine

    init(engine: Engine) { self.engine = engine }

    func record(_ c: ModelChange) {
        let e = c.entity
        guard e.state == .managed, let model = e.model, let base = ChangeLog.path(of: e) else { return }
        let entry: LoggedChange
        switch c.operation {
        case .set:
            entry = LoggedChange(model: model.name, path: ChangeLog.join(base, c.field), operation: .set, old: c.old,
                                 new: c.new, index: nil, from: nil, element: .null, key: nil)
        case .insert, .remove, .move:
            var field = c.field
            var key: String?
            if e.type.slot(of: field) == nil, let dot = field.firstIndex(of: ".") {   // a map put: "field.key"
                key = String(field[field.index(after: dot)...])
                field = String(field[..<dot])
            }
            let op: LoggedChange.Operation = c.operation == .insert ? .insert : c.operation == .remove ? .remove : .move
            let from: Int? = c.operation == .move ? c.old.intValue : nil
            let element = c.operation == .remove ? c.old : c.new
            entry = LoggedChange(model: model.name, path: ChangeLog.join(base, field), operation: op, old: .null,
                                 new: .null, index: c.index, from: from, element: element, key: key)
        }
        let mark = changes.count
        changes.append(entry)
        if engine.transactionDepth > 0 {
            // Rolled back with the write it describes.
            engine.undoLog.append { [weak self] in
                guard let self, self.changes.count > mark else { return }
                self.changes.removeSubrange(mark...)
            }
        }
    }

    static func join(_ base: String, _ field: String) -> String { base.isEmpty ? field : base + "/" + field }

    /// The binding path of an entity from its model's root (`""` for the root), or nil when it is not reachable.
    public static func path(of e: Entity) -> String? {
        var steps: [String] = []
        var current = e
        while let p = current.parent {
            guard let step = step(to: current, in: p) else { return nil }
            steps.append(step)
            current = p
        }
        guard current.rootOf != nil else { return nil }
        return steps.reversed().joined(separator: "/")
    }

    /// Where `child` is held in `parent`: `field`, `field[i]` (arrays and sets) or `field/key` (maps).
    static func step(to child: Entity, in parent: Entity) -> String? {
        for (slot, v) in parent.values.enumerated() {
            switch v {
            case .entity(let c) where c === child:
                return parent.type.fields[slot].name
            case .collection(let coll) where coll.elementType.holdsEntity:
                guard let i = coll.index(of: child) else { continue }
                let name = parent.type.fields[slot].name
                if coll.kind == .map { return i < coll.keys.count ? name + "/" + coll.keys[i] : nil }
                return name + "[\(i)]"
            default:
                continue
            }
        }
        return nil
    }
}

extension Engine {
    /// Runs `body` and returns the model changes made while it ran (field writes and collection changes of every
    /// model, in order), minus those a rollback undid. Logs nest: an inner log sees only its own part.
    public func recordChanges(_ body: () throws -> Void) throws -> [LoggedChange] {
        let log = ChangeLog(engine: self)
        let position = changeObservers.count
        changeObservers.append { [unowned log] c in log.record(c) }
        defer { if changeObservers.count > position { changeObservers.remove(at: position) } }
        try body()
        return log.changes
    }
}
