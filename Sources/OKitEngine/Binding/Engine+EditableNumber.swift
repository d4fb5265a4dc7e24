/// A number as a text field shows it for editing: every digit it has (`Value.displayDouble`, the shortest text that
/// reads back as the same number), with the app's decimal separator and no grouping — `1,125` in German, where
/// `1.125` would read back as 1125 (`numberFromCellText` reads the app's language). A field takes back exactly what
/// it shows.
extension Engine {
    public func editableText(_ d: Double) -> String {
        let text = Value.displayDouble(d)
        let separator = formatters.decimalSeparator(locale)
        guard separator != ".", d.isFinite, let dot = text.firstIndex(of: ".") else { return text }
        return text.replacingCharacters(in: dot...dot, with: separator)
    }
}
