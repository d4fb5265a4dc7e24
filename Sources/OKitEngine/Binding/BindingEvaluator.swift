import Foundation

/// Evaluates compiled bindings against a context entity (bindings.md, "Evaluation").
///
/// Every read goes through `record`, so a subscription knows exactly what it depends on.
struct BindingEvaluator {
    let engine: Engine
    let binding: Binding
    /// The binding's starting context (arguments of calls are evaluated against it).
    let start: Entity?
    let mode: EvaluationMode

    // MARK: Parts

    func evaluate(_ part: BindingPart) throws -> Value {
        switch part {
        case .constant(let v): return v
        case .localized(let key): return .string(engine.localize(key))
        case .path(let p): return try evaluate(p)
        case .expression(let e, _): return try ExpressionEvaluator(base: self).evaluate(e)
        }
    }

    // MARK: Paths

    func evaluate(_ path: PathExpression) throws -> Value {
        var current: Value
        var from = 0
        if let steps = path.simpleSteps, !path.absolute, let start {
            let (v, next) = fast(steps, start)
            if next == steps.count { return path.negate ? .bool(!v.truthy) : v }
            // Stopped on a value just before a last plain name (`books[3]/name/initial`): that name applied
            // directly, as `step` would.
            if next == steps.count - 1, let lastCache = path.lastNameCache, !v.isNull {
                let r = try property(path.lastNameText, lastCache, of: v)
                return path.negate ? .bool(!r.truthy) : r
            }
            current = v
            from = next
        } else if path.absolute {
            current = try modelRoot(path.model)
        } else {
            current = start.map { .entity($0) } ?? .null
        }
        let segments = path.segments
        var k = from
        while k < segments.count {
            current = try step(current, segments[k])
            k += 1
        }
        return path.negate ? .bool(!current.truthy) : current
    }

    /// The tight loop for plain field steps with warm slot caches: returns the value reached and the index of
    /// the first segment it did not take (the general path goes on from there: a cold cache, a computed field,
    /// a scalar, nil or a collection). It reads only stored fields, so stopping anywhere is safe.
    @inline(__always)
    func fast(_ steps: ContiguousArray<SimpleStep>, _ start: Entity) -> (Value, Int) {
        // The entities on the way are held by the slots that lead to them (the start by the caller), so the walk
        // holds none of them: only the value it returns is retained.
        var e = Unmanaged.passUnretained(start)
        let graph = engine.graph
        let count = steps.count
        return steps.withUnsafeBufferPointer { buf -> (Value, Int) in
            var k = 0
            while true {
                // The step's fields are read in place (a copy of the step would retain its cache).
                let slot = buf[k].cache.slot
                let here = e._withUnsafeGuaranteedRef { slot >= 0 && buf[k].cache.type == ObjectIdentifier($0.type) }
                guard here else { return (.entity(e.takeUnretainedValue()), k) }
                // An index on a field that holds no collection: the general path says what it is.
                if buf[k].hasIndex, e._withUnsafeGuaranteedRef({ $0.collectionInSlot(slot) }) == nil {
                    return (.entity(e.takeUnretainedValue()), k)
                }
                let last = k + 1 == count
                let next: Unmanaged<Entity>? = e._withUnsafeGuaranteedRef { entity in
                    if buf[k].hasIndex, let c = entity.collectionInSlot(slot) {
                        graph.recordField(entity, slot)
                        c._withUnsafeGuaranteedRef { graph.recordMembers($0) }
                        return last ? nil : c._withUnsafeGuaranteedRef { $0.entityElement(at: buf[k].index) }
                    }
                    graph.recordField(entity, slot)
                    return last ? nil : entity.entityInSlot(slot)
                }
                guard let next, !last else {
                    // The value itself, retained: the last step's, or one that is not an entity (the general
                    // path goes on from it).
                    let v: Value = e._withUnsafeGuaranteedRef { entity in
                        guard buf[k].hasIndex else { return entity.slot(slot) }
                        guard case .collection(let c) = entity.slot(slot) else { return .null }
                        return c.element(at: buf[k].index) ?? .null
                    }
                    // A nil on the way goes on through the general path too: an extension may apply to nil
                    // (`comment/isEmpty` is true when there is no comment).
                    return (v, last ? count : k + 1)
                }
                e = next
                k += 1
            }
        }
    }

