/// How many arguments okit's built-in functions take (bindings.md "Built-in extension functions"), for the check of
/// a write that calls one with the value as one argument more (ScreenCheck+CellWrites.swift). BuiltinParametersTests
/// holds every built-in the registry has to this table.
extension BindingChecker {
    static let builtinParameterCounts: [String: [String: Int]] = [
        "number": ["prefix": 1, "prefixLocalized": 1, "prefixPlural": 1, "prefixPluralLocalized": 1, "suffix": 1,
                   "suffixLocalized": 1, "suffixPlural": 1, "suffixPluralLocalized": 1, "round2": 0, "round": 1,
                   "format": 1, "currency": 1, "number": 1, "percent": 1],
        "string": ["initial": 0, "localized": 0, "capitalize": 0, "upper": 0, "lower": 0, "trim": 0, "mask": 1, "unmask": 1],
        "date": ["formatDate": 0, "formatRelativeDate": 0, "formatFullDate": 0, "formatRelativeFullDate": 0,
                 "formatDateTime": 0, "formatRelativeDateTime": 0, "formatTime": 0, "formatRelativeTime": 0,
                 "formatISO": 0, "formatInterval": 0, "format": 1],
        "collection": ["join": 1, "sorted": 1],
        "any": ["isEmpty": 0, "isNil": 0, "default": 1, "eq": 1, "not": 0],
    ]

    /// The number of arguments of the built-in function a call `name` on a receiver of `kind` (`string`, `number`,
    /// `bool`, `date`, `collection`, `any`) runs — the one registered at `kind`, else at `any`, as the registry
    /// resolves it; nil when that is a Lua extension (which may take any number) or there is none.
    func builtinParameters(_ name: String, kind: String) -> Int? {
        if engine.extensions.function(type: kind, name: name) != nil {
            guard engine.extensions.resolvesToBuiltin(name, forType: kind) else { return nil }
            return BindingChecker.builtinParameterCounts[kind]?[name]
        }
        guard engine.extensions.resolvesToBuiltin(name, forType: "any") else { return nil }
        return BindingChecker.builtinParameterCounts["any"]?[name]
    }
}
