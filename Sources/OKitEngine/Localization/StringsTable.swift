/// Localized strings per language. STUB: being written.
public final class StringsTable {
    public init() {}
    public func localize(_ key: String, language: String) -> String { key }
}
