/// Partials (storage.md "Partials"): a stub's payload loads on first read, lives in a file of its own, and shares
/// its synced fields with the stub.
extension Engine {
    /// The payload of a partial's stub: loaded from the stub's storage on first read, or created fresh (with the
    /// stub's synced fields) when none is stored. A payload that is stored but does not read is an error, and its
    /// file is never written over.
    public func payload(of stub: Entity) throws -> Entity {
        if let p = stub.payload { return p }
        guard let spec = stub.type.partial, let type = schema.type(named: spec.payloadType) else {
            throw EngineError.unknownField(type: stub.type.name, field: "payload")
        }
        let model = stub.state == .managed ? stub.model : nil
        var loaded: Entity?
        if let model, let storage = storages[model.name] {
            loaded = try storage.loadPayload(of: stub, type: type, model: model, engine: self)
        }
        let p: Entity
        if let loaded {
            p = loaded
        } else {
            var creating: Set<ObjectIdentifier> = []
            p = try makeDefault(type, creating: &creating)
        }
        // The stub's synced fields win (they are what lists show); a copy, not a change.
        for name in spec.sync {
            guard let a = stub.type.slot(of: name), let b = type.slot(of: name) else { continue }
            p.values[b] = stub.values[a]
        }
        p.isPayloadRoot = true
        p.isContained = true
        stub.payload = p
        if stub.state == .managed {
            p.parent = stub
            markManaged(p)
            if loaded != nil { try runLoadedHooks(p) }
            if loaded == nil, let model { model.markPayloadDirty(p) }
        }
        return p
    }

    /// Whether a stub's payload is in memory.
    public func isPayloadLoaded(_ stub: Entity) -> Bool { stub.payload != nil }

    /// After a write to a stub or a payload: the same synced field on the other side takes the same value.
    func syncPartial(_ e: Entity, _ slot: Int, _ value: Value) throws {
        let name = e.type.fields[slot].name
        let other: Entity
        if let spec = e.type.partial {
            guard spec.sync.contains(name) else { return }
            other = try payload(of: e)
        } else if e.isPayloadRoot, let stub = e.parent, let spec = stub.type.partial, spec.sync.contains(name) {
            other = stub
        } else {
            return
        }
        guard let target = other.type.slot(of: name), !other.values[target].isSame(as: value) else { return }
        try writeSlot(other, target, value, silent: false)
    }

    /// Stubs joining a model bring their payloads in memory (made while detached, or moved from elsewhere): each
    /// is written to the model's folder by the next store.
    func adoptPayloads(_ e: Entity) {
        guard schema.hasPartials, let model = e.model else { return }
        func walk(_ x: Entity) {
            if let p = x.payload, x.type.partial != nil { model.markPayloadDirty(p) }
            x.forEachChild(walk)
        }
        walk(e)
    }
}
