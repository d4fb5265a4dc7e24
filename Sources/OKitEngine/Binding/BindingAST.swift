/// A compiled binding: the parts of a binding string (bindings.md, "Grammar"), ready to evaluate.
///
/// Compiled once per text (see `BindingCache`) and evaluated many times. Property segments carry an
/// inline cache of the field slot for the entity type last seen, so evaluation is an array read.
public final class Binding {
    /// The binding text as written.
    public let text: String
    /// The parts, split on top-level commas. Empty for `""` ("not set").
    public let parts: [BindingPart]

    public init(text: String, parts: [BindingPart]) {
        self.text = text
        self.parts = parts
    }

    /// True for `""`: the property's default applies.
    public var isEmpty: Bool { parts.isEmpty }
}

/// One comma-separated part of a binding.
public enum BindingPart {
    /// `#text` (typed: `#true`, `#5`, `#2.5`, else a string) or a quoted string `'…'`.
    case constant(Value)
    /// `%key`: the localized string of `key` (the key itself when missing).
    case localized(String)
    /// A path (`books[0]/name`, `!marked`, `directory>/groups`).
    case path(PathExpression)
    /// `=…`: an expression.
    case expression(Expression, text: String)
}

/// A path: `[!] [model>] [/] segment {/ segment}`.
public final class PathExpression {
    /// A leading `!`: the part is the negation of the path's truthiness.
    public let negate: Bool
    /// `model>`: start at the root of that model.
    public let model: String?
    /// A leading `/` (or a model prefix): start at a model root instead of the context.
    public let absolute: Bool
    public let segments: [Segment]
    /// The path's text as written (for messages).
    public let text: String
    /// 1-based column of the path's first character in the binding text.
    public let column: Int

    /// For a path of plain field steps (`books[3]/authors[0]/name`): the steps, evaluated by a tight loop.
    let simpleSteps: ContiguousArray<SimpleStep>?
    /// The last step's name and cache when it is one plain name (`…/name/initial`): after the tight loop stops
    /// on a scalar just before it, the evaluator applies it directly (an extension of a scalar, typically).
    /// (Two fields rather than an optional tuple: binding the tuple copied it, retaining both.)
    let lastNameCache: SlotCache?
    let lastNameText: String

    public init(negate: Bool, model: String?, absolute: Bool, segments: [Segment], text: String, column: Int) {
        self.negate = negate
        self.model = model
        self.absolute = absolute
        self.segments = segments
        self.text = text
        self.column = column
        if case .property(let keys, nil, _)? = segments.last, keys.count == 1, case .name(let n, let c) = keys[0] {
            lastNameCache = c
            lastNameText = n
        } else {
            lastNameCache = nil
            lastNameText = ""
        }
        var steps = ContiguousArray<SimpleStep>()
        for seg in segments {
            guard case .property(let keys, let index, _) = seg, keys.count == 1, case .name(_, let cache) = keys[0] else {
                simpleSteps = nil
                return
            }
            steps.append(SimpleStep(cache: cache, index: index ?? 0, hasIndex: index != nil))
        }
        simpleSteps = steps.isEmpty ? nil : steps
    }
}

/// One step of a simple path: a field (through its slot cache) and an optional index.
struct SimpleStep {
    let cache: SlotCache
    let index: Int
    let hasIndex: Bool
}

/// One `/`-separated step of a path.
public enum Segment {
    /// `.`: stay.
    case current
    /// `..`: the parent entity.
    case parent
    /// `~` or `<`: the root of the current entity's model.
    case root
    /// `$key.path`: the value of the key path (an id string) resolved through the id index.
    case ref(keys: [Key], column: Int)
    /// `name(args)[index]`: a method or extension call; arguments are bindings evaluated against the
    /// binding's starting context.
    case call(name: String, args: [BindingPart], index: Int?, column: Int)
    /// `key.key.@aggregate[index]`: a key path, optionally indexed (0-based, negative from the end). Filters
    /// (`expenses[paid == false].@sum.amount`) are keys of the key path; only an integer index ends it.
    case property(keys: [Key], index: Int?, column: Int)
}

