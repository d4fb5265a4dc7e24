/// The syntax of a Lua 5.4 pattern, checked without matching (a malformed pattern may only fail when the matcher
/// reaches the broken part, so trying it on a sample says nothing). The messages are Lua's own.
enum LuaPatternSyntax {
    /// Lua's message for a malformed pattern, or nil when it is well formed.
    static func problem(in pattern: String) -> String? {
        let p = Array(pattern.utf8)
        var i = 0
        var open: [Int] = []          // the indices of captures still open
        var closed = 0                // captures opened so far
        var finished: Set<Int> = []   // 1-based captures that are closed
        if p.first == UInt8(ascii: "^") { i = 1 }
        while i < p.count {
            let c = p[i]
            switch c {
            case UInt8(ascii: "("):
                closed += 1
                if closed > 32 { return "too many captures" }
                open.append(closed)
                i += 1
            case UInt8(ascii: ")"):
                guard let last = open.popLast() else { return "invalid pattern capture" }
                finished.insert(last)
                i += 1
            case UInt8(ascii: "%"):
                guard i + 1 < p.count else { return "malformed pattern (ends with '%')" }
                let d = p[i + 1]
                if d == UInt8(ascii: "b") {
                    guard i + 3 < p.count else { return "malformed pattern (missing arguments to '%b')" }
                    i += 4
                } else if d == UInt8(ascii: "f") {
                    i += 2
                    guard i < p.count, p[i] == UInt8(ascii: "[") else { return "missing '[' after '%f' in pattern" }
                    guard let end = setEnd(p, i) else { return "malformed pattern (missing ']')" }
                    i = end + 1
                } else if d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") {
                    let n = Int(d - UInt8(ascii: "0"))
                    guard n >= 1, finished.contains(n) else { return "invalid capture index %\(n)" }
                    i += 2
                } else {
                    i += 2
                }
            case UInt8(ascii: "["):
                guard let end = setEnd(p, i) else { return "malformed pattern (missing ']')" }
                i = end + 1
            default:
                i += 1
            }
        }
        if !open.isEmpty { return "unfinished capture" }
        return nil
    }

    /// The index of the `]` that closes the set starting at `start` (a `[`), as Lua's matcher reads it: a `]`
    /// right after `[` or `[^` is a member, `%` escapes the next character.
    static func setEnd(_ p: [UInt8], _ start: Int) -> Int? {
        var i = start + 1
        if i < p.count, p[i] == UInt8(ascii: "^") { i += 1 }
        repeat {
            guard i < p.count else { return nil }
            let c = p[i]
            i += 1
            if c == UInt8(ascii: "%") {
                guard i < p.count else { return nil }
                i += 1
            }
        } while i >= p.count || p[i] != UInt8(ascii: "]")
        return i
    }
}
