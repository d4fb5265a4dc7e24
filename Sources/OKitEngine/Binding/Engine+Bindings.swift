import Foundation

/// Where a write through a binding cannot go.
public struct BindingWriteError: Error, CustomStringConvertible {
    public let binding: String
    public let reason: String
    public var description: String { "binding \"\(binding)\": \(reason)" }
}

extension Engine {
    /// Nesting limit of binding → extension → binding calls (bindings.md: re-entry 100).
    public static let maxCallDepth = 100

    /// Compiles a binding (cached by text).
    public func compile(_ text: String) throws(BindingError) -> Binding {
        try bindingCache.binding(text)
    }

    /// The localized string of a key in the app's language: the app's own string; else, for a key that is the
    /// English text of one of okit's own words without arguments (`OK`, `Cancel`, `Delete`), okit's word in the
    /// language (`%Cancel` is "Abbrechen" in German); else the key itself. Records the read.
    public func localize(_ key: String) -> String {
        graph.record(.locale)
        let language = locale.language
        if let own = strings.own(key, language: language) { return own }
        return BuiltInWords.plainWord(key, language: language) ?? key
    }

    /// Errors reported by display bindings (an extension that failed while a screen was drawn).
    public func report(_ error: Error) {
        // Kept for tests and hosts, at most `maxWarnings` (an error in a row's binding of a huge list repeats).
        if reportedErrors.count < Engine.maxWarnings { reportedErrors.append(error) }
        onError?(error)
        warn("\(error)")
    }

    /// A flag property's value on a context: an empty binding gives `value`; the constants `#true`/`#false` (OKit's
    /// defaults, on every row of a list) need no evaluation; anything else is evaluated and made a bool.
    public func flag(_ binding: String, on context: Entity?, default value: Bool) throws -> Bool {
        switch binding {
        case "": return value
        case "#true": return true
        case "#false": return false
        default: return try get(context, binding, mode: .display).truthy
        }
    }

    // MARK: get / getAll / text

    /// The value of a binding on a context. A single part gives its raw value; several parts give the
    /// display text of the parts joined with one space (nil parts dropped). `""` gives nil.
    public func get(_ context: Entity?, _ text: String, mode: EvaluationMode = .query) throws -> Value {
        try evaluate(compile(text), context, mode: mode)
    }

    /// Evaluates a compiled binding (see `get`).
    public func evaluate(_ b: Binding, _ context: Entity?, mode: EvaluationMode = .query) throws -> Value {
        switch b.parts.count {
        case 0: return .null
        case 1: return try run(b, mode) { try BindingEvaluator(engine: self, binding: b, start: context, mode: mode).evaluate(b.parts[0]) }
        default:
            let values = try evaluateAll(b, context, mode: mode)
            let text = values.compactMap { $0.displayString }.joined(separator: " ")
            return text.isEmpty ? .null : .string(text)
        }
    }

    /// The raw value of every part (nil kept), in order.
    public func getAll(_ context: Entity?, _ text: String, mode: EvaluationMode = .query) throws -> [Value] {
        try evaluateAll(compile(text), context, mode: mode)
    }

    /// The raw value of every part of a compiled binding.
    public func evaluateAll(_ b: Binding, _ context: Entity?, mode: EvaluationMode = .query) throws -> [Value] {
        try run(b, mode) {
            let ev = BindingEvaluator(engine: self, binding: b, start: context, mode: mode)
            return try b.parts.map { try ev.evaluate($0) }
        }
    }

    /// The display text of a binding: multi-part text joined with spaces; nil when nothing is shown.
    public func text(_ context: Entity?, _ text: String, mode: EvaluationMode = .display) throws -> String? {
        try get(context, text, mode: mode).displayString
    }

    private func run<T>(_ b: Binding, _ mode: EvaluationMode, _ body: () throws -> T) throws -> T {
        switch mode {
        case .display: return try asDisplay(b.text, body)
        case .query: return try body()
        case .action: return try asAction(body)
        }
    }

    // MARK: set / call

