import Foundation

/// `currency(code)`, `number(digits)` and `percent(digits)` on numbers (bindings.md "Locale formats"), in the
/// app's locale, with their inverses: writing text through one of them reads the format back
/// (`Engine.set` through `amount/currency(#EUR)`).
enum LocaleNumberExtensions {
    static func register(in r: ExtensionRegistry) {
        for name in ["currency", "number", "percent"] {
            r.register("number", name) { v, a, e in
                e.graph.record(.locale)
                let style = try LocaleNumberExtensions.style(name, a)
                return e.formatters.format(v, style, locale: e.locale).map { .string($0) } ?? .null
            }
            r.registerParser("number", name) { text, a, e in
                let style = try LocaleNumberExtensions.style(name, a)
                return e.formatters.parse(text, style, locale: e.locale).map { .double($0) }
            }
        }
    }

    /// The style a call asks for: `currency(#EUR)`, `number`, `number(#2)`, `percent`, `percent(#1)`.
    static func style(_ name: String, _ args: [Value]) throws(FormatArgumentError) -> NumberStyle {
        switch name {
        case "currency":
            let code = (args.first?.displayString ?? "").uppercased()
            guard code.count == 3, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
                throw FormatArgumentError(function: name, message: "expects an ISO 4217 currency code such as #EUR"
                                          + (args.first.map { ", got \(Coercion.describe($0))" } ?? ""))
            }
            return .currency(code: code)
        case "percent": return .percent(digits: try digits(name, args))
        default: return .decimal(digits: try digits(name, args))
        }
    }

    /// The optional digits argument: an integer 0…15.
    static func digits(_ name: String, _ args: [Value]) throws(FormatArgumentError) -> Int? {
        guard let a = args.first, !a.isNull else { return nil }
        guard let n = a.intValue, n >= 0, n <= FormatterCache.maxDigits, a.doubleValue == Double(n) else {
            throw FormatArgumentError(function: name, message: "expects a number of fraction digits from 0 to \(FormatterCache.maxDigits), got \(Coercion.describe(a))")
        }
        return n
    }
}

/// A format extension called with an argument it cannot use (`currency(#euro)`).
public struct FormatArgumentError: Error, CustomStringConvertible {
    public let function: String
    public let message: String
    public var description: String { "\(function) \(message)" }
}
