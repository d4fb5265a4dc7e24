import Foundation

extension Engine {
    /// Creates a detached entity of a type, with defaults applied and `fields` written over them.
    public func make(_ typeName: String, _ fields: [String: Value] = [:]) throws -> Entity {
        guard let t = schema.type(named: typeName) else { throw EngineError.unknownType(typeName) }
        return try make(t, fields)
    }

    /// Creates a detached entity of a type, with defaults applied and `fields` written over them.
    public func make(_ type: EntityType, _ fields: [String: Value]) throws -> Entity {
        var creating: Set<ObjectIdentifier> = []
        let e = try makeDefault(type, creating: &creating)
        if fields["id"] == nil { passOverKnownId(e) }
        if type.hasId, case .string(let given)? = fields["id"] {
            if given.hasNUL { throw TextWithNUL(model: nil, type: type.name, id: nil, field: "id") }
            e.values[0] = .string(given)
            schema.noteId(given)        // a later autoincrement id never takes it
        }
        for (k, v) in fields where k != "id" {
            guard let slot = type.slot(of: k) else {
                if let c = type.computed[k], c.set != nil { try writeComputed(e, c, v); continue }
                throw EngineError.unknownField(type: type.name, field: k)
            }
            try writeSlot(e, slot, v, silent: true)
        }
        return e
    }

    /// Seeded ids (`--clock virtual`, tests) repeat from one launch to the next: a new entity made by a command
    /// or by code (never by a reader, whose tree is not complete yet) whose seeded id a loaded model already holds
    /// takes the next one. A second launch on stored data gave new entities the first launch's ids (two entities
    /// of one id in the stored model). Random ids are not checked.
    private func passOverKnownId(_ e: Entity) {
        guard ids is SeededIds, e.type.hasId, !e.type.isRef, !e.type.tableMapping.autoIncrement else { return }
        var tries = 0
        while case .string(let id) = e.values[0], lookup(id: id) != nil, tries < 1_000 {
            e.values[0] = .string(ids.next())
            tries += 1
        }
    }

    func makeDefault(_ type: EntityType, creating: inout Set<ObjectIdentifier>) throws -> Entity {
        creating.insert(ObjectIdentifier(type))
        defer { creating.remove(ObjectIdentifier(type)) }
        let e = Entity(type: type)
        for (slot, f) in type.fields.enumerated() {
            if slot == 0 && type.hasId {
                if type.tableMapping.autoIncrement {
                    e.values[slot] = .string(try schema.nextSerial(for: type))
                } else {
                    e.values[slot] = .string(ids.next())
                }
                continue
            }
            e.values[slot] = try defaultValue(for: f, slot: slot, owner: e, creating: &creating)
        }
        return e
    }

    func defaultValue(for f: FieldSpec, slot: Int, owner: Entity, creating: inout Set<ObjectIdentifier>) throws -> Value {
        if let d = f.defaultValue {
            if d.isNull { return .null }
            if case .entity(let given) = d { return .entity(given) }
            return try Coercion.coerce(d, to: f.type, field: f.name)
        }
        if f.optional { return .null }
        switch f.type {
        case .string: return .string("")
        case .int: return .int(0)
        case .double: return .double(0)
        case .bool: return .bool(false)
        case .date: return .date(clock.now)
        case .data, .image, .inlineData, .inlineImage: return .null
        case .ref(let target):
            let r = try makeDefault(schema.refType(target: target), creating: &creating)
            r.isContained = true
            if owner.state == .managed { r.parent = owner }
            return .entity(r)
        case .entity(let name):
            guard let t = schema.type(named: name), !creating.contains(ObjectIdentifier(t)) else { return .null }
            let child = try makeDefault(t, creating: &creating)
            child.isContained = true
            if owner.state == .managed { child.parent = owner }
            return .entity(child)
        case .array(let el): return .collection(EntityCollection(kind: .array, elementType: el, owner: owner, slot: slot))
        case .set(let el): return .collection(EntityCollection(kind: .set, elementType: el, owner: owner, slot: slot))
        case .map(let el): return .collection(EntityCollection(kind: .map, elementType: el, owner: owner, slot: slot))
        }
    }

    // MARK: Lifecycle