    /// Writes `value` through a binding: the last segment's field on the entity reached (type-checked and
    /// coerced), a map key, or `fn(value)` when the last segment is a call. One transaction.
    public func set(_ context: Entity?, binding text: String, _ value: Value) throws {
        let b = try compile(text)
        guard b.parts.count == 1, case .path(let path) = b.parts[0] else {
            throw BindingWriteError(binding: text, reason: "only a single path can be written (not a constant, a localized text, an expression or several parts)")
        }
        guard !path.negate else { throw BindingWriteError(binding: text, reason: "a negated path (!) cannot be written") }
        guard let last = path.segments.last else {
            throw BindingWriteError(binding: text, reason: "a model root cannot be written")
        }
        try asAction {
            try transaction {
                let ev = BindingEvaluator(engine: self, binding: b, start: context, mode: .action)
                var current: Value = path.absolute ? try ev.modelRoot(path.model) : (context.map { .entity($0) } ?? .null)
                let segments = path.segments
                for seg in segments.dropLast(2) { current = try ev.step(current, seg) }
                // Text through a locale format (`amount/currency(#EUR)`) is read back and written before it.
                if segments.count >= 2, let parsed = try readBack(value, through: last, after: segments[segments.count - 2], on: current, ev: ev, text: text) {
                    try write(parsed, to: segments[segments.count - 2], on: current, ev: ev, text: text)
                    return
                }
                if segments.count >= 2 { current = try ev.step(current, segments[segments.count - 2]) }
                try write(value, to: last, on: current, ev: ev, text: text)
            }
        }
    }

    private func write(_ value: Value, to seg: Segment, on target: Value, ev: BindingEvaluator, text: String) throws {
        switch seg {
        case .property(let keys, let index, _):
            guard index == nil else { throw BindingWriteError(binding: text, reason: "an indexed element cannot be written; write a field of it") }
            var owner = target
            if keys.count > 1 { owner = try ev.evaluateKeys(target, keys.dropLast()) }
            guard case .name(let name, _)? = keys.last else {
                if case .filter? = keys.last { throw BindingWriteError(binding: text, reason: "a filter cannot be written; write a field of an element") }
                throw BindingWriteError(binding: text, reason: "an aggregate cannot be written")
            }
            switch owner {
            case .entity(let e):
                if checksCommandWrite {
                    checksCommandWrite = false
                    try checkCommandWrite(e, name, value)
                }
                try set(e, name, value)
            case .collection(let c) where c.kind == .map: try put(value, forKey: name, in: c)
            case .null: throw BindingWriteError(binding: text, reason: "nothing to write to (the path before \"\(name)\" is nil)")
            default: throw BindingWriteError(binding: text, reason: "cannot write \"\(name)\" through a \(owner.typeName) value")
            }
        case .call(let name, let args, _, _):
            switch target {
            case .entity, .collection: break
            case .null: throw BindingWriteError(binding: text, reason: "nothing to write to (the path before \"\(name)()\" is nil)")
            case _ where !extensions.callTakesNoValue(name, on: target): break   // a Lua extension takes the value
            default:
                // `name/upper()`, `copies/suffix(#x)`: a function of a value computes a text, it takes none; the
                // write answered ok and wrote nothing (OKit's KVC write on a value fails too).
                throw BindingWriteError(binding: text, reason: "cannot write through \"\(name)()\" of a \(target.typeName) value: "
                                        + "it computes a value and takes none; write the field itself")
            }
            checksCommandWrite = false   // a function takes the value: what it writes is code's write
            let argValues = try args.map { try ev.evaluate($0) } + [value]
            _ = try ev.call(name, on: target, args: argValues)
        default:
            throw BindingWriteError(binding: text, reason: "the last segment must be a field or a call")
        }
    }

    /// Evaluates a binding for its effect (a tap); every part runs in order, as one transaction.
    /// Returns the value of the last part.
    @discardableResult
    public func call(_ context: Entity?, _ text: String) throws -> Value {
        let b = try compile(text)
        return try asAction {
            try transaction {
                let values = try evaluateAll(b, context, mode: .action)
                return values.last ?? .null
            }
        }
    }

    // MARK: Subscriptions

    /// Subscribes a display binding on a context: evaluates it now, records what it read, and marks it stale
    /// (calling `onStale` after the transaction) when any of that changes.
    public func subscribe(_ context: Entity?, _ text: String, mode: EvaluationMode = .display,
                          onStale: ((Subscription) -> Void)? = nil) throws -> Subscription {
        let b = try compile(text)
        return graph.subscribe(Subscription(graph: graph, engine: self, binding: b, context: context, mode: mode, onStale: onStale))
    }
}
