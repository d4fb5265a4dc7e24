/// Any JSON value as a tree, read by the codec's reader (`JSONReader`): for documents without a schema (a flow
/// test's stored snapshot). Members keep their order; `nan`, `inf` and `-inf` are accepted as numbers.
public indirect enum JSONTree: Equatable, Sendable {
    case null, bool(Bool), int(Int), double(Double), string(String)
    case array([JSONTree]), object([(key: String, value: JSONTree)])

    public static func == (a: JSONTree, b: JSONTree) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The whole document as a tree; nil when it is not valid JSON.
    public static func parse(_ bytes: [UInt8]) -> JSONTree? {
        bytes.withUnsafeBufferPointer { buf in
            var reader = JSONReader(bytes: buf, engine: Engine(schema: Schema()))
            guard let tree = try? reader.tree() else { return nil }
            reader.skipSpace()
            return reader.i == buf.count ? tree : nil
        }
    }
}

extension JSONReader {
    /// Any JSON value (and the `nan`/`inf` words) as a `JSONTree`.
    mutating func tree() throws(Failure) -> JSONTree {
        guard let c = peek() else { throw fail("unexpected end of file, expected a value") }
        switch c {
        case 0x22: return .string(try string())
        case 0x7B:
            try enter(); defer { depth -= 1 }
            i += 1
            var members: [(key: String, value: JSONTree)] = []
            if peek() == 0x7D { i += 1; return .object(members) }
            repeat {
                let key = try string()
                try expect(0x3A, "\":\"")
                members.append((key, try tree()))
            } while try next(close: 0x7D)
            return .object(members)
        case 0x5B:
            try enter(); defer { depth -= 1 }
            i += 1
            var items: [JSONTree] = []
            if peek() == 0x5D { i += 1; return .array(items) }
            repeat { items.append(try tree()) } while try next(close: 0x5D)
            return .array(items)
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E:
            if i + 1 < b.count, b[i + 1] == 0x61 { try literal("nan"); return .double(.nan) }
            try literal("null"); return .null
        case 0x69: try literal("inf"); return .double(.infinity)
        case 0x2D where i + 1 < b.count && b[i + 1] == 0x69:
            i += 1; try literal("inf"); return .double(-.infinity)
        default:
            switch try number() {
            case .int(let n): return .int(n)
            case .double(let d): return .double(d)
            default: throw fail("expected a number")
            }
        }
    }

    /// After a member or an item: true at `,`, false at the closing bracket.
    private mutating func next(close: UInt8) throws(Failure) -> Bool {
        guard let c = peek() else { throw fail("unexpected end of file") }
        i += 1
        if c == close { return false }
        guard c == 0x2C else { throw fail("expected \",\"", at: i - 1) }
        return true
    }
}