    func modelRoot(_ name: String?) throws -> Value {
        let model: Model?
        if let name {
            model = engine.model(named: name)
            if model == nil { throw EngineError.unknownModel(name) }
        } else {
            model = engine.defaultModel
        }
        guard let model else { return .null }
        engine.graph.record(.model(model.name))
        return .entity(model.root)
    }

    func step(_ current: Value, _ seg: Segment) throws -> Value {
        switch seg {
        case .current:
            return current
        case .parent:
            guard case .entity(let e) = current else { return .null }
            return e.parent.map { .entity($0) } ?? .null
        case .root:
            guard case .entity(let e) = current else { return .null }
            if let m = e.model { engine.graph.record(.model(m.name)); return .entity(m.root) }
            return .entity(e.root)
        case .ref(let keys, _):
            let key = try evaluateKeys(current, keys[...])
            guard case .string(let id) = key, !id.isEmpty else { return .null }
            return engine.lookup(id: id, from: current.entity?.model).map { .entity($0) } ?? .null
        case .property(let keys, let index, _):
            let v = try evaluateKeys(current, keys[...])
            guard let index else { return v }
            return self.index(v, index)
        case .call(let name, let args, let index, _):
            let argValues = try args.map { try evaluate($0) }
            let v = try call(name, on: current, args: argValues)
            guard let index else { return v }
            return self.index(v, index)
        }
    }

    func index(_ v: Value, _ i: Int) -> Value {
        switch v {
        case .collection(let c):
            engine.graph.recordMembers(c)
            return c.element(at: i) ?? .null
        case .list(let l):
            let k = i < 0 ? l.count + i : i
            return k >= 0 && k < l.count ? l[k] : .null
        default:
            return .null
        }
    }

    // MARK: Keys

    func evaluateKeys(_ start: Value, _ keys: ArraySlice<Key>) throws -> Value {
        var v = start
        var i = keys.startIndex
        while i < keys.endIndex {
            switch keys[i] {
            case .name(let name, let cache):
                v = try property(name, cache, of: v)
            case .aggregate(let agg):
                let rest = keys[(i + 1)...]
                return try aggregate(agg, v, rest: rest)
            case .filter(let f):
                v = try filter(v, f)
            }
            i += 1
        }
        return v
    }

    /// A property of a value: a field, computed field, method or extension of an entity; a mapped key over a
    /// collection; a key of a map; an extension of a scalar.
    func property(_ name: String, _ cache: SlotCache, of v: Value) throws -> Value {
        switch v {
        case .entity(let e):
            let t = e.type
            if cache.type == ObjectIdentifier(t) {
                if cache.slot >= 0 {
                    engine.graph.recordField(e, cache.slot)
                    return e.slot(cache.slot)
                }
            } else if let slot = t.slot(of: name) {
                cache.type = ObjectIdentifier(t)
                cache.slot = slot
                engine.graph.recordField(e, slot)
                return e.slot(slot)
            } else {
                cache.type = ObjectIdentifier(t)
                cache.slot = -1
            }
            return try entityMember(name, of: e)
        case .collection(let c):
            engine.graph.recordMembers(c)
            if c.kind == .map { return c.value(forKey: name) ?? .null }
            if let fn = engine.extensions.function(type: "collection", name: name) {
                return try invoke(fn, name, v, [])
            }
            return .list(try c.items.map { try property(name, cache, of: $0) })
        case .list(let l):
            if let fn = engine.extensions.function(type: "collection", name: name) {
                return try invoke(fn, name, v, [])
            }
            return .list(try l.map { try property(name, cache, of: $0) })
        default:
            if let fn = cachedExtension(name, cache, for: v) { return try invoke(fn, name, v, []) }
            if !v.isNull { unknown(name, on: v) }
            return .null
        }
    }

