/// Parses binding text into a `Binding` (binding.md, "Grammar"). STUB: being written.
public enum BindingParser {
    public static func parse(_ text: String) throws(BindingError) -> Binding {
        throw BindingError(binding: text, column: 1, message: "not implemented")
    }
}
