import Foundation

/// A column's value as the relational kinds write, hash and read it: SQLite's storage classes (storage.md "SQLite
/// models"), onto which PostgreSQL's values are mapped (booleans as 0/1, every number an INTEGER or a REAL). The
/// adapters turn it into their database's values (`SQLiteStorage`: GRDB's `RelationalValue`; `PostgresLink`:
/// postgres-nio's binds and cells).
///
/// Two values are equal as SQLite compares them: an INTEGER and a REAL are equal when converting one to the other
/// loses nothing (1 and 1.0), and hash alike.
public enum RelationalValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case int64(Int64)
    case double(Double)
    case string(String)
    case blob(Data)

    /// The value as a text: a TEXT, or a BLOB's bytes as UTF-8 (as SQLite converts them); nil for anything else.
    public var text: String? {
        switch self {
        case .string(let s): return s
        case .blob(let d): return String(data: d, encoding: .utf8)
        default: return nil
        }
    }

    /// The value as an integer: an INTEGER, or a REAL in range rounded toward zero; nil for anything else.
    public var integer: Int64? {
        switch self {
        case .int64(let i): return i
        case .double(let x):
            guard x >= Double(Int64.min), x < Double(Int64.max) else { return nil }
            return Int64(x)
        default: return nil
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public static func == (a: RelationalValue, b: RelationalValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.int64(x), .int64(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.int64(x), .double(y)): return Int64(exactly: y) == x
        case let (.double(x), .int64(y)): return y == Int64(exactly: x)
        case let (.string(x), .string(y)): return x == y
        case let (.blob(x), .blob(y)): return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .int64(let i): hasher.combine(Double(i))   // 1 == 1.0: the same hash
        case .double(let x): hasher.combine(x)
        case .string(let s): hasher.combine(s)
        case .blob(let d): hasher.combine(d)
        }
    }

    public var description: String {
        switch self {
        case .null: return "NULL"
        case .int64(let i): return String(i)
        case .double(let x): return "\(x)"
        case .string(let s): return "\"" + s + "\""
        case .blob(let d): return "<\(d.count) bytes>"
        }
    }
}
