/// A number as a text field shows it for editing: every digit it has (`Value.displayDouble`, the shortest text that
/// reads back as the same number), with the app's decimal separator and no grouping — `1,125` in German, where
/// `1.125` would read back as 1125 (`textCellValue` reads the app's language). A field takes back exactly what
/// it shows.
extension Engine {
    public func editableText(_ d: Double) -> String {
        Engine.editableText(d, decimalSeparator: formatters.decimalSeparator(locale))
    }

    /// The same with the separator given (a front end that keeps the app's separator, not the engine).
    public static func editableText(_ d: Double, decimalSeparator separator: String) -> String {
        let text = Value.displayDouble(d)
        guard separator != ".", d.isFinite, let dot = text.firstIndex(of: ".") else { return text }
        return text.replacingCharacters(in: dot...dot, with: separator)
    }
}
