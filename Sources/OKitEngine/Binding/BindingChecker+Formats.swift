/// Checking the constant arguments of the built-in locale formats (bindings.md "Locale formats") and number patterns
/// ("Number patterns"): `price/currency(#euro)`, `price/currency` (no code), `=currency(price, 'euro')` and
/// `price/format('%08.3s')` are found before the app runs.
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
            // A quoted text starting with `%` is localized: the text of the app's language is the argument.
            if case .localized(let key) = a { constants.append(.constant(.string(engine.localize(key)))) }
        }
        guard constants.count == args.count - 1 else { return }   // an argument known only when it runs
        checkFormatArguments(shape, name, constants, column: column, &issues)
    }

    func checkFormatArguments(_ s: Shape, _ name: String, _ args: [BindingPart], column: Int, _ issues: inout [Issue]) {
        if case .scalar("date") = s, name == "format", engine.extensions.resolvesToBuiltin(name, forType: "date"),
           case .constant(let v)? = args.first {
            // `date/format(pattern)`: an ICU date pattern, never strftime (`DatePattern`).
            do { try DatePattern.check(BuiltinExtensions.text([v], 0)) } catch { issues.append(Issue(column: column, message: error.description)) }
            return
        }
        guard case .scalar("number") = s else { return }
        // Only the built-ins (a Lua extension of the same name drops the parser and takes any arguments).
        let isLocaleFormat = ["currency", "number", "percent"].contains(name) && engine.extensions.parser(type: "number", name: name) != nil
        let isPattern = name == "format" && engine.extensions.resolvesToBuiltin(name, forType: "number")
        guard isLocaleFormat || isPattern else { return }
        var values: [Value] = []
        for a in args {
            guard case .constant(let v) = a else { return }
            values.append(v)
        }
        do {
            if isPattern {
                // `number/format(pattern)`: an ICU pattern or one printf conversion, as `NumberPattern` reads it.
                _ = try NumberPattern.parse(BuiltinExtensions.text(values, 0))
            } else {
                _ = try LocaleNumberExtensions.style(name, values)
            }
        } catch {
            issues.append(Issue(column: column, message: error.description))
        }
    }
}
