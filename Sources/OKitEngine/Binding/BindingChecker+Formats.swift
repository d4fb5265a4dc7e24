/// Checking the constant arguments of the built-in locale formats (bindings.md "Locale formats"):
/// `price/currency(#euro)`, `price/currency` (no code) and `=currency(price, 'euro')` are found before the app runs.
extension BindingChecker {
    /// `fn(receiver, args…)` in an expression: the arguments are checked, then a format's constant arguments.
    func checkFormatCall(_ name: String, _ args: [Expression], column: Int, _ context: EntityType?, _ issues: inout [Issue]) {
        guard let receiver = args.first else { return }
        let shape: Shape
        switch receiver {
        case .path(let p): shape = walk(p, context, &issues)
        case .literal(.int), .literal(.double): shape = .scalar("number")
        default: check(receiver, context, &issues); shape = .unknown
        }
        var constants: [BindingPart] = []
        for a in args.dropFirst() {
            check(a, context, &issues)
            if case .literal(let v) = a { constants.append(.constant(v)) }
        }
        guard constants.count == args.count - 1 else { return }   // an argument known only when it runs
        checkFormatArguments(shape, name, constants, column: column, &issues)
    }

    func checkFormatArguments(_ s: Shape, _ name: String, _ args: [BindingPart], column: Int, _ issues: inout [Issue]) {
        // Only the built-ins (a Lua extension of the same name drops the parser and takes any arguments).
        guard case .scalar("number") = s, ["currency", "number", "percent"].contains(name),
              engine.extensions.parser(type: "number", name: name) != nil else { return }
        var values: [Value] = []
        for a in args {
            guard case .constant(let v) = a else { return }
            values.append(v)
        }
        do {
            _ = try LocaleNumberExtensions.style(name, values)
        } catch {
            issues.append(Issue(column: column, message: error.description))
        }
    }
}
