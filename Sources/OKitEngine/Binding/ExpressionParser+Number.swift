/// Number literals in expressions (bindings.md "Expressions"): `12`, `1.5`, `2e3`; an int unless it has a
/// fraction or an exponent, and out of range is an error at the literal's column.
extension ExpressionParser {
    /// An int or double literal: digits, an optional fraction, an optional exponent.
    mutating func number() throws(BindingError) -> Value {
        let a = i
        func digit(_ k: Int) -> Bool { k < end && ("0"..."9").contains(s[k]) }
        while digit(i) { i += 1 }
        var isDouble = false
        if i < end, s[i] == ".", digit(i + 1) {
            isDouble = true
            i += 1
            while digit(i) { i += 1 }
        }
        if i < end, s[i] == "e" || s[i] == "E" {
            var j = i + 1
            if j < end, s[j] == "+" || s[j] == "-" { j += 1 }
            if digit(j) {
                isDouble = true
                i = j
                while digit(i) { i += 1 }
            }
        }
        if i < end, BindingScanner.isNameChar(s[i]) { throw fail(i, "unexpected \"\(s[i])\" after a number") }
        let text = scanner.string(a..<i)
        if !isDouble, let n = Int(text) { return .int(n) }
        guard let d = Double(text), d.isFinite else { throw fail(a, "number out of range") }
        return .double(d)
    }
}
