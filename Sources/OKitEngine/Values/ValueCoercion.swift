import Foundation

// The coercion rules of bindings.md, "Values and coercion".

extension Value {
    /// Truthiness: nil → false; bool; number ≠ 0; string not in "", "false", "no", "0" (case-insensitive);
    /// entity, collection, date and data → true.
    public var truthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0 && !d.isNaN
        case .string(let s): return Value.stringIsTruthy(s)
        case .date, .data, .entity, .collection, .list: return true
        }
    }

    static func stringIsTruthy(_ s: String) -> Bool {
        if s.isEmpty { return false }
        if s.utf8.count > 5 { return true }
        switch s.lowercased() {
        case "false", "no", "0": return false
        default: return true
        }
    }

    /// The value as a number (int or double), parsing strings; nil when it is not numeric.
    public var numeric: Value? {
        switch self {
        case .int, .double: return self
        case .bool(let b): return .int(b ? 1 : 0)
        case .string(let s): return Value.parseNumber(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// The value as a Double, or nil.
    public var doubleValue: Double? {
        switch numeric {
        case .int(let i)?: return Double(i)
        case .double(let d)?: return d
        default: return nil
        }
    }

    /// The value as an Int: doubles and numeric strings are rounded toward zero; nil when not numeric or out of range.
    public var intValue: Int? {
        switch numeric {
        case .int(let i)?: return i
        case .double(let d)?:
            guard d.isFinite, d > -9.223372036854775808e18, d < 9.223372036854775807e18 else { return nil }
            return Int(d.rounded(.towardZero))
        default: return nil
        }
    }

    /// Parses a decimal number: an integer when it has no fraction or exponent and fits 64 bits, else a double.
    public static func parseNumber(_ s: String) -> Value? {
        if s.isEmpty { return nil }
        if let i = Int(s) { return .int(i) }
        // Swift's Double(String) accepts "nan", "inf", hex floats: a binding value should not.
        var sawDigit = false
        for u in s.utf8 {
            switch u {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return nil
            }
        }
        guard sawDigit, let d = Double(s) else { return nil }
        return .double(d)
    }

    /// The display string of bindings.md: nil and "" give nil (dropped from multi-part text).
    public var displayString: String? {
        switch self {
        case .null: return nil
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return Value.displayDouble(d)
        case .string(let s): return s.isEmpty ? nil : s
        case .date(let d): return ISODate.format(d, fractional: false)
        case .data(let bytes): return "\(bytes.count) bytes"
        case .entity(let e): return e.displayString
        case .collection(let c):
            let parts = c.items.compactMap { $0.displayString }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        case .list(let l):
            let parts = l.compactMap { $0.displayString }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
    }

    /// Shortest exact form of a double: `12.5`, `100`, `0.1`, never `1.2e1`.
    public static func displayDouble(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == d.rounded(), abs(d) < 1e15 {
            return String(Int(d))
        }
        let s = d.description   // shortest round-trip digits
        // One byte looked for (Foundation's `contains` on a string searched with `range(of:options:)`: some 1,500
        // instructions a number shown).
        guard s.utf8.contains(UInt8(ascii: "e")) else { return s }
        return expandExponent(s)
    }

    /// Rewrites Swift's `1.5e-07` as `0.00000015` (and `1.5e+20` as digits), keeping the same digits.
    static func expandExponent(_ s: String) -> String {
        let negative = s.hasPrefix("-")
        let body = negative ? String(s.dropFirst()) : s
        let pieces = body.split(separator: "e", maxSplits: 1)
        guard pieces.count == 2, let exp = Int(pieces[1].replacingOccurrences(of: "+", with: "")) else { return s }
        let mantissa = pieces[0]
        let dot = mantissa.firstIndex(of: ".")
        let intPart = dot.map { String(mantissa[..<$0]) } ?? String(mantissa)
        let fracPart = dot.map { String(mantissa[mantissa.index(after: $0)...]) } ?? ""
        var digits = intPart + fracPart
        var pointPos = intPart.count + exp
        if pointPos <= 0 {
            digits = String(repeating: "0", count: -pointPos + 1) + digits
            pointPos = 1
        }
        if pointPos >= digits.count {
            digits += String(repeating: "0", count: pointPos - digits.count)
            return (negative ? "-" : "") + digits
        }
        let idx = digits.index(digits.startIndex, offsetBy: pointPos)
        var frac = String(digits[idx...])
        while frac.hasSuffix("0") { frac.removeLast() }
        let whole = String(digits[..<idx])
        return (negative ? "-" : "") + whole + (frac.isEmpty ? "" : "." + frac)
    }
}
