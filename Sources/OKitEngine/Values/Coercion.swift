import Foundation

/// A value that cannot be written to a field of the given type.
public struct CoercionError: Error, CustomStringConvertible, Equatable {
    public let field: String
    public let value: String
    public let expected: String

    public var description: String {
        "cannot write \(value) to field \"\(field)\" of type \(expected)"
    }
}

/// Coercion of values written to typed scalar fields (bindings.md, "Values and coercion").
public enum Coercion {
    /// Coerces `value` to a scalar field type. Entity-valued types are the engine's business and pass unchanged.
    public static func coerce(_ value: Value, to type: FieldType, field: String) throws(CoercionError) -> Value {
        func fail() -> CoercionError {
            CoercionError(field: field, value: describe(value), expected: type.declaration)
        }
        // A stored number is JSON's: it has no infinity or NaN (the file would hold null and read back the default).
        func finite(_ d: Double) throws(CoercionError) -> Double {
            guard d.isFinite else {
                throw CoercionError(field: field, value: describe(value), expected: type.declaration + " (a finite number: a model cannot hold infinity or NaN)")
            }
            return d
        }
        switch type {
        case .string:
            switch value {
            case .string: return value
            case .null: throw fail()
            case .entity, .collection, .list, .data: throw fail()
            default: return .string(value.displayString ?? "")
            }
        case .int:
            switch value {
            case .int: return value
            case .bool(let b): return .int(b ? 1 : 0)
            case .double, .string:
                guard let i = value.intValue else { throw fail() }
                return .int(i)
            default: throw fail()
            }
        case .double:
            switch value {
            case .double(let d): return .double(try finite(d))
            case .int(let i): return .double(Double(i))
            case .bool(let b): return .double(b ? 1 : 0)
            case .string:
                guard let d = value.doubleValue else { throw fail() }
                return .double(try finite(d))
            default: throw fail()
            }
        case .bool:
            switch value {
            case .bool: return value
            case .int, .double: return .bool(value.truthy)
            case .string(let s):
                switch s.lowercased() {
                // The words a switch takes too (`on`/`off`), and their one-letter forms; any other word is refused
                // rather than read as true (spec truthiness would make "off" true).
                case "true", "yes", "1", "on", "y", "t": return .bool(true)
                case "false", "no", "0", "", "off", "n", "f": return .bool(false)
                default: throw fail()
                }
            default: throw fail()
            }
        case .date:
            switch value {
            case .date: return value
            case .int(let i): return .date(Date(timeIntervalSince1970: Double(i)))
            case .double(let d): return .date(Date(timeIntervalSince1970: try finite(d)))
            case .string(let s):
                guard let d = ISODate.parse(s) else { throw fail() }
                return .date(d)
            default: throw fail()
            }
        default:
            return value
        }
    }

    /// A short rendering of a value for error messages.
    public static func describe(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .string(let s): return "\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .entity(let e): return e.debugName
        case .collection: return "a collection"
        case .list: return "a list"
        case .data(let d): return "\(d.count) bytes"
        default: return v.displayString ?? ""
        }
    }
}
