extension Engine {
    /// The collection in field `name` of `e`.
    public func collection(_ e: Entity, _ name: String) throws -> EntityCollection {
        guard let slot = e.type.slot(of: name) else { throw EngineError.unknownField(type: e.type.name, field: name) }
        guard case .collection(let c) = e.values[slot] else { throw EngineError.notACollection(type: e.type.name, field: name) }
        return c
    }

    /// Inserts a value into an array or set. `index` nil means the front (OKit's default); `append`
    /// puts it at the end. Entities are attached (managed fires once, after they are in place).
    public func insert(_ value: Value, into c: EntityCollection, at index: Int? = nil, append: Bool = false) throws {
        try observingMembers(of: c) { try insertElement(value, into: c, at: index, append: append) }
    }

    private func insertElement(_ value: Value, into c: EntityCollection, at index: Int?, append: Bool) throws {
        try checkWritable()
        guard let owner = c.owner else { return }
        try checkAlive(owner)
        guard c.kind != .map else { throw EngineError.notACollection(type: owner.type.name, field: c.fieldName) }
        // A set is unique: adding a member it already has changes nothing (checked before the element is made,
        // since an entity already in this set would otherwise count as owned elsewhere).
        if c.kind == .set, c.items.contains(where: { sameMember($0, value) }) { return }
        let element = try collectionElement(value, for: c)
        if c.kind == .set, c.items.contains(where: { sameMember($0, element) }) { return }
        let position = append ? c.items.count : min(max(index ?? 0, 0), c.items.count)
        try transaction {
            c.items.insert(element, at: position)
            undoLog.append { [unowned self] in
                // Undone in reverse order, the element is back where it was put: looked for there first (a scan
                // from the front made the rollback of N appends quadratic).
                if let i = self.undoIndex(of: element, in: c.items, near: position) {
                    c.items.remove(at: i)
                    self.membersChanged(c, .removed(element, index: i))
                }
            }
            membersChanged(c, .inserted(element, index: position))
            if !changeObservers.isEmpty {
                notify(ModelChange(model: owner.model?.name, entity: owner, field: c.fieldName, operation: .insert,
                                   old: .null, new: element, index: position))
            }
            if case .entity(let child) = element { try attach(child, to: owner) }
        }
    }

    /// Removes an entity (or value) from an array or set; `unmanaged` fires once. Returns its old index.
    /// `near`: where the entity was last seen (searched outward from there; see `EntityCollection.index(of:near:)`).
    @discardableResult
    public func remove(_ value: Value, from c: EntityCollection, near: Int? = nil) throws -> Int {
        // The entity itself first (a pointer comparison per element), then what counts as the same member.
        let identical: Int? = value.entity.flatMap { e in near.map { c.index(of: e, near: $0) } ?? c.index(of: e) }
        guard let i = identical ?? c.items.firstIndex(where: { sameMember($0, value) }) else {
            throw EngineError.notInCollection(entity: Coercion.describe(value), field: c.fieldName)
        }
        try remove(at: i, from: c)
        return i
    }

    /// Removes the element at a 0-based index.
    public func remove(at index: Int, from c: EntityCollection) throws {
        try observingMembers(of: c) { try removeElement(at: index, from: c) }
    }

    private func removeElement(at index: Int, from c: EntityCollection) throws {
        try checkWritable()
        guard let owner = c.owner else { return }
        guard index >= 0, index < c.items.count else {
            throw EngineError.indexOutOfRange(index: index, count: c.items.count, field: c.fieldName)
        }
        try transaction {
            let element = c.items.remove(at: index)
            let key = c.kind == .map ? c.keys.remove(at: index) : nil
            undoLog.append { [unowned self] in
                c.items.insert(element, at: min(index, c.items.count))
                if let key { c.keys.insert(key, at: min(index, c.keys.count)) }
                self.membersChanged(c, .inserted(element, index: min(index, c.items.count - 1)))
            }
            membersChanged(c, .removed(element, index: index))
            if !changeObservers.isEmpty {
                notify(ModelChange(model: owner.model?.name, entity: owner, field: c.fieldName, operation: .remove,
                                   old: element, new: .null, index: index))
            }
            if case .entity(let child) = element { try detach(child, from: owner) }
        }
    }

    /// Moves an element from one 0-based index to another.
    public func move(in c: EntityCollection, from: Int, to: Int) throws {
        try observingMembers(of: c) { try moveElement(in: c, from: from, to: to) }
    }

    private func moveElement(in c: EntityCollection, from: Int, to: Int) throws {
        try checkWritable()
        guard let owner = c.owner else { return }
        let n = c.items.count
        guard from >= 0, from < n else { throw EngineError.indexOutOfRange(index: from, count: n, field: c.fieldName) }
        guard to >= 0, to < n else { throw EngineError.indexOutOfRange(index: to, count: n, field: c.fieldName) }
        if from == to { return }
        try transaction {
            let element = c.items.remove(at: from)
            c.items.insert(element, at: to)
            if c.kind == .map { let k = c.keys.remove(at: from); c.keys.insert(k, at: to) }
            undoLog.append { [unowned self] in
                let x = c.items.remove(at: to); c.items.insert(x, at: from)
                if c.kind == .map { let k = c.keys.remove(at: to); c.keys.insert(k, at: from) }
                self.membersChanged(c, .reordered)
            }
            membersChanged(c, .reordered)
            if !changeObservers.isEmpty {
                notify(ModelChange(model: owner.model?.name, entity: owner, field: c.fieldName, operation: .move,
                                   old: .int(from), new: element, index: to))
            }
        }
    }

