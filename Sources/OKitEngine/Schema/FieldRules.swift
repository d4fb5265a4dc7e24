/// The validation rules of a stored field (lua-api.md "Validation"): `required`, `min`, `max`, `maxLength`,
/// `pattern` and a `validate` function, each with an optional message of its own.
///
/// Rules are checked on every write a command makes (a cell's value, an added entity's name); writes from code are
/// not checked. The engine knows no Lua: a pattern and a `validate` function reach it as closures.
public struct FieldRules {
    /// Not nil and, for strings, not empty; for a `ref`, a reference is set.
    public var required = false
    /// Bounds of an `int` or `double` field (inclusive).
    public var min: Double?
    public var max: Double?
    /// The most characters a `string` field holds.
    public var maxLength: Int?
    /// A pattern a `string` value must match (for Lua apps a Lua pattern; see `FieldPattern`).
    public var pattern: FieldPattern?
    /// A function of the value and the entity: nil when valid, else the message (or "" for the default one).
    public var validate: ((Value, Entity) throws -> String?)?
    /// Messages that replace the default ones, by rule; `.all` applies to every rule of the field.
    public var messages: [FieldRule: String] = [:]
    /// The field's name in default messages ("Name is required"); nil: the field name, capitalized.
    public var label: String?

    public init(required: Bool = false, min: Double? = nil, max: Double? = nil, maxLength: Int? = nil,
                pattern: FieldPattern? = nil, validate: ((Value, Entity) throws -> String?)? = nil,
                messages: [FieldRule: String] = [:], label: String? = nil) {
        self.required = required
        self.min = min
        self.max = max
        self.maxLength = maxLength
        self.pattern = pattern
        self.validate = validate
        self.messages = messages
        self.label = label
    }

    /// True when no rule is set.
    public var isEmpty: Bool {
        !required && min == nil && max == nil && maxLength == nil && pattern == nil && validate == nil
    }
}

/// One kind of rule, for messages and check findings.
public enum FieldRule: String, CaseIterable, Sendable {
    case required, min, max, maxLength, pattern, validate
    /// A message for every rule of the field (`message =` beside the rules).
    case all = "message"
}

/// A pattern rule: its text (for messages and checks) and the matcher the declaring side supplies.
public struct FieldPattern {
    public let source: String
    /// True when the string matches; throws when the pattern cannot be used (malformed).
    public let matches: (String) throws -> Bool

    public init(_ source: String, matches: @escaping (String) throws -> Bool) {
        self.source = source
        self.matches = matches
    }
}

extension FieldRules {
    /// The first broken rule's message for `value` (already coerced to the field's type) on `entity`, or nil
    /// when every rule holds. Rules are checked in the order required, min, max, maxLength, pattern, validate;
    /// a nil value breaks only `required` (and whatever `validate` says).
    public func message(for value: Value, of field: FieldSpec, on entity: Entity) throws -> String? {
        let label = self.label ?? FieldRules.label(field.name)
        func say(_ rule: FieldRule, _ fallback: String) -> String { messages[rule] ?? messages[.all] ?? fallback }
        if required, FieldRules.isMissing(value) { return say(.required, "\(label) is required") }
        if let number = FieldRules.number(value) {
            if let min, number < min { return say(.min, "\(label) must be at least \(FieldRules.text(min))") }
            if let max, number > max { return say(.max, "\(label) must be at most \(FieldRules.text(max))") }
        }
        if case .string(let s) = value {
            if let maxLength, s.count > maxLength {
                return say(.maxLength, "\(label) must be at most \(maxLength) character\(maxLength == 1 ? "" : "s")")
            }
            if let pattern, try !pattern.matches(s) { return say(.pattern, "\(label) is not in the expected format") }
        }
        if let validate, let reason = try validate(value, entity) {
            return reason.isEmpty ? say(.validate, "\(label) is not valid") : reason
        }
        return nil
    }

    /// Nil, an empty string, or a reference without a target id.
    static func isMissing(_ value: Value) -> Bool {
        switch value {
        case .null: return true
        case .string(let s): return s.isEmpty
        case .entity(let e) where e.type.isRef:
            if case .string(let key) = e.values[1] { return key.isEmpty }
            return true
        default: return false
        }
    }

    static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// A bound as a person reads it: `0`, `2.5`.
    static func text(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 9e15 ? String(Int(d)) : Value.displayDouble(d)
    }

    /// `name` → `Name`, `releaseDate` → `Release date`.
    public static func label(_ field: String) -> String {
        var out = ""
        for (i, c) in field.enumerated() {
            if i == 0 { out += c.uppercased(); continue }
            if c.isUppercase { out += " " + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}
