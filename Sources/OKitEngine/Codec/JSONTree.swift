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

    /// The whole document as a tree; nil when it is not valid JSON. `nonFiniteWords`: `nan`, `inf` and `-inf`
    /// are numbers (false: they are not JSON, as for any standard reader). A leading byte order mark is skipped.
    public static func parse(_ bytes: [UInt8], nonFiniteWords: Bool = true) -> JSONTree? {
        try? read(bytes, nonFiniteWords: nonFiniteWords)
    }

    /// The whole document as a tree, or why it is not valid JSON (the reader's message and byte offset).
    public static func read(_ bytes: [UInt8], nonFiniteWords: Bool = true) throws(JSONTree.Failure) -> JSONTree {
        let result: Result<JSONTree, JSONReader.Failure> = bytes.withUnsafeBufferPointer { buf in
            var reader = JSONReader(bytes: buf)
            reader.nonFiniteWords = nonFiniteWords
            if JSONReader.hasBOM(buf) { reader.i = JSONReader.bom.count }
            do throws(JSONReader.Failure) {
                let tree = try reader.tree()
                reader.skipSpace()
                guard reader.i == buf.count else { throw reader.fail("unexpected text after the value") }
                return .success(tree)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let tree): return tree
        case .failure(let f): throw Failure(offset: f.offset, message: f.message)
        }
    }

    /// Why a document is not valid JSON.
    public struct Failure: Error, CustomStringConvertible {
        /// The byte offset where reading stopped.
        public let offset: Int
        public let message: String
        public var description: String { "\(message) at byte \(offset)" }
    }

    /// An object's member (the last one with the key, as in a dictionary); nil for a missing key or a non-object.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The string, or nil for any other value.
    public var string: String? { if case .string(let s) = self { return s }; return nil }

    /// The bool, or nil for any other value.
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }

    /// The items of an array, or nil for any other value.
    public var array: [JSONTree]? { if case .array(let items) = self { return items }; return nil }
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
            if nonFiniteWords, i + 1 < b.count, b[i + 1] == 0x61 { try literal("nan"); return .double(.nan) }
            try literal("null"); return .null
        case 0x69 where nonFiniteWords: try literal("inf"); return .double(.infinity)
        case 0x2D where nonFiniteWords && i + 1 < b.count && b[i + 1] == 0x69:
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

extension JSONTree {
    /// The raw text of a top-level object member's value (the last with the key), for a number a tree would
    /// round (an integer beyond `Int.max`); nil when the document is not an object or has no such member.
    static func rawMember(_ key: String, of bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buf -> String? in
            var reader = JSONReader(bytes: buf)
            if JSONReader.hasBOM(buf) { reader.i = JSONReader.bom.count }
            guard reader.peek() == 0x7B else { return nil }
            reader.i += 1
            var found: String?
            while let c = reader.peek(), c != 0x7D {
                guard let name = try? reader.string(), (try? reader.expect(0x3A, "\":\"")) != nil,
                      let range = try? reader.skipValue() else { return nil }
                if name == key { found = String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self) }
                guard reader.peek() == 0x2C else { break }
                reader.i += 1
            }
            return found
        }
    }
}
