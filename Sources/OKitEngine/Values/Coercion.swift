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
            case .data:
                throw CoercionError(field: field, value: describe(value), expected: type.declaration
                    + " (the bytes are not UTF-8 text: write text, or keep bytes in a data or image field)")
            case .entity, .collection, .list: throw fail()
            default: return .string(value.displayString ?? "")
            }
        case .int:
            switch value {
            case .int: return value
            case .bool(let b): return .int(b ? 1 : 0)
            case .double, .string:
                if let i = value.intValue { return .int(i) }
                // A number an int cannot hold says why: not finite, or past 64 bits.
                guard let d = value.doubleValue else { throw fail() }
                _ = try finite(d)
                throw CoercionError(field: field, value: describe(value),
                                    expected: type.declaration + " (out of range: a whole number from \(Int.min) to \(Int.max))")
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
            // A date outside the years okit holds came back as another instant after a store (ISODate.isInRange).
            func held(_ d: Date) throws(CoercionError) -> Value {
                guard ISODate.isInRange(d) else {
                    throw CoercionError(field: field, value: describe(value), expected: "date (a date \(ISODate.rangeText))")
                }
                return .date(d)
            }
            switch value {
            case .date(let d): return try held(d)
            case .int(let i): return try held(Date(timeIntervalSince1970: Double(i)))
            case .double(let d): return try held(Date(timeIntervalSince1970: try finite(d)))
            case .string(let s):
                guard let d = ISODate.parse(s) else { throw fail() }
                return try held(d)
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
        case .double(let d) where d.isFinite && abs(d) >= 1e15: return "\(d)"   // 1e+300, not 301 digits
        default: return v.displayString ?? ""
        }
    }
}
