/// Compiled bindings by text: each distinct binding string is parsed once per engine.
public final class BindingCache {
    private var compiled: [String: Binding] = [:]
    private var failed: [String: BindingError] = [:]

    public init() {}

    public var count: Int { compiled.count }

    /// The compiled binding for `text`, parsing it on first use. Parse errors are cached too.
    public func binding(_ text: String) throws(BindingError) -> Binding {
        if let b = compiled[text] { return b }
        if let e = failed[text] { throw e }
        do {
            let b = try BindingParser.parse(text)
            compiled[text] = b
            return b
        } catch {
            failed[text] = error
            throw error
        }
    }
}
