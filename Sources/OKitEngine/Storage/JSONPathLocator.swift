/// Finds the JSON path (`$.books[3].price`) of a byte offset in a document, for error messages. Runs only
/// when something failed, so it favours simplicity over speed; it stops at the offset and tolerates
/// malformed input after it.
enum JSONPathLocator {
    enum Frame { case object(key: String?), array(index: Int) }

    static func path(in bytes: [UInt8], at offset: Int) -> String {
        var stack: [Frame] = []
        var i = 0
        var expectingKey = false
        func render() -> String {
            var s = "$"
            for f in stack {
                switch f {
                case .object(let k?): s += isPlain(k) ? ".\(k)" : "[\"\(k)\"]"
                case .object(nil): break
                case .array(let n): s += "[\(n)]"
                }
            }
            return s
        }
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
                var text: [UInt8] = []
                while j < bytes.count, bytes[j] != 0x22 {
                    if bytes[j] == 0x5C { j += 1 }
                    if j < bytes.count { text.append(bytes[j]) }
                    j += 1
                }
                if expectingKey, case .object? = stack.last {
                    stack[stack.count - 1] = .object(key: String(decoding: text, as: UTF8.self))
                    expectingKey = false
                }
                i = j
            default: break
            }
            i += 1
        }
        return render()
    }

    static func isPlain(_ k: String) -> Bool {
        !k.isEmpty && k.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
