/// The detail label of date and picker cells without a `detailPath`: OKit shows their value there (reference
/// §5.9): a date formatted by the picker's mode in the app's language, a picker's chosen option.
extension DetailScreen {
    /// What a date cell's `modePath` (default `#2`) selects, as UIDatePicker.Mode numbers it: 0 the time, 1 the
    /// date, 2 (and anything else) both; the names `time`, `date` and `dateAndTime` are read too.
    func dateStyle(_ c: CellDeclaration, on ctx: Entity?) throws -> DateExtensions.Style {
        let mode = c["modePath"].isEmpty ? Value.int(2) : try engine.get(ctx, c["modePath"], mode: .display)
        if case .string(let name) = mode, Int(name) == nil {
            switch name.lowercased() {
            case "time": return .time
            case "date": return .date
            default: return .dateTime
            }
        }
        switch mode.intValue {
        case 0: return .time
        case 1: return .date
        default: return .dateTime
        }
    }

    /// The value a date or picker cell shows as its detail: the date as `formatTime`, `formatDate` or
    /// `formatDateTime` show it (by `modePath`), in display and edit mode; the picker's chosen option (its shown
    /// title; a text picker's text when it is none of its options). Nil for other kinds.
    func valueLabel(of c: CellDeclaration, on ctx: Entity?, control: ControlSnapshot?) throws -> String? {
        switch c.kind {
        case "date":
            guard !c.valuePath.isEmpty, let d = DetailScreen.date(try engine.get(ctx, c.valuePath, mode: .display)) else { return nil }
            return DateExtensions.format(d, try dateStyle(c, on: ctx), relative: false, engine)
        case "picker":
            guard let control else { return nil }
            if let i = control.selected, let options = control.options, i >= 1, i <= options.count { return options[i - 1] }
            if c.isTextPicker, case .string(let text) = control.value, !text.isEmpty { return text }
            return nil
        default:
            return nil
        }
    }
}