    /// Marks a subtree managed, sets its parents and indexes its ids (no hooks: attaching calls them).
    func markManaged(_ e: Entity) {
        e.state = .managed
        if e.type.hasId, !e.type.isRef, case .string(let id) = e.values[0], !id.isEmpty {
            idIndex.add(e, id: id)
        }
        e.forEachChild { c in c.parent = e; c.level = e.level &+ 1; markManaged(c) }
    }

    func markRemoved(_ e: Entity) {
        e.state = .removed
        if e.type.hasId, !e.type.isRef, case .string(let id) = e.values[0], !id.isEmpty {
            idIndex.remove(e, id: id)
            changed(.id(id))
        }
        e.forEachChild { c in c.level = e.level &+ 1; markRemoved(c) }
    }

    /// Attaches `child` under `parent` (already placed in its container): managed state, ids, hooks.
    func attach(_ child: Entity, to parent: Entity) throws {
        child.isContained = true
        guard parent.state == .managed else {
            child.parent = nil
            if transactionDepth > 0 { undoLog.append { child.isContained = false } }
            return
        }
        child.parent = parent
        let wasDetached = child.state != .managed
        markManaged(child)
        adoptPayloads(child)
        var ids: [String] = []
        collectIds(child, into: &ids)
        for id in ids { changed(.id(id)) }
        if transactionDepth > 0 {
            undoLog.append { [unowned self] in
                self.markRemoved(child)
                child.isContained = false
                self.clearParents(child)
            }
        }
        if wasDetached { try fireManaged(child, container: parent) }
    }

    func collectIds(_ e: Entity, into ids: inout [String]) {
        if e.type.hasId, !e.type.isRef, let id = e.id, !id.isEmpty { ids.append(id) }
        e.forEachChild { collectIds($0, into: &ids) }
    }

    func fireManaged(_ e: Entity, container: Entity?) throws {
        if let h = e.type.hooks.managed {
            do { try h(e, container) } catch { throw EngineError.hook(name: "managed", entity: e.debugName, error: error) }
        }
        try e.forEachChild { try fireManaged($0, container: e) }
    }

    /// Detaches `child` (already taken out of its container): removed state, ids, hooks.
    func detach(_ child: Entity, from parent: Entity) throws {
        child.isContained = false
        child.level = 1
        guard child.state == .managed else { child.parent = nil; return }
        markRemoved(child)
        parent.model?.removedSinceStore.append(child)
        if transactionDepth > 0 {
            undoLog.append { [unowned self] in child.parent = parent; child.isContained = true; self.markManaged(child) }
        }
        try fireUnmanaged(child, container: parent)
    }

    /// The `unmanaged` hooks of an entity leaving its model and of every entity it holds, as `fireManaged` runs
    /// `managed` for each entity of a tree that arrives (the entities a book owns left with it without a word:
    /// what their `managed` registered was never undone).
    func fireUnmanaged(_ e: Entity, container: Entity?) throws {
        if let h = e.type.hooks.unmanaged {
            do { try h(e, container) } catch { throw EngineError.hook(name: "unmanaged", entity: e.debugName, error: error) }
        }
        try e.forEachChild { try fireUnmanaged($0, container: e) }
    }

    /// Clears the parent of every entity of a tree that is dropped or retired, so no parent pointer outlives
    /// its parent.
    func clearParents(_ e: Entity) {
        e.parent = nil
        e.forEachChild { clearParents($0) }
    }

    /// Whether `target` is `e` or inside `e`'s tree.
    func contains(_ e: Entity, _ target: Entity) -> Bool {
        if e === target { return true }
        var found = false
        e.forEachChild { if !found, contains($0, target) { found = true } }
        return found
    }

    /// Refuses an entity that is already held elsewhere, or whose tree holds `owner` (a cycle).
    func checkAdoptable(_ child: Entity, into owner: Entity?) throws {
        if child.isContained { throw EngineError.alreadyOwned(entity: child.debugName, owner: child.parent?.debugName ?? "another entity") }
        guard let owner else { return }
        try checkDepth(child, into: owner)
        if owner.state == .managed {
            var a: Entity? = owner
            while let x = a { if x === child { throw EngineError.cycle(child.debugName) }; a = x.parent }
        } else if contains(child, owner) {
            throw EngineError.cycle(child.debugName)
        }
    }

    /// Throws when `e` may not be used any more.
    func checkAlive(_ e: Entity) throws {
        if e.state == .removed, e.model == nil { throw EngineError.removedEntity(e.debugName) }
    }

    func notify(_ change: ModelChange) {
        for o in changeObservers { o(change) }
    }
}
