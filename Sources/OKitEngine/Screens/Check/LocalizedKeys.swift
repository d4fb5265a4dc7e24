/// The `%key`s a binding shows: its localized parts and the localized strings of its expressions, in order; and
/// the keys its localizing extensions look up (`suffixPlural(#copy)`).
enum LocalizedKeys {
    static func of(_ binding: Binding) -> [String] {
        var keys: [String] = []
        for part in binding.parts {
            switch part {
            case .localized(let key): keys.append(key)
            case .expression(let e, _): collect(e, into: &keys)
            case .constant, .path: continue
            }
        }
        return keys
    }

    private static func collect(_ e: Expression, into keys: inout [String]) {
        switch e {
        case .localized(let key): keys.append(key)
        case .literal, .path: return
        case .negate(let x), .not(let x): collect(x, into: &keys)
        case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b):
            collect(a, into: &keys)
            collect(b, into: &keys)
        case .ternary(let a, let b, let c), .between(let a, let b, let c):
            for x in [a, b, c] { collect(x, into: &keys) }
        case .inList(let x, let list):
            collect(x, into: &keys)
            for y in list { collect(y, into: &keys) }
        case .call(_, let args, _):
            for a in args { collect(a, into: &keys) }
        }
    }

    /// A key an extension looks up: the extension, the argument as written, the key, and whether it is a plural.
    struct ExtensionKey: Equatable {
        let call: String
        let argument: String
        let key: String
        let plural: Bool
    }

    /// The number extensions that localize their argument (bindings.md "Built-in extension functions"); the plural
    /// ones look up the argument for one and the argument with an "s" for any other count.
    static let localizing: [String: Bool] = [
        "prefixLocalized": false, "suffixLocalized": false, "prefixPlural": true, "prefixPluralLocalized": true,
        "suffixPlural": true, "suffixPluralLocalized": true,
    ]

    /// The keys the binding's localizing extensions look up with a constant argument (`copies/suffixPlural(#copy)`:
    /// `copy` and `copys`), in order.
    static func extensionKeys(of binding: Binding) -> [ExtensionKey] {
        var out: [ExtensionKey] = []
        func add(_ call: String, _ argument: String) {
            guard let plural = localizing[call], !argument.isEmpty else { return }
            out.append(ExtensionKey(call: call, argument: argument, key: argument, plural: false))
            if plural { out.append(ExtensionKey(call: call, argument: argument, key: argument + "s", plural: true)) }
        }
        func visitParts(_ parts: [BindingPart]) {
            for part in parts {
                switch part {
                case .path(let p): visitPath(p)
                case .expression(let e, _): visitExpression(e)
                case .constant, .localized: continue
                }
            }
        }
        func visitPath(_ p: PathExpression) {
            for case .call(let name, let args, _, _) in p.segments {
                if case .constant(.string(let s))? = args.first { add(name, s) }
                visitParts(args)
            }
        }
        func visitExpression(_ e: Expression) {
            switch e {
            case .literal, .localized: return
            case .path(let p): visitPath(p)
            case .negate(let x), .not(let x): visitExpression(x)
            case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b):
                visitExpression(a)
                visitExpression(b)
            case .ternary(let a, let b, let c), .between(let a, let b, let c):
                for x in [a, b, c] { visitExpression(x) }
            case .inList(let x, let list):
                visitExpression(x)
                for y in list { visitExpression(y) }
            case .call(let name, let args, _):
                if args.count >= 2, case .literal(.string(let s)) = args[1] { add(name, s) }
                for a in args { visitExpression(a) }
            }
        }
        visitParts(binding.parts)
        return out
    }
}
