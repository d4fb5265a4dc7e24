extension DetailError: WordedRefusal {
    /// A person's refusal (a read-only cell, a cell that takes no value, a value naming several options) in the
    /// app's language; a mistake in the declarations stays English (`description`).
    public func text(_ words: BuiltInWords) -> String {
        switch self {
        case .readOnly(let c): return words(.cellReadOnly, c)
        case .takesNoValue(let c, let kind): return words(.cellOfKindTakesNoValue, c, kind)
        case .ambiguousOption(let c, let value, let positions):
            return words(.optionAmbiguous, c, ShellError.brief(value, 48),
                         ShellError.briefList(positions.map(String.init), words))
        case .unknownKind, .badBinding, .noValueBinding, .noAccessory: return description
        }
    }
}
