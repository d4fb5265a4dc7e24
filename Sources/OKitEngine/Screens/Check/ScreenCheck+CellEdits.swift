import Foundation

/// The edit cells a person can set (an edit kind, not `readOnly`, on a screen that can be in edit mode) whose value
/// cannot be set as the control sets it (`okit-run check` only: the app runs, and the cell fails or writes bad
/// data when set): a picker over entities on a ref to another type, and a value binding the engine refuses to
/// write (ScreenCheck+CellWrites.swift).
extension CellDeclaration {
    /// Whether a screen with these flags can be in edit mode: `edit` (the Edit button, on by default), `editAlways`
    /// or `editInherit` not a constant that is off.
    static func screenMayEdit(edit: String, editAlways: String, editInherit: String) -> Bool {
        func mayBeOn(_ text: String, _ fallback: Bool) -> Bool { text.isEmpty ? fallback : constantFlag(text) ?? true }
        return mayBeOn(edit, true) || mayBeOn(editAlways, false) || mayBeOn(editInherit, false)
    }

    /// A flag's value when it is a constant (`#false`: false, `#Yes`: true); nil for a binding.
    static func constantFlag(_ text: String) -> Bool? {
        guard let b = try? BindingParser.parse(text.trimmingCharacters(in: .whitespaces)), b.parts.count == 1,
              case .constant(let v) = b.parts[0] else { return nil }
        return v.truthy
    }

    /// Whether a person can set this cell on a screen that may be in edit mode: an edit kind with a value binding,
    /// not hidden in edit mode (`showEdit`, `heightEdit`) nor `readOnly` by a constant.
    func takesValues(onScreenThatMayEdit mayEdit: Bool) -> Bool {
        guard mayEdit, CellDeclaration.editKinds.contains(kind), !valuePath.isEmpty else { return false }
        if ["showEdit", "heightEdit"].contains(where: { CellDeclaration.constantFlag(self[$0]) == false }) { return false }
        return self["readOnly"].isEmpty || CellDeclaration.constantFlag(self["readOnly"]) != true
    }

    /// The checks of an edit cell a person can set: its field's type (what the lenient rule let through) and whether
    /// its value binding can be written at all.
    func checkEdits(_ run: ScreenCheckRun, screen: String, name: String, site: [DeclarationKey], on context: EntityType?) {
        if kind == "picker", self["dataPath"].isEmpty, !isTextPicker { return }   // nothing to choose: named already
        let property = CellDeclaration.valueProperty(kind)
        let text = valuePath
        let value = run.checker.value(of: text, on: context)
        // A value the control cannot show at all is named already (`checkValueType`, `checkTextValues`).
        if let value, isTextPicker ? !value.isTextOrNumber : CellDeclaration.valueTypes[kind].map({ $0.accepts(value) }) == false { return }
        if let refusal = run.checker.writeRefusal(of: text, on: context, picker: kind == "picker" && !isTextPicker) {
            var message = "a \(kind) cell writes the value set into \(property), and the write fails: \(refusal.reason); "
            message += refusal.instead.map { "write \(property) = \"\($0)\" (the field itself), or make the cell readOnly = \"#true\"" }
                ?? "bind \(property) to a stored field (or a computed one with a setter), or make the cell readOnly = \"#true\""
            run.issues.append(ScreenIssue(screen: screen, property: "\(name).\(property)", column: refusal.column, message: message,
                                          sites: [site + [.name(property)]]))
            return
        }
        // The pairings screens.md accepts (a date on an ISO text, a switch on a number, a stepper on a text: Action
        // Data keeps numbers as text, a picker on an id text) are not named; a ref to another type than the one chosen is.
        guard let value, kind == "picker", !isTextPicker else { return }
        checkChosenRef(run, screen: screen, name: name, site: site, value: value, on: context)
    }

    /// A picker over entities sets a ref to the chosen one (its `refKey`): on a ref to another type, an id of the
    /// wrong type (on an id text it is stored as text, which screens.md accepts).
    func checkChosenRef(_ run: ScreenCheckRun, screen: String, name: String, site: [DeclarationKey], value: CheckedValue,
                        on context: EntityType?) {
        let options = run.entityType(after: self["dataPath"], from: context)
        let target = options.flatMap { $0.isRef ? $0.refTarget : $0.name }
        let wrong: String
        switch value {
        case .ref(let r) where r.isRef && r.refTarget != nil && target != nil && r.refTarget != target:
            wrong = "a ref to \(r.refTarget ?? ""), and a \(target ?? "")'s id in it points at nothing"
        default:
            return
        }
        let wants = "a " + (target.map { "ref \($0)" } ?? "ref") + " field"
        let instead = run.fieldsInstead(self["selectionPath"], on: context) { t in
            guard case .ref(let to) = t else { return false }
            return target == nil || to == nil || to == target
        }
        let on = context.map { " on \($0.name)" } ?? ""
        run.issue(screen, "\(name).selectionPath", "a picker over \"\(self["dataPath"])\" sets a ref to the chosen "
                  + "\(target ?? "entity") and needs \(wants): \"\(self["selectionPath"])\"\(on) is \(wrong); "
                  + CellDeclaration.remedy("selectionPath", instead, wants, on: context), at: site + ["selectionPath"])
    }

    /// What to write instead: the fields that fit, else a field to declare; or the cell made read-only.
    static func remedy(_ property: String, _ fields: [String], _ field: String, on context: EntityType?) -> String {
        let readOnly = "or make the cell readOnly = \"#true\""
        guard let first = fields.first else {
            return "declare \(field)\(context.map { " on \($0.name)" } ?? "") and bind \(property) to it, \(readOnly)"
        }
        let more = fields.dropFirst().prefix(2).map { "\"\($0)\"" }
        return "write \(property) = \"\(first)\"" + (more.isEmpty ? "" : " (or \(more.joined(separator: ", ")))") + ", \(readOnly)"
    }

    /// The property that holds each edit kind's value (the checks and `DetailScreen.set`'s refusals name it).
    static func valueProperty(_ kind: String) -> String {
        switch kind {
        case "text", "multiline": return "textPath"
        case "switch": return "onPath"
        case "date": return "datePath"
        case "segment": return "selectIndexPath"
        case "picker": return "selectionPath"
        default: return "valuePath"
        }
    }
}

extension ScreenCheckRun {
    /// The bindings to the stored fields that fit (`fits`) on the entity a one-path binding's last step is read on,
    /// written as the binding reaches that entity (`owner/name` → `owner/due`); empty when not known.
    func fieldsInstead(_ text: String, on context: EntityType?, fitting fits: (FieldType) -> Bool) -> [String] {
        guard let b = try? engine.compile(text), b.parts.count == 1, case .path(let p) = b.parts[0], !p.negate,
              let last = p.segments.last, case .property(let keys, nil, _) = last, keys.count == 1,
              case .name(let current, _) = keys[0],
              case .entity(let owner) = checker.shape(p, Array(p.segments.dropLast()), context) else { return [] }
        let chars = Array(text), column: Int
        if case .property(_, _, let c) = last { column = c } else { return [] }
        guard p.column >= 1, column - 1 >= p.column - 1, column - 1 <= chars.count else { return [] }
        let head = String(chars[(p.column - 1)..<(column - 1)])
        return owner.fields.filter { $0.name != current && fits($0.type) }.map { head + $0.name }
    }
}

extension CheckedValue {
    /// A string or a number (what a text picker's field may be).
    var isTextOrNumber: Bool {
        switch self {
        case .string, .number: return true
        default: return false
        }
    }
}