    /// Removes every element (each `unmanaged` fires once).
    public func clear(_ c: EntityCollection) throws {
        try observingMembers(of: c) {
            try transaction {
                while !c.items.isEmpty { try remove(at: c.items.count - 1, from: c) }
            }
        }
    }

    /// Puts a value under a key of a map (replacing, and detaching, what was there).
    public func put(_ value: Value, forKey key: String, in c: EntityCollection) throws {
        try observingMembers(of: c) { try putElement(value, forKey: key, in: c) }
    }

    private func putElement(_ value: Value, forKey key: String, in c: EntityCollection) throws {
        try checkWritable()
        guard let owner = c.owner else { return }
        guard c.kind == .map else { throw EngineError.notACollection(type: owner.type.name, field: c.fieldName) }
        try checkKey(key, of: owner, field: c.fieldName)
        try transaction {
            if let i = c.keys.firstIndex(of: key) { try remove(at: i, from: c) }
            if value.isNull { return }
            let element = try collectionElement(value, for: c)
            c.items.append(element)
            c.keys.append(key)
            let position = c.items.count - 1
            undoLog.append { [unowned self] in
                let here = position < c.keys.count && c.keys[position] == key
                if let i = here ? position : c.keys.firstIndex(of: key) {
                    c.items.remove(at: i); c.keys.remove(at: i)
                    self.membersChanged(c, .removed(element, index: i))
                }
            }
            membersChanged(c, .inserted(element, index: c.items.count - 1))
            if !changeObservers.isEmpty {
                notify(ModelChange(model: owner.model?.name, entity: owner, field: c.fieldName + "." + key, operation: .insert,
                                   old: .null, new: element, index: c.items.count - 1))
            }
            if case .entity(let child) = element { try attach(child, to: owner) }
        }
    }

    /// Replaces a collection's content with the elements of a list or collection value.
    func replaceCollection(_ e: Entity, _ slot: Int, with value: Value, silent: Bool = false) throws {
        guard case .collection(let c) = e.values[slot] else { return }
        let elements: [Value]
        switch value {
        case .collection(let other):
            if other === c { return }
            elements = Array(other.items)
        case .list(let l): elements = l
        default:
            throw EngineError.notAnEntity(field: c.fieldName, expected: "a collection", got: Coercion.describe(value))
        }
        // A silent write (an entity made with its values, a migration's) runs no observer.
        try observingMembers(of: c, silent: silent) {
            try transaction {
                try clear(c)
                for v in elements { try insert(v, into: c, append: true) }
            }
        }
    }

    /// Where a rollback finds an element it undoes the insertion of: at `position` when it is there, else the first
    /// place that holds it (each element examined counts in `rollbackWork`).
    func undoIndex(of element: Value, in items: ValueList, near position: Int) -> Int? {
        rollbackWork += 1
        if position < items.count, items[position].isSame(as: element) { return position }
        for (i, v) in items.enumerated() {
            rollbackWork += 1
            if v.isSame(as: element) { return i }
        }
        return nil
    }

    func membersChanged(_ c: EntityCollection, _ edit: MembershipEdit) {
        if let owner = c.owner { owner.model?.markDirty(owner) }
        graph.changedMembers(c, edit)
    }

    func sameMember(_ a: Value, _ b: Value) -> Bool {
        if case .entity(let x) = a, case .entity(let y) = b {
            if x === y { return true }
            if x.type.isRef, y.type.isRef { return x.values[1].isSame(as: y.values[1]) }   // refs: the same refKey
            if let i = x.id, let j = y.id, x.type.hasId, !x.type.isRef { return i == j }
            return false
        }
        return a.isSame(as: b)
    }

    /// Checks and coerces a value for a collection's element type; refs are wrapped in reference entities.
    func collectionElement(_ value: Value, for c: EntityCollection) throws -> Value {
        let field = c.fieldName
        switch c.elementType {
        case .string, .int, .double, .bool, .date:
            let v: Value
            do { v = try Coercion.coerce(value, to: c.elementType, field: field) } catch { throw EngineError.coercion(error) }
            try checkText(v, of: c.owner, field: field)
            return v
        case .ref(let target):
            try checkRefType(value, target: target, field: field)
            let key = try refKey(from: value, field: field)
            try checkText(key, of: c.owner, field: field)
            let r = try make(schema.refType(target: target), [:])
            r.values[1] = key
            return .entity(r)
        default:
            guard case .entity(let child) = value else {
                throw EngineError.notAnEntity(field: field, expected: "entities", got: Coercion.describe(value))
            }
            if let expected = schema.entityType(for: c.elementType), child.type !== expected {
                throw EngineError.wrongEntityType(field: field, expected: expected.name, got: child.type.name)
            }
            try checkAdoptable(child, into: c.owner)
            return value
        }
    }
}
