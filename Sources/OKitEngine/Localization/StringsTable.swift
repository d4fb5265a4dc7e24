/// Localized strings per language. STUB: being written.
public final class StringsTable {
    private var tables: [String: [String: String]] = [:]
    public init() {}
    public func localize(_ key: String, language: String) -> String { tables[language]?[key] ?? key }
    public func add(language: String, strings: [String: String]) { tables[language, default: [:]].merge(strings) { $1 } }
    public func load(language: String, stringsFileAt path: String) throws {}
}
