import Foundation

/// Why a binding cannot be written, found on the schema before the app runs by the rules `Engine.set(_:binding:_:)`
/// (Engine+Bindings.swift) and `Engine.set(_:_:_:)` (Engine+Writes.swift) refuse a write with when a person sets
/// an edit cell: a computed field without a setter, a function of a value (`name/upper()`, `when/format(…)`), a
/// built-in function that a write would call with the value as one argument more than it takes, an aggregate, a
/// filter, an index. nil where the schema cannot tell (a Lua method or extension, an unknown type).
struct WriteRefusal {
    /// 1-based column in the binding of the step that refuses the write.
    let column: Int
    /// What is wrong, in the engine's words where it has them.
    let reason: String
    /// The binding to write instead, when one is known (the field a function of a value reads).
    let instead: String?
}

extension BindingChecker {
    /// Why writing through `text` on entities of `context` fails, or nil. `picker`: the binding is a picker's
    /// `selectionPath` over entities, which a ref it reaches takes by its `refKey` whatever the path (only what
    /// refuses every value is told).
    func writeRefusal(of text: String, on context: EntityType?, picker: Bool = false) -> WriteRefusal? {
        guard let b = try? engine.compile(text), !b.parts.isEmpty else { return nil }
        guard b.parts.count == 1, case .path(let p) = b.parts[0] else {
            // A picker over entities takes a ref whatever reaches it (`refKey` is written).
            return picker ? nil : WriteRefusal(column: 1, reason: "only a single path can be written (not a constant, a localized text, "
                                               + "an expression or several parts)", instead: nil)
        }
        if p.negate { return picker ? nil : WriteRefusal(column: p.column, reason: "a negated path (!) cannot be written", instead: nil) }
        return refusal(p, p.segments, text, context, picker: picker)
    }

    /// The shape a path's first `segments` reach (its other steps dropped).
    func shape(_ p: PathExpression, _ segments: [Segment], _ context: EntityType?) -> Shape {
        let head = PathExpression(negate: false, model: p.model, absolute: p.absolute, segments: segments, text: p.text, column: p.column)
        var ignored: [Issue] = []
        return walk(head, context, &ignored)
    }

    private func refusal(_ p: PathExpression, _ segments: [Segment], _ text: String, _ context: EntityType?,
                         picker: Bool) -> WriteRefusal? {
        guard let last = segments.last else { return nil }
        let before = Array(segments.dropLast())
        let owner = shape(p, before, context)
        // A locale format or a mask on a value of its type is read back: the step before it is written.
        if !before.isEmpty, engine.isReadBackFormat(last) {
            guard case .scalar(let kind) = owner, let (name, _) = Engine.formatCall(last),
                  engine.extensions.parser(type: kind, name: name) != nil else { return nil }
            return refusal(p, before, text, context, picker: picker)
        }
        let field = BindingChecker.text(text, from: p.column, before: last)
        switch last {
        case .call(let name, let args, _, let column):
            return callRefusal(name, args: args.count, on: owner, column: column, field: field, picker: picker)
        case .property(let keys, let index, let column):
            if index != nil {
                return WriteRefusal(column: column, reason: "an indexed element cannot be written; write a field of it", instead: nil)
            }
            var holder = owner
            if keys.count > 1 { holder = shape(p, before + [.property(keys: Array(keys.dropLast()), index: nil, column: column)], context) }
            switch keys.last {
            case .name(let name, _)?: return nameRefusal(name, on: holder, column: column, field: field, picker: picker)
            case .aggregate?: return WriteRefusal(column: column, reason: "an aggregate cannot be written", instead: nil)
            case .filter?: return WriteRefusal(column: column, reason: "a filter cannot be written; write a field of an element", instead: nil)
            case nil: return nil
            }
        default:
            return nil
        }
    }

