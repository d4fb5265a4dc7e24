import Foundation

/// The locale number formats of bindings.md "Locale formats": `currency(code)`, `number(digits)`, `percent`.
public enum NumberStyle: Hashable, Sendable {
    /// An amount of money in an ISO 4217 currency (`EUR`): `900,00 €` in `de`, `€900.00` in `en`.
    case currency(code: String)
    /// Grouped, with exactly `digits` fraction digits, or the locale's default (up to 3) when nil.
    case decimal(digits: Int?)
    /// A ratio as a percentage (0.125 → `13 %` in `de`, `13%` in `en`), with `digits` fraction digits (default 0).
    case percent(digits: Int?)
}

struct StyledNumberKey: Hashable {
    let style: NumberStyle
    let locale: String
}

/// Currency, decimal and percent formats of the app's locale (`AppLocale.formatIdentifier`), and reading them
/// back. The output is ICU's, spacing included (a no-break space before `€` in `de`): deterministic for the ICU
/// data of the Foundation okit is built with (docs/bindings.md "Locale formats").
extension FormatterCache {
    /// The most fraction digits `number(n)` and `percent(n)` take.
    public static let maxDigits = 15

    /// `n` in the style and locale.
    public func format(_ n: Value, _ style: NumberStyle, locale: AppLocale) -> String? {
        let f = formatter(style, locale)
        switch n.numeric {
        case .int(let i)?: return f.string(from: NSNumber(value: i))
        case .double(let d)?:
            guard d.isFinite else { return Value.displayDouble(d) }
            guard let text = f.string(from: NSNumber(value: FormatterCache.rounded(d, style))) else { return nil }
            // A negative amount that shows as zero shows no sign (-0.001 is €0.00, not -€0.00).
            if d < 0, text.allSatisfy({ $0.wholeNumberValue == nil || $0.wholeNumberValue == 0 }) {
                return f.string(from: NSNumber(value: 0))
            }
            return text
        default: return nil
        }
    }

    /// `d` rounded half away from zero to the digits the style shows, in decimal (so 0.125 is 0.13 and 2.675 is
    /// 2.68, as written, not as stored in binary). Foundation on Linux loses `maximumFractionDigits` once
    /// `minimumFractionDigits` is set, so decimal and percent formats get their digits from here.
    static func rounded(_ d: Double, _ style: NumberStyle) -> Double {
        let digits: Int, scale: Int
        switch style {
        case .currency: return d
        case .decimal(let n): (digits, scale) = (n ?? 3, 0)
        case .percent(let n): (digits, scale) = (n ?? 0, 2)
        }
        guard var x = Decimal(string: "\(d)") else { return d }
        x *= pow(Decimal(10), scale)
        var r = Decimal()
        NSDecimalRound(&r, &x, digits, .plain)
        r /= pow(Decimal(10), scale)
        return NSDecimalNumber(decimal: r).doubleValue
    }

    /// The number a text in the style and locale stands for: the format itself (`1.234,50 €` in `de`), or the
    /// same without the currency or percent sign, or without grouping, with any spaces (`1234,5`); nil when it is
    /// not one. The whole text must be read (ICU's own parser stops early: `12,5x`), and a grouping separator
    /// must be followed by a group of digits (so `12.5` is not a German number, and `1.234` is 1234).
    ///
    /// In any script's digits and full width (`٤٦`, `۳۵`, `１２００`), the bidi marks ICU writes around a number in
    /// a right-to-left language left out (`LocaleDigits`): a cell takes back what it shows (`‏٤٦ JP¥` in `ar_EG`).
    public func parse(_ text: String, _ style: NumberStyle, locale: AppLocale) -> Double? {
        let f = formatter(style, locale)
        let ascii = LocaleDigits.isASCII(text)
        let folded = ascii ? text : LocaleDigits.folded(text)
        // The signs as the text is read: only a text that is not ASCII needs them folded (`￥`, `٪` with its ALM).
        func signs(_ all: [String]) -> [String] { ascii ? all : all.map(LocaleDigits.folded) }
        let bare: String
        switch style {
        case .currency(let code):
            bare = FormatterCache.withoutSign(folded, signs([f.currencySymbol ?? "", f.internationalCurrencySymbol ?? "", code]
                                                            + FormatterCache.spokenSigns(code)))
        case .percent:
            bare = FormatterCache.withoutSign(folded, signs([f.percentSymbol ?? "%", "%"]))
        case .decimal:
            bare = folded
        }
        let separators = formatter(.decimal(digits: nil), locale)
        guard let n = LocaleDecimalText.parse(bare, decimal: separators.decimalSeparator ?? ".",
                                              grouping: separators.groupingSeparator ?? ",") else { return nil }
        if case .percent = style { return n / 100 }
        return n
    }

    /// The signs a language writes for a currency beside ICU's symbol, read back too: `円` (`1200円`) for the yen.
    static func spokenSigns(_ code: String) -> [String] {
        code == "JPY" ? ["\u{5186}"] : []
    }

    /// `text` without one of `signs` at its start (after a leading minus or plus) or at its end, spaces around
    /// it ignored: `-€12.50`, `12,50 €`, `€ -12,50`, `13 %`. A sign anywhere else stays, so the number is refused
    /// (`1€2`).
    static func withoutSign(_ text: String, _ signs: [String]) -> String {
        var body = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var lead = ""
        if let c = body.first, c == "-" || c == "\u{2212}" || c == "+" {
            lead = String(c)
            body = body.dropFirst().drop(while: \.isWhitespace)
        }
        for sign in signs where !sign.isEmpty {
            if body.hasPrefix(sign) { return lead + body.dropFirst(sign.count) }
            if body.hasSuffix(sign) { return lead + body.dropLast(sign.count) }
        }
        return lead + body
    }

    func formatter(_ style: NumberStyle, _ locale: AppLocale) -> NumberFormatter {
        let key = StyledNumberKey(style: style, locale: locale.formatIdentifier)
        if let cached = styled[key] { return cached }
        let f = NumberFormatter()
        f.locale = Locale(identifier: locale.formatIdentifier)
        f.roundingMode = .halfUp
        switch style {
        case .currency(let code):
            f.numberStyle = .currency
            f.currencyCode = code
        case .decimal(let digits):
            f.numberStyle = .decimal
            if let digits {
                f.minimumFractionDigits = digits
                f.maximumFractionDigits = digits
            }
        case .percent(let digits):
            f.numberStyle = .percent
            f.minimumFractionDigits = digits ?? 0
            f.maximumFractionDigits = digits ?? 0
        }
        styled[key] = f
        return f
    }
}
