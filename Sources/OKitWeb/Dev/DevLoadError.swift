import Foundation

/// Why the app's files did not load at a live reload, as the page's overlay shows it: where (`app.lua:12:9`, the
/// first place the message names) and the message itself. Lua names a line but no column: the column is the
/// token Lua names ("near 'x'") on that line, else the line's first character that is not blank.
public struct DevLoadError: Sendable, Equatable {
    /// `file:line:column`, relative to the app's folder; nil when the message names no place.
    public var location: String?
    /// The message, as the loader gave it.
    public var message: String

    public init(message: String, appFolder: URL?) {
        self.message = message
        self.location = DevLoadError.location(in: message, appFolder: appFolder)
    }

    /// The first `file.lua:line[:column]` of the message, with its column.
    static func location(in message: String, appFolder: URL?) -> String? {
        let pattern = #"([A-Za-z0-9_./-]+\.(?:lua|strings)):([0-9]+)(?::([0-9]+))?"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let m = regex.firstMatch(in: message, range: NSRange(message.startIndex..., in: message)),
              let fileRange = Range(m.range(at: 1), in: message), let lineRange = Range(m.range(at: 2), in: message),
              let line = Int(message[lineRange]) else { return nil }
        let file = String(message[fileRange])
        if let columnRange = Range(m.range(at: 3), in: message) { return "\(file):\(line):\(message[columnRange])" }
        let text = appFolder.flatMap { try? String(contentsOf: $0.appendingPathComponent(file), encoding: .utf8) }
        let lines = text.map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        let source = line >= 1 && line <= lines.count ? String(lines[line - 1]) : ""
        return "\(file):\(line):\(column(in: source, message: message))"
    }

    /// The column (1-based, in characters) of the token Lua names in `message` on the line `source`.
    static func column(in source: String, message: String) -> Int {
        if message.contains("near <eof>") { return source.count + 1 }
        if let near = message.range(of: "near '"), let end = message[near.upperBound...].firstIndex(of: "'") {
            let token = String(message[near.upperBound..<end])
            // The token Lua stopped at is the last of its kind on the line more often than the first.
            if !token.isEmpty, let found = source.range(of: token, options: .backwards) {
                return source.distance(from: source.startIndex, to: found.lowerBound) + 1
            }
        }
        // A runtime error names the variable or field it met nil in: "attempt to index a nil value (global 'cfg')".
        if let name = namedVariable(in: message), let found = word(name, in: source) {
            return source.distance(from: source.startIndex, to: found) + 1
        }
        return (source.firstIndex { $0 != " " && $0 != "\t" }.map { source.distance(from: source.startIndex, to: $0) } ?? 0) + 1
    }

    /// The name in a runtime error's "(global 'x')", "(local 'x')", "(field 'x')", "(upvalue 'x')", "(method 'x')",
    /// "(constant 'x')".
    static func namedVariable(in message: String) -> String? {
        for kind in ["global", "local", "field", "upvalue", "method", "constant"] {
            guard let start = message.range(of: "(\(kind) '"), let end = message[start.upperBound...].range(of: "')") else { continue }
            let name = String(message[start.upperBound..<end.lowerBound])
            if !name.isEmpty { return name }
        }
        return nil
    }

    /// Where `name` first stands as a whole word on the line (not inside a longer name or a string's text after it).
    static func word(_ name: String, in source: String) -> String.Index? {
        func isName(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber }
        var from = source.startIndex
        while let r = source.range(of: name, range: from..<source.endIndex) {
            let before = r.lowerBound == source.startIndex ? nil : source[source.index(before: r.lowerBound)]
            let after = r.upperBound == source.endIndex ? nil : source[r.upperBound]
            if !(before.map(isName) ?? false), !(after.map(isName) ?? false) { return r.lowerBound }
            from = r.upperBound
        }
        return nil
    }

    /// The message with the column in its place: `app.lua:22: attempt …` becomes `app.lua:22:16: attempt …` (what
    /// stderr shows, as the overlay does); a message that names no place, or its column already, as it is.
    public var located: String {
        guard let location, let colon = location.lastIndex(of: ":") else { return message }
        let lineOnly = String(location[..<colon]) + ":"
        guard let r = message.range(of: lineOnly), message[r.upperBound...].first == " " else { return message }
        return message.replacingCharacters(in: r, with: location + ":")
    }
}