/// One key of a key path.
public enum Key {
    /// A field, computed field, zero-argument method or extension name, with its slot cache.
    case name(String, SlotCache)
    /// `@count`, `@sum`, …
    case aggregate(Aggregate)
    /// `[expr]`: the elements of a collection for which the predicate is true (bindings.md "Filters").
    case filter(Filter)
}

/// A filter step `[expr]` of a key path: an expression evaluated on each element of a collection, keeping the
/// elements for which it is truthy.
public final class Filter {
    /// The predicate, evaluated with the element as its context.
    public let predicate: Expression
    /// The predicate's text as written (between the brackets, trimmed).
    public let text: String
    /// 1-based column of the `[`.
    public let column: Int
    /// 1-based column of the `]`.
    public let closeColumn: Int
    /// 1-based column of the first character of `text`.
    public let textColumn: Int

    public init(predicate: Expression, text: String, column: Int, closeColumn: Int, textColumn: Int? = nil) {
        self.predicate = predicate
        self.text = text
        self.column = column
        self.closeColumn = closeColumn
        self.textColumn = textColumn ?? column + 1
    }
}

/// Collection aggregates.
public enum Aggregate: String, CaseIterable, Sendable {
    case count, sum, avg, min, max, distinct, first, last
}

/// An inline cache: the slot of a field name for the entity type last seen at this segment.
public final class SlotCache {
    @exclusivity(unchecked) var type: ObjectIdentifier?
    @exclusivity(unchecked) var slot: Int = -1
    /// The extension last resolved here for a scalar receiver, its receiver kind and the registry generation.
    @exclusivity(unchecked) var fn: ExtensionFunction?
    @exclusivity(unchecked) var fnKind: ValueKind?
    @exclusivity(unchecked) var fnGeneration = -1

    public init() {}
}

/// An expression (`=…`, bindings.md "Expressions").
public indirect enum Expression {
    case literal(Value)
    /// A quoted string that starts with `%`: localized.
    case localized(String)
    /// A path, bare (`price`) or in braces (`{/genres[0]/name}`).
    case path(PathExpression)
    case negate(Expression)
    case not(Expression)
    case binary(BinaryOperator, Expression, Expression)
    /// Lazy; the value of the deciding operand.
    case and(Expression, Expression)
    /// Lazy; the value of the deciding operand.
    case or(Expression, Expression)
    case ternary(Expression, Expression, Expression)
    /// `x between a and b` (inclusive).
    case between(Expression, Expression, Expression)
    /// `x in (a, b, …)`.
    case inList(Expression, [Expression])
    /// `fn(a, b)`: an extension with `a` as receiver, or one of `if`, `coalesce`, `min`, `max`, `abs`, `len`.
    case call(name: String, args: [Expression], column: Int)
}

public enum BinaryOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%"
    case concat = ".."
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
}

/// A binding that does not parse: the text, the 1-based column and what was expected.
public struct BindingError: Error, Equatable, CustomStringConvertible {
    public let binding: String
    public let column: Int
    public let message: String
    /// What to write instead, said after the column (`texts in expressions are in single quotes: ' € im Jahr'`).
    public var hint = ""

    public init(binding: String, column: Int, message: String, hint: String = "") {
        self.binding = binding
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// The message and, after a semicolon, the hint (the check's wording, which names the column apart).
    public var advisedMessage: String { hint.isEmpty ? message : message + "; " + hint }

    /// `binding "books[0/name": expected "]" at column 8`
    /// A long binding is shown around the column (messages stay one or two lines).
    public var description: String {
        let after = hint.isEmpty ? "" : "; " + hint
        guard binding.count > 120 || binding.contains(where: \.isNewline) else { return "binding \"\(binding)\": \(message) at column \(column)\(after)" }
        let chars = Array(binding)
        let from = max(0, min(column - 1, chars.count) - 40), to = min(chars.count, from + 100)
        var shown = String(chars[from..<to]).replacingOccurrences(of: "\n", with: "\\n")
        if from > 0 { shown = "…" + shown }
        if to < chars.count { shown += "…" }
        return "binding \"\(shown)\": \(message) at column \(column)\(after)"
    }
}
