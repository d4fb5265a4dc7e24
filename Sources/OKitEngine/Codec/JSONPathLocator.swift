/// Finds the JSON path (`$.books[3].price`) of a byte offset in a document, for error messages. Runs only
/// when something failed, so it favours simplicity over speed; it stops at the offset and tolerates
/// malformed input after it.
///
/// The path is for a one- or two-line message (storage.md "When a file cannot be read"): keys are shown escaped like JSON strings
/// (a control character never reaches the terminal raw), a long key is cut, and a deep path keeps its first and
/// last segments with `…` between.
enum JSONPathLocator {
    enum Frame { case object(key: String?), array(index: Int) }

    /// Segments kept at each end of a deep path, and the longest path and key shown.
    static let headSegments = 3, tailSegments = 4
    static let maxLength = 160, maxKeyLength = 40

    static func path(in bytes: [UInt8], at offset: Int) -> String {
        var stack: [Frame] = []
        var i = 0
        var expectingKey = false
        while i < min(offset, bytes.count) {
            let c = bytes[i]
            switch c {
            case 0x7B:
                stack.append(.object(key: nil)); expectingKey = true
            case 0x5B:
                stack.append(.array(index: 0)); expectingKey = false
            case 0x7D, 0x5D:
                if !stack.isEmpty { stack.removeLast() }
            case 0x2C:
                if case .array(let n)? = stack.last { stack[stack.count - 1] = .array(index: n + 1) }
                else if case .object? = stack.last { expectingKey = true }
            case 0x22:
                var j = i + 1
                while j < bytes.count, bytes[j] != 0x22 {
                    if bytes[j] == 0x5C { j += 1 }
                    j += 1
                }
                if expectingKey, case .object? = stack.last {
                    stack[stack.count - 1] = .object(key: unescape(bytes[(i + 1)..<min(j, bytes.count)]))
                    expectingKey = false
                }
                i = j
            default: break
            }
            i += 1
        }
        return render(stack.compactMap { f -> String? in
            switch f {
            case .object(let k?): return segment(k)
            case .object(nil): return nil
            case .array(let n): return "[\(n)]"
            }
        })
    }

    /// `$` and the segments, abbreviated: at most `headSegments` + `tailSegments` segments around a `…`, and
    /// at most about `maxLength` characters (segments at the start go first; the last one always stays).
    static func render(_ segments: [String]) -> String {
        var head = Array(segments.prefix(headSegments))
        var tail = Array(segments.dropFirst(head.count).suffix(tailSegments))
        var cut = head.count + tail.count < segments.count
        func text() -> String { "$" + head.joined() + (cut ? "…" : "") + tail.joined() }
        while text().count > maxLength, head.count + tail.count > 1 {
            if !head.isEmpty { head.removeLast() } else { tail.removeFirst() }
            cut = true
        }
        return text()
    }

    /// One key as a path segment: `.name` when plain, else `["…"]` with JSON escapes; a long key is cut with `…`.
    static func segment(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        let long = scalars.count > maxKeyLength
        let shown = long ? String(String.UnicodeScalarView(scalars.prefix(maxKeyLength - 1))) : key
        if isPlain(shown), !long { return "." + shown }
        return "[\"" + escape(shown) + (long ? "…" : "") + "\"]"
    }

    /// A key as inside a JSON string, safe on a terminal (`JSONText.escapedForTerminal`).
    static func escape(_ key: String) -> String { JSONText.escapedForTerminal(key) }

    /// A key's text with its JSON escapes resolved (a malformed escape is kept as it is written).
    static func unescape(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(0x5C) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        raw.withUnsafeBufferPointer { buf in
            _ = try? JSONText.unescape(buf, from: 0, to: buf.count, lenient: true, into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isPlain(_ k: String) -> Bool {
        !k.isEmpty && k.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