    /// The extension for a scalar receiver, remembered in the segment's cache until the registry changes.
    @inline(__always)
    func cachedExtension(_ name: String, _ cache: SlotCache, for v: Value) -> ExtensionFunction? {
        let kind = ValueKind(v)
        let registry = engine.extensions
        if cache.fnKind == kind, cache.fnGeneration == registry.generation { return cache.fn }
        let fn = registry.resolve(for: v, name: name)
        cache.fn = fn
        cache.fnKind = kind
        cache.fnGeneration = registry.generation
        return fn
    }

    func entityMember(_ name: String, of e: Entity) throws -> Value {
        let t = e.type
        if let p = t.partial, p.field == name { return .entity(try engine.payload(of: e)) }
        if let c = t.computed[name] { return try guarded(name) { try c.get(e) } }
        if t.isRef, name == "ref" { return engine.resolveRef(e).map { .entity($0) } ?? .null }
        if let m = t.methods[name] { return try guarded(name) { try m.call(e, []) } }
        if let fn = engine.extensions.resolve(for: .entity(e), name: name) { return try invoke(fn, name, .entity(e), []) }
        unknown(name, on: .entity(e))
        return .null
    }

    // MARK: Calls

    func call(_ name: String, on v: Value, args: [Value]) throws -> Value {
        if case .entity(let e) = v {
            if let m = e.type.methods[name] { return try guarded(name) { try m.call(e, args) } }
            if args.isEmpty, let c = e.type.computed[name] { return try guarded(name) { try c.get(e) } }
        }
        if case .collection(let c) = v { engine.graph.recordMembers(c) }
        if let fn = engine.extensions.resolve(for: v, name: name) { return try invoke(fn, name, v, args) }
        if !v.isNull { unknown(name + "()", on: v) }
        return .null
    }

    /// Calls an extension as `guarded` does, written out: through `guarded`'s closure, the evaluator (engine,
    /// binding, start) and the receiver were retained on every call.
    func invoke(_ fn: ExtensionFunction, _ name: String, _ receiver: Value, _ args: [Value]) throws -> Value {
        engine.callDepth += 1
        defer { engine.callDepth -= 1 }
        if engine.callDepth > Engine.maxCallDepth { throw EngineError.reentrancy(limit: Engine.maxCallDepth) }
        do {
            return try fn(receiver, args, engine)
        } catch {
            return try caught(name, error)
        }
    }

    /// Runs a host function (method, computed field, extension). In display mode its errors are reported and
    /// yield nil; a refused write is always an error.
    func guarded(_ name: String, _ body: () throws -> Value) throws -> Value {
        engine.callDepth += 1
        defer { engine.callDepth -= 1 }
        if engine.callDepth > Engine.maxCallDepth { throw EngineError.reentrancy(limit: Engine.maxCallDepth) }
        do {
            return try body()
        } catch {
            return try caught(name, error)
        }
    }

    /// What a host function's error becomes: a refused write and too deep a nesting go on as they are; any
    /// other error is the binding's (`failed`).
    func caught(_ name: String, _ error: Error) throws -> Value {
        if let e = error as? EngineError {
            if case .writeFromDisplay = e { throw e }
            if case .reentrancy = e { throw e }
        }
        return try failed(name, error)
    }

    func failed(_ name: String, _ error: Error) throws -> Value {
        if error is BindingCallError { if mode == .display { engine.report(error); return .null }; throw error }
        let wrapped = BindingCallError(binding: binding.text, function: name, underlying: error)
        if mode == .display { engine.report(wrapped); return .null }
        throw wrapped
    }

    func unknown(_ name: String, on v: Value) {
        var what: String
        switch v {
        case .entity(let e):
            what = "\(e.type.name) has no field, method or extension \"\(name)\""
            // A path written with `/` in an expression (a division there): said how to write it.
            if binding.text.utf8.contains(UInt8(ascii: "/")),
               let advice = BindingChecker(engine: engine).slashPathAdvice(in: binding, name: name, context: e.type) {
                what += "; \(advice)"
            }
        default: what = "no extension \"\(name)\" for \(v.typeName) values"
        }
        engine.warn("binding \"\(binding.text)\": \(what)")
    }
}
