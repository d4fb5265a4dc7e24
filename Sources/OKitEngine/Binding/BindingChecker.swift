/// Checks a binding against the schema before it runs (bindings.md "Errors"; `okit-run check`): every name a path
/// uses must be a field, computed field, method or extension of the type it applies to; model names must exist.
/// Where a type cannot be known (after an extension's result, `$x`, an untyped ref), checking stops quietly.
public struct BindingChecker {
    public struct Issue: Equatable, Sendable {
        /// 1-based column in the binding text.
        public let column: Int
        public let message: String
    }

    /// What a step of a path is known to be.
    indirect enum Shape {
        case entity(EntityType)
        case collection(Shape)
        case scalar(String)      // "string", "number", "bool", "date"
        case unknown
    }

    let engine: Engine
    let modelTypes: [String: EntityType]

    public init(engine: Engine) {
        self.engine = engine
        var types: [String: EntityType] = [:]
        for m in engine.models { types[m.name] = m.rootType }
        modelTypes = types
    }

    /// Issues of `text` evaluated on entities of `context` (nil: unknown).
    public func check(_ text: String, context: EntityType?) -> [Issue] {
        let binding: Binding
        do { binding = try engine.compile(text) } catch { return [Issue(column: error.column, message: error.advisedMessage)] }
        var issues: [Issue] = []
        for part in binding.parts { check(part, context, &issues) }
        return issues
    }

    func check(_ part: BindingPart, _ context: EntityType?, _ issues: inout [Issue]) {
        switch part {
        case .path(let p): _ = walk(p, context, &issues)
        case .expression(let e, _): check(e, context, &issues)
        default: break
        }
    }

    func check(_ e: Expression, _ context: EntityType?, _ issues: inout [Issue]) {
        switch e {
        case .path(let p): _ = walk(p, context, &issues)
        case .negate(let x), .not(let x): check(x, context, &issues)
        case .binary(.divide, _, _) where checkSlashPath(e, context, &issues): break
        case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b):
            check(a, context, &issues); check(b, context, &issues)
        case .ternary(let a, let b, let c), .between(let a, let b, let c):
            check(a, context, &issues); check(b, context, &issues); check(c, context, &issues)
        case .inList(let x, let list):
            check(x, context, &issues); for i in list { check(i, context, &issues) }
        case .call(let name, let args, let column):
            checkFormatCall(name, args, column: column, context, &issues)
        default: break
        }
    }

    func shape(of t: FieldType) -> Shape {
        switch t {
        case .string: return .scalar("string")
        case .int, .double: return .scalar("number")
        case .bool: return .scalar("bool")
        case .date: return .scalar("date")
        case .array(let el), .set(let el): return .collection(shape(of: el))
        case .map: return .unknown
        default: return engine.schema.entityType(for: t).map { .entity($0) } ?? .unknown
        }
    }

    func walk(_ p: PathExpression, _ context: EntityType?, _ issues: inout [Issue]) -> Shape {
        var current: Shape
        if p.absolute {
            if let m = p.model {
                guard let t = modelTypes[m] else {
                    issues.append(Issue(column: p.column + (p.negate ? 1 : 0), message: "unknown model \"\(m)\""))
                    return .unknown
                }
                current = .entity(t)
            } else {
                current = engine.defaultModel.map { .entity($0.rootType) } ?? .unknown
            }
        } else {
            current = context.map { .entity($0) } ?? .unknown
        }
        for seg in p.segments {
            switch seg {
            case .current: continue
            case .parent, .ref: current = .unknown
            case .root: if case .entity = current { current = .unknown }
            case .property(let keys, let index, let column):
                var col = column
                for key in keys {
                    switch key {
                    case .aggregate(let a):
                        if a == .count { current = .scalar("number") } else if case .collection(let el) = current { current = a == .distinct ? .collection(el) : el } else { current = .unknown }
                        col += a.rawValue.count + 2
                        continue
                    case .name(let name, _):
                        checkFormatArguments(current, name, [], column: col, &issues)
                        current = step(current, name, column: col, &issues)
                        col += name.count + 1
                    case .filter(let f):
                        current = filter(current, f, &issues)
                        col = f.closeColumn + 2
                        continue
                    }
                }
                if index != nil, case .collection(let el) = current { current = el } else if index != nil { current = .unknown }
            case .call(let name, let args, _, let column):
                for a in args { check(a, context, &issues) }
                checkFormatArguments(current, name, args, column: column, &issues)
                current = call(current, name, column: column, &issues)
            }
            if case .unknown = current { return .unknown }
        }
        return current
    }

    func step(_ s: Shape, _ name: String, column: Int, _ issues: inout [Issue]) -> Shape {
        switch s {
        case .entity(let t):
            if let slot = t.slot(of: name) { return shape(of: t.fieldTypes[slot]) }
            if t.isRef, name == "ref" { return t.refTarget.flatMap { engine.schema.type(named: $0) }.map { .entity($0) } ?? .unknown }
            if let p = t.partial, p.field == name { return engine.schema.type(named: p.payloadType).map { .entity($0) } ?? .unknown }
            if t.computed[name] != nil || t.methods[name] != nil { return .unknown }
            if engine.extensions.exists(name, forType: t.name, isEntity: true) { return .unknown }
            issues.append(Issue(column: column, message: "\(t.name) has no field \"\(name)\"" + memberHint(name, t)))
            return .unknown
        case .collection(let el):
            if engine.extensions.exists(name, forType: "collection", isEntity: false) { return .unknown }
            return step(el, name, column: column, &issues).asCollection
        case .scalar(let kind):
            if engine.extensions.exists(name, forType: kind, isEntity: false) { return .unknown }
            issues.append(Issue(column: column, message: "no extension \"\(name)\" for \(kind) values" + hint(name, extensions(kind))))
            return .unknown
        case .unknown:
            return .unknown
        }
    }

    func call(_ s: Shape, _ name: String, column: Int, _ issues: inout [Issue]) -> Shape {
        switch s {
        case .entity(let t):
            if t.methods[name] != nil || t.computed[name] != nil || engine.extensions.exists(name, forType: t.name, isEntity: true) { return .unknown }
            let callable = Array(t.methods.keys) + Array(t.computed.keys) + engine.extensions.names(forType: t.name, isEntity: true)
            issues.append(Issue(column: column, message: "\(t.name) has no method or extension \"\(name)\"" + hint(name, callable)))
        case .scalar(let kind):
            if engine.extensions.exists(name, forType: kind, isEntity: false) { return .unknown }
            issues.append(Issue(column: column, message: "no extension \"\(name)\" for \(kind) values" + hint(name, extensions(kind))))
        case .collection:
            if engine.extensions.exists(name, forType: "collection", isEntity: false) { return .unknown }
            issues.append(Issue(column: column, message: "no extension \"\(name)\" for collections" + hint(name, extensions("collection"))))
        case .unknown: break
        }
        return .unknown
    }
}

