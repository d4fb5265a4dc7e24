import Foundation

/// The notice a web session gets when a field it changed was stored first by someone else (storage.md
/// "Conflicts", web.md): the sentence in the app's language, each value as a cell shows it — a number as a text
/// cell writes it (`12,5` in `de`), a date as a date cell shows it (`01.05.19, 10:00`), a switch's yes or no in the
/// language's words — in the language's quotation marks (`„Dune A“`), never as JSON (`"Dune A"`, `1500.0`). The
/// record itself (the warning, `okit/conflicts.jsonl`, `app:conflicts()`) keeps the JSON texts.
extension Engine {
    /// `Jemand anderes hat Titel dieses Eintrags (Buch) zuerst geändert: jetzt „Dune A“; Ihr Wert „Dune B“ …`: the
    /// field and type as the app's strings name them. A deletion against an edit says what happened to each side:
    /// the session that deleted the entry is told the edit its deletion removed (`deletedHere`: "Someone else had
    /// just changed name of this Book to …; your deletion removed that change too …"), the one whose edit lost that
    /// the entry was deleted (`deletedThere`: "Someone else deleted this Book first, so your change of name to … was
    /// not stored …") — not that a value „“ was lost, or now is.
    public func conflictNotice(_ c: ConflictRecord) -> String {
        let spec = schema.type(named: c.type)?.field(named: c.field)
        func quoted(_ json: String) -> String { word(.quoted, ShellError.brief(shownValue(json: json, spec), 48)) }
        let field = conflictFieldName(spec) ?? c.field, type = typeName(c.type)
        if c.deletedHere { return word(.changedBeforeDeletion, field, type, quoted(c.theirs)) }
        if c.deletedThere { return word(.deletedFirst, field, type, quoted(c.mine)) }
        return word(.changedFirst, field, type, quoted(c.theirs), quoted(c.mine))
    }

    /// The notice of a person's change of an entry that was deleted: posted from a page shown before the deletion
    /// (nothing was stored: `deletedMeanwhile`), or stored before someone else deleted the entry (`stored`: it went
    /// with it, `deletedAfterChange`). The cell as the page titled it, the type as the app's strings name it, the
    /// value as it was typed.
    public func deletedEntryNotice(type: String, cell: String, value: String, stored: Bool = false) -> String {
        word(stored ? .deletedAfterChange : .deletedMeanwhile, cell, typeName(type), word(.quoted, ShellError.brief(value, 48)))
    }

    /// An entity type as the app's strings name it, else as declared (`Book`).
    private func typeName(_ type: String) -> String { strings.own(type, language: locale.language) ?? type }

    /// The field as its rule messages name it (`fieldLabel`: the app's string, `Titel` for `name` in `de`); a label
    /// okit derived from the name and found no string for starts in lower case inside the sentence (`shelf code`).
    private func conflictFieldName(_ spec: FieldSpec?) -> String? {
        guard let spec else { return nil }
        let (name, derived) = fieldName(spec)
        return derived ? name.prefix(1).lowercased() + name.dropFirst() : name
    }

    /// A value written as JSON (the model files' form) as the field's cell shows it; nothing for null (the field
    /// cleared, the entity deleted). What is no single value (a list, a map) stays as written.
    func shownValue(json: String, _ spec: FieldSpec?) -> String {
        let isDate = spec?.type == .date
        switch JSONTree.parse(Array(json.utf8), nonFiniteWords: false) {
        case .null?: return ""
        case .bool(let b)?: return word(b ? .yes : .no)
        case .int(let i)? where isDate: return shownDate(Date(timeIntervalSinceReferenceDate: Double(i)))
        case .int(let i)?: return String(i)
        case .double(let d)? where isDate: return shownDate(Date(timeIntervalSinceReferenceDate: d))
        case .double(let d)?: return editableText(d)
        case .string(let s)? where isDate: return ISODate.parse(s).map(shownDate) ?? s
        case .string(let s)?: return s
        default: return json
        }
    }

    /// A date as a date cell shows it by default (`formatDateTime`: `5/1/19, 10:00 AM`, `01.05.19, 10:00` in `de`).
    private func shownDate(_ d: Date) -> String { DateExtensions.format(d, .dateTime, relative: false, self) }
}
