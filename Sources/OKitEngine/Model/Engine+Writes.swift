import Foundation

extension Engine {
    /// Runs `body` as one transaction: dependents are notified once, after it; an error rolls back
    /// every write it made (and is rethrown). A nested transaction joins the outer one.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        transactionDepth += 1
        let mark = undoLog.count
        let commitMark = commitActions.count
        do {
            let result = try body()
            transactionDepth -= 1
            if transactionDepth == 0 {
                undoLog.removeAll(keepingCapacity: true)
                graph.flush()
                try runCommitActions()
            }
            return result
        } catch {
            rollback(to: mark)
            commitActions.removeSubrange(min(commitMark, commitActions.count)...)
            transactionDepth -= 1
            if transactionDepth == 0 { undoLog.removeAll(keepingCapacity: true); commitActions.removeAll(); graph.flush() }
            throw error
        }
    }

    /// Runs `action` once the outermost open transaction commits — at once outside a transaction — and never when
    /// the transaction (or the nested one that asked for it) rolls back: a store asked for inside a command stores
    /// only what the command committed (lua-api.md "Transactions"). A second request with the same `key` while the
    /// first waits is the same request.
    public func afterCommit(_ key: String, _ action: @escaping () throws -> Void) throws {
        guard transactionDepth > 0 else { try action(); return }
        if commitActions.contains(where: { $0.key == key }) { return }
        commitActions.append((key, action))
    }

    /// The actions the committed transaction asked for, in order; the first error is thrown after the others ran.
    private func runCommitActions() throws {
        var failure: Error?
        while !commitActions.isEmpty {
            let next = commitActions.removeFirst()
            do { try next.run() } catch { if failure == nil { failure = error } }
        }
        if let failure { throw failure }
    }

    /// True while a transaction is open.
    public var inTransaction: Bool { transactionDepth > 0 }

    func rollback(to mark: Int) {
        let saved = displayBinding
        displayBinding = nil
        while undoLog.count > mark { undoLog.removeLast()() }
        displayBinding = saved
    }

    /// Evaluates `body` as a display binding: any write inside is refused.
    public func asDisplay<T>(_ binding: String, _ body: () throws -> T) rethrows -> T {
        let saved = displayBinding
        displayBinding = binding
        defer { displayBinding = saved }
        return try body()
    }

    /// Evaluates `body` as an action: writes are allowed even inside a display evaluation's callee.
    public func asAction<T>(_ body: () throws -> T) rethrows -> T {
        let saved = displayBinding
        displayBinding = nil
        defer { displayBinding = saved }
        return try body()
    }

    func checkWritable() throws {
        if let b = displayBinding { throw EngineError.writeFromDisplay(binding: b) }
    }

    /// Reads a field, computed field or zero-argument method by name, recording the read.
    public func read(_ e: Entity, _ name: String) throws -> Value {
        if let slot = e.type.slot(of: name) {
            graph.recordField(e, slot)
            return e.values[slot]
        }
        if let p = e.type.partial, p.field == name { return .entity(try payload(of: e)) }
        if let c = e.type.computed[name] { return try c.get(e) }
        if name == "ref", e.type.isRef { return resolveRef(e).map { .entity($0) } ?? .null }
        if let m = e.type.methods[name] { return try m.call(e, []) }
        throw EngineError.unknownField(type: e.type.name, field: name)
    }

    /// Resolves a reference entity's target through the id index, recording the reads: only an entity of the
    /// ref's target type (`ref T`), preferring the ref's own model when several of that type have the id.
    public func resolveRef(_ ref: Entity) -> Entity? {
        graph.recordField(ref, 1)
        guard case .string(let key) = ref.values[1], !key.isEmpty else { return nil }
        graph.record(.id(key))
        let (found, ambiguous) = idIndex.lookup(key, from: ref.model, type: ref.type.refTarget)
        if ambiguous { warnDuplicate(key, of: ref.type.refTarget) }
        return found
    }

    /// Finds a loaded entity by id (own model first), recording the lookup.
    public func lookup(id: String, from model: Model? = nil) -> Entity? {
        graph.record(.id(id))
        let found = idIndex.lookup(id, from: model)
        if found != nil, idIndex.isDuplicate(id) { warnDuplicate(id, of: nil) }
        return found
    }

    private func warnDuplicate(_ id: String, of type: String?) {
        warn("id \"\(id)\" is used by more than one loaded \(type ?? "entity"); lookups prefer the caller's own model")
    }

    /// Writes a field (or a writable computed field) by name: type-checked, coerced, recorded for rollback,
    /// the model marked dirty, exactly the dependents notified, `didSet` called.
    public func set(_ e: Entity, _ name: String, _ value: Value) throws {
        try checkWritable()
        try checkAlive(e)
        if let slot = e.type.slot(of: name) {
            try writeSlot(e, slot, value, silent: false)
        } else if let c = e.type.computed[name] {
            try writeComputed(e, c, value)
        } else if name == "ref", e.type.isRef {
            try writeSlot(e, 1, value, silent: false)
        } else if e.type.partial?.field == name {
            throw EngineError.payloadField(type: e.type.name, field: name)
        } else {
            throw EngineError.unknownField(type: e.type.name, field: name)
        }
    }

    func writeComputed(_ e: Entity, _ c: ComputedField, _ value: Value) throws {
        guard let setter = c.set else { throw EngineError.readOnlyField(type: e.type.name, field: c.name) }
        try transaction { try setter(e, value) }
    }

    /// Writes a stored field by slot.
    func writeSlot(_ e: Entity, _ slot: Int, _ value: Value, silent: Bool) throws {
        e.prefetchForWrite(slot)
        let f = e.type.fields[slot]
        if !silent, transactionDepth == 0, f.didSet != nil || f.type.holdsEntity || f.type.isCollection {
            // Observers and ownership changes run inside one transaction, so a failure undoes the whole write.
            return try transaction { try writeSlot(e, slot, value, silent: false) }
        }
        let old = e.values[slot]
        var new: Value
        if e.type.isRef && slot == 1 {
            try checkRefType(value, target: e.type.refTarget, field: f.name)
            new = try refKey(from: value, field: f.name)
            try checkText(new, of: e, field: f.name)
        } else if value.isNull {
            if case .ref = f.type, !f.optional, case .entity(let r) = old {
                return try writeRefKey(of: e, slot, ref: r, .null, silent: silent)
            }
            if !f.optional, !f.type.holdsEntity { throw EngineError.nilForRequired(type: e.type.name, field: f.name) }
            new = .null
        } else {
            switch f.type {
            case .string, .int, .double, .bool, .date:
                do { new = try Coercion.coerce(value, to: f.type, field: f.name) } catch { throw EngineError.coercion(error) }
                try checkText(new, of: e, field: f.name)
            case .ref(let target):
                try checkRefType(value, target: target, field: f.name)
                if case .entity(let r) = old, r.type.isRef {
                    return try writeRefKey(of: e, slot, ref: r, value, silent: silent)
                }
                var creating: Set<ObjectIdentifier> = []
                let key = try refKey(from: value, field: f.name)
                try checkText(key, of: e, field: f.name)
                let r = try makeDefault(schema.refType(target: target), creating: &creating)
                r.values[1] = key
                new = .entity(r)
            case .entity, .data, .image, .inlineData, .inlineImage:
                guard case .entity(let child) = value else {
                    throw EngineError.notAnEntity(field: f.name, expected: "an entity", got: Coercion.describe(value))
                }
                let expected = schema.entityType(for: f.type)
                if let expected, child.type !== expected {
                    throw EngineError.wrongEntityType(field: f.name, expected: expected.name, got: child.type.name)
                }
                if child === e { throw EngineError.cycle(child.debugName) }
                if case .entity(let same) = old, same === child { return }
                try checkAdoptable(child, into: e)
                new = value
            case .array, .set, .map:
                try replaceCollection(e, slot, with: value, silent: silent)
                return e.noteAssigned(slot)
            }
        }
        e.noteAssigned(slot)      // a value kept for the migrations is converted by this (nil included)
        if f.type.isCollection == false, old.isSame(as: new), !(f.type.holdsEntity) { return }
        if case .entity(let oldChild) = old, !(e.type.isRef) {
            e.values[slot] = new
            if !silent { try detach(oldChild, from: e) }
        } else {
            e.values[slot] = new
        }
        if e.type.hasId && slot == 0 && !e.type.isRef { reindex(e, old: old, new: new) }
        if case .entity(let child) = new, !e.type.isRef {
            if silent { child.isContained = true } else { try attach(child, to: e) }
        }
        if silent { return }
        let inTx = transactionDepth > 0
        if inTx { undoLog.append { [unowned self] in self.restore(e, slot, old) } }
        if slot == 0, e.type.hasId, let p = e.parent {
            e.model?.markDirty(p)      // the journal finds entities by id: a new id is its container's change
        } else {
            e.model?.markDirty(e)
        }
        graph.changed(.field(e, slot))
        if !changeObservers.isEmpty { notify(ModelChange(model: e.model?.name, entity: e, field: f.name, operation: .set, old: old, new: new, index: nil)) }
        if e.isPayloadRoot || e.type.partial != nil { try syncPartial(e, slot, new) }
        if let didSet = f.didSet { try observe(e, slot) { try didSet(e, old) } }
        if !inTx { graph.flush() }
    }

    /// Runs a field's `didSet`, unless it is already running for that field of that entity: a `didSet` that writes
    /// its own field (`self.name = self.name .. " (edited)"`) changed it again and again until the stack ran out;
    /// like a Swift property observer (OKit's), the write inside it does not call it again.
    func observe(_ e: Entity, _ slot: Int, _ didSet: () throws -> Void) throws {
        let key = ObjectIdentifier(e)
        guard !runningObservers.contains(where: { $0.entity == key && $0.slot == slot }) else { return }
        runningObservers.append((key, slot))
        defer { runningObservers.removeLast() }
        try didSet()
    }

    /// A ref field that already holds its ref entity is written by writing that entity's key; the field's
    /// `didSet` then runs as for any other field, with the entity the ref pointed to before (nil when none).
    /// It never ran: the field's value, the ref entity, stayed the same object.
    private func writeRefKey(of e: Entity, _ slot: Int, ref r: Entity, _ value: Value, silent: Bool) throws {
        let f = e.type.fields[slot]
        let observed = !silent && f.didSet != nil
        let before: Value = observed ? resolveRef(r).map { .entity($0) } ?? .null : .null
        let key = r.values[1]
        try writeSlot(r, 1, value, silent: silent)
        if observed, let didSet = f.didSet, !r.values[1].isSame(as: key) { try observe(e, slot) { try didSet(e, before) } }
    }

    /// Undo of a field write: puts the old value back and notifies (no hooks).
    func restore(_ e: Entity, _ slot: Int, _ old: Value) {
        let current = e.values[slot]
        e.values[slot] = old
        if e.type.hasId && slot == 0 && !e.type.isRef { reindex(e, old: current, new: old) }
        if case .entity(let c) = old {
            c.isContained = true
            c.parent = e.state == .managed ? e : nil
        }
        e.model?.markDirty(e)
        graph.changed(.field(e, slot))
    }

    func reindex(_ e: Entity, old: Value, new: Value) {
        if case .string(let n) = new { schema.noteId(n) }     // a later autoincrement id never takes it
        guard e.state == .managed else { return }
        if case .string(let o) = old, !o.isEmpty { idIndex.remove(e, id: o); graph.changed(.id(o)) }
        if case .string(let n) = new, !n.isEmpty { idIndex.add(e, id: n); graph.changed(.id(n)) }
    }

    /// Refuses an entity of another type (or a reference to one) for a `ref T`: its id would resolve to nothing, or
    /// to a T that holds the same id.
    func checkRefType(_ value: Value, target: String?, field: String) throws {
        guard let target, case .entity(let given) = value else { return }
        guard let type = given.type.isRef ? given.type.refTarget : given.type.name, type != target else { return }
        throw EngineError.wrongEntityType(field: field, expected: target, got: type)
    }

    func refKey(from value: Value, field: String) throws -> Value {
        switch value {
        case .null: return .null
        case .string(let s): return s.isEmpty ? .null : .string(s)
        case .entity(let target):
            if target.type.isRef { return target.values[1] }
            guard let id = target.id else {
                throw EngineError.notAnEntity(field: field, expected: "a reference (an entity with an id, or an id string)", got: target.debugName)
            }
            return .string(id)
        case .int, .double: return .string(value.displayString ?? "")
        default:
            throw EngineError.notAnEntity(field: field, expected: "a reference (an entity with an id, or an id string)", got: Coercion.describe(value))
        }
    }
}