    /// `name(…)` as the written step: on a value, refused unless a Lua extension takes the value
    /// (`ExtensionRegistry.callTakesNoValue`, as `Engine.set` asks it); on an entity or a collection, called with
    /// the value as its last argument — a built-in one takes a known number of arguments and writes nothing.
    private func callRefusal(_ name: String, args: Int, on owner: Shape, column: Int, field: String?, picker: Bool) -> WriteRefusal? {
        switch owner {
        case .scalar(let kind):
            guard let sample = BindingChecker.sample(kind), engine.extensions.callTakesNoValue(name, on: sample) else { return nil }
            var reason = "cannot write through \"\(name)()\" of a \(kind) value: it computes a value and takes none"
            if let n = builtinParameters(name, kind: kind), args > n {
                reason += " (and \(name) takes \(BindingChecker.arguments(n)): the \(args - n == 1 ? "last one given is" : "last \(args - n) given are") ignored)"
            }
            return WriteRefusal(column: column, reason: reason, instead: field)
        case .entity(let t) where !picker:
            guard t.methods[name] == nil, engine.extensions.function(type: t.name, name: name) == nil,
                  engine.extensions.function(type: "entity", name: name) == nil,
                  let n = builtinParameters(name, kind: "any") else { return nil }
            return arityRefusal(name, n, args: args, column: column)
        case .collection:
            guard let n = builtinParameters(name, kind: "collection") else { return nil }
            return arityRefusal(name, n, args: args, column: column)
        default:
            return nil
        }
    }

    private func arityRefusal(_ name: String, _ n: Int, args: Int, column: Int) -> WriteRefusal {
        WriteRefusal(column: column, reason: "a write calls \"\(name)()\" with the value as one argument more (\(args + 1) in all), "
                     + "but okit's \(name) takes \(BindingChecker.arguments(n)) and writes nothing", instead: nil)
    }

    /// A name as the written step: a stored field takes the value; a computed field only with a setter; a method
    /// or an extension of an entity, or a name on a value or a collection, nothing.
    private func nameRefusal(_ name: String, on holder: Shape, column: Int, field: String?, picker: Bool) -> WriteRefusal? {
        switch holder {
        case .entity(let t) where !picker:
            if t.slot(of: name) != nil || (t.isRef && name == "ref") { return nil }
            if let c = t.computed[name] {
                guard c.set == nil else { return nil }
                return WriteRefusal(column: column, reason: EngineError.readOnlyField(type: t.name, field: name).description, instead: nil)
            }
            if t.partial?.field == name {
                return WriteRefusal(column: column, reason: EngineError.payloadField(type: t.name, field: name).description, instead: nil)
            }
            guard t.methods[name] != nil || engine.extensions.exists(name, forType: t.name, isEntity: true) else { return nil }
            let what = t.methods[name] != nil ? "a method" : "an extension"
            return WriteRefusal(column: column, reason: "\"\(name)\" is \(what) of \(t.name), not a field: "
                                + EngineError.unknownField(type: t.name, field: name).description, instead: nil)
        case .scalar(let kind):
            return WriteRefusal(column: column, reason: "cannot write \"\(name)\" through a \(kind) value", instead: field)
        case .collection:
            return WriteRefusal(column: column, reason: "cannot write \"\(name)\" through a collection value", instead: nil)
        default:
            return nil
        }
    }

    /// A value of each scalar shape, for asking the registry what a call on it resolves to.
    static func sample(_ kind: String) -> Value? {
        switch kind {
        case "string": return .string("")
        case "number": return .int(0)
        case "bool": return .bool(false)
        case "date": return .date(Date(timeIntervalSince1970: 0))
        default: return nil
        }
    }

    /// "no argument", "1 argument", "2 arguments".
    static func arguments(_ n: Int) -> String { n == 0 ? "no argument" : n == 1 ? "1 argument" : "\(n) arguments" }

    /// The text of a path before its step `last` (`qty` of `qty/format('%d')`), without the `/`; nil when empty.
    static func text(_ text: String, from start: Int, before last: Segment) -> String? {
        let column: Int
        switch last {
        case .call(_, _, _, let c), .property(_, _, let c): column = c
        default: return nil
        }
        let chars = Array(text)
        guard start >= 1, column - 2 > start - 1, column - 2 <= chars.count else { return nil }
        let head = String(chars[(start - 1)..<(column - 2)])
        return head.isEmpty || head == "/" ? nil : head
    }
}
