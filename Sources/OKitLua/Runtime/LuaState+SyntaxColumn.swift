import CLua
import Foundation

/// The column of a syntax error. Lua names the line and the token it stopped at (`app.lua:5: unexpected symbol
/// near '='`), not the column, and the token may be on the line more than once (`dataPath = = "plants"`): the
/// column is the occurrence at which the source, cut right after it, fails with the same message — Lua itself
/// decides, so no second parser has to agree with it.
extension LuaState {
    /// The message with `:column` after its line (`app.lua:5:21: …`), when the column can be found.
    func withSyntaxColumn(_ message: String, source: [UInt8], chunkName: String) -> String {
        guard let (head, line) = Self.lineOfMessage(message),
              let token = Self.nearToken(message), !token.isEmpty,
              let column = syntaxColumn(message, token: token, line: line, source: source, chunkName: chunkName) else { return message }
        var out = message
        out.insert(contentsOf: ":\(column)", at: head)
        return out
    }

    /// Where the message's `name:LINE` ends, and the line.
    static func lineOfMessage(_ message: String) -> (String.Index, Int)? {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        let digits = message[message.index(after: colon)...].prefix { $0.isASCII && $0.isNumber }
        guard let line = Int(digits), digits.endIndex < message.endIndex, message[digits.endIndex] == ":" else { return nil }
        return (digits.endIndex, line)
    }

    /// The token of `near 'x'` (nil for `near <eof>` and messages without one).
    static func nearToken(_ message: String) -> String? {
        guard let near = message.range(of: " near '", options: .backwards), message.hasSuffix("'") else { return nil }
        return String(message[near.upperBound..<message.index(before: message.endIndex)])
    }

    /// The 1-based column, in characters, of the occurrence of `token` on `line` that the message is about.
    private func syntaxColumn(_ message: String, token: String, line: Int, source bytes: [UInt8],
                              chunkName: String) -> Int? {
        var start = 0, current = 1
        while current < line, let nl = bytes[start...].firstIndex(of: 10) { start = nl + 1; current += 1 }
        guard current == line else { return nil }
        let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        let needle = Array(token.utf8)
        var at = start, tries = 0
        while tries < 50, at + needle.count <= end {
            guard let found = Self.find(needle, in: bytes, from: at, to: end) else { return nil }
            tries += 1
            let cut = found + needle.count
            let status = loadStatus(bytes[0..<cut], chunkName: chunkName)
            let text = status == LUA_OK ? nil : errorText(at: -1)
            pop()
            if status == LUA_ERRSYNTAX, text == message {
                return String(decoding: bytes[start..<found], as: UTF8.self).count + 1
            }
            at = found + 1
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int, to end: Int) -> Int? {
        guard !needle.isEmpty, end - from >= needle.count else { return nil }
        for i in from...(end - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }
}
