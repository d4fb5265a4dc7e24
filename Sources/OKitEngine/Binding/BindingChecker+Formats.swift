/// Checking the constant arguments of the built-in locale formats (bindings.md "Locale formats"):
/// `price/currency(#euro)` and `price/currency` (no code) are found before the app runs.
extension BindingChecker {
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