extension BindingChecker {
    /// "Did you mean" for a name a path step reads on entities of `t`: the entity's own names (fields, computed
    /// fields, methods, extensions of its type or of every entity) first; an extension every value takes (`not`,
    /// `eq`) only when none is near and it is nearer still (`NameSuggestion.closest(to:preferring:else:)`): `dat` on
    /// a Book of title and price suggests no `not`.
    func memberHint(_ name: String, _ t: EntityType) -> String {
        let own = t.fields.map(\.name) + Array(t.computed.keys) + Array(t.methods.keys)
            + engine.extensions.namesRegistered(at: t.name) + engine.extensions.namesRegistered(at: "entity")
        return NameSuggestion.hint(for: name, preferring: own, else: engine.extensions.namesRegistered(at: "any"))
    }

    func extensions(_ kind: String) -> [String] { engine.extensions.names(forType: kind, isEntity: false) }

    func hint(_ name: String, _ known: [String]) -> String { NameSuggestion.hint(for: name, in: known) }
}

extension BindingChecker.Shape {
    var asCollection: BindingChecker.Shape {
        if case .unknown = self { return .unknown }
        return .collection(self)
    }
}

extension BindingChecker {
    /// The entity type a path reaches from `context`, when it can be known (for inferring screens' context types).
    public func entityType(after text: String, from context: EntityType?) -> EntityType? {
        guard !text.isEmpty, let b = try? engine.compile(text), b.parts.count == 1, case .path(let p) = b.parts[0] else { return nil }
        var ignored: [Issue] = []
        switch walk(p, context, &ignored) {
        case .entity(let t): return t
        case .collection(.entity(let t)): return t
        default: return nil
        }
    }
}
