/// Validation of names and ids that become file names or URL segments (storage.md).
public enum Names {
    /// Refuses names with `/`, `\`, `..`, a NUL, a leading `.`, or that are empty.
    public static func validate(_ name: String, what: String) throws(EngineError) {
        if name.isEmpty { throw .invalidName(name, reason: "\(what) is empty") }
        if name.hasPrefix(".") { throw .invalidName(name, reason: "\(what) may not start with \".\"") }
        if name.contains("/") || name.contains("\\") { throw .invalidName(name, reason: "\(what) may not contain / or \\") }
        if name.contains("..") { throw .invalidName(name, reason: "\(what) may not contain \"..\"") }
        if name.unicodeScalars.contains(where: { $0.value == 0 }) { throw .invalidName(name, reason: "\(what) may not contain NUL") }
    }

    public static func isSafe(_ name: String) -> Bool { (try? validate(name, what: "name")) != nil }
}
