import OKitEngine

/// What a person typed into a cell's field and the cell refused (a number it cannot read, a date, a value a rule
/// refuses): nothing a person types is dropped (web.md "Pages and forms"). The page shows it in that field instead of
/// the stored value, marked invalid (`aria-invalid`, the class `okit-cell-invalid`) with the refusal beside it.
///
/// It belongs to one session (`PageContext.typed`): a page that shows one is rendered for that session alone, never
/// shared with other viewers of the screen (SharedPages).
public struct RefusedText: Sendable, Equatable {
    /// The text as the form sent it (a date field's as typed, not read).
    public var text: String
    /// Why the cell refused it, as the page's error said.
    public var refusal: String

    public init(text: String, refusal: String) {
        self.text = text
        self.refusal = refusal
    }

    /// The kinds of cell a person types into (a text cell, multiline, a date's field, a stepper's number); a choice
    /// (switch, picker, segment, slider) is never typed, and a secure field's text is never shown again.
    public static func typed(into row: RowSnapshot) -> Bool {
        guard let c = row.control, c.enabled, !c.secure else { return false }
        return [nil, "text", "multiline", "date", "stepper"].contains(row.kind)
    }
}

extension PageRenderer {
    /// What this session typed into the cell at `address` and the cell refused, when its field shows it (the cell
    /// takes typed values now); nil otherwise.
    func typed(_ row: RowSnapshot, address: String) -> RefusedText? {
        guard let kept = context.typed[address], RefusedText.typed(into: row) else { return nil }
        return kept
    }
}
