import Foundation

/// Typed comparison of values (bindings.md "Expressions": numbers numerically, strings case-sensitively by
/// Unicode scalars, dates by time; unlike types are never equal).
public enum ValueOrder {
    /// Equality by type: numbers numerically, strings exactly, dates by time, entities by identity.
    public static func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return a.doubleValue == b.doubleValue && (a.intValue == b.intValue || !isIntegral(a) || !isIntegral(b))
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.entity(let x), .entity(let y)): return x === y
        case (.collection(let x), .collection(let y)): return x === y
        case (.list(let x), .list(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        default: return false
        }
    }

    private static func isIntegral(_ v: Value) -> Bool { if case .int = v { return true }; return false }

    /// The typed comparison of `a < b`; nil when the types are unlike (such comparisons are false).
    public static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.int, .double), (.double, .int), (.double, .double):
            guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
            return x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x), .string(let y)): return compareScalars(x, y)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (!x ? -1 : 1)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        default: return nil
        }
    }

    public static func compareScalars(_ x: String, _ y: String) -> Int {
        var i = x.unicodeScalars.makeIterator()
        var j = y.unicodeScalars.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let p?, let q?): if p != q { return p.value < q.value ? -1 : 1 }
            }
        }
    }

    /// A total order for sorting and min/max: bool < number < date < string < other, nil last.
    public static func less(_ a: Value, _ b: Value) -> Bool {
        if let c = compare(a, b) { return c < 0 }
        return rank(a) < rank(b)
    }

    static func rank(_ v: Value) -> Int {
        switch v {
        case .bool: return 0
        case .int, .double: return 1
        case .date: return 2
        case .string: return 3
        case .null: return 9
        default: return 4
        }
    }
}
