extension CellDeclaration {
    /// The properties OKit evaluates on the screen's context or the row, never after the cell's `contextPath`
    /// (heights, visibility; okit-behaviour §5.1 "Heights"), as okit does: checked on the cell's parent.
    static let parentProperties: Set<String> = ["heightDisplay", "heightEdit", "heightSelect", "showDisplay", "showEdit"]

    /// Checks a cell (of a detail, or a list's row cell) on its parent's context (the detail's context or the row
    /// entity), after the cell's `contextPath`; records the screens it opens.
    /// `mayEdit`: the screen can be in edit mode (its edit cells take values then).
    func check(_ run: ScreenCheckRun, screen: String, name: String, site: [DeclarationKey], parent: EntityType?, mayEdit: Bool) {
        run.checkedCell = ScreenCheckRun.CheckedCell(kind: kind, type: parent?.name)
        defer { run.checkedCell = nil }
        run.run(screen, "\(name).contextPath", self["contextPath"], parent, at: site + ["contextPath"])
        let context = run.context(parent, after: self["contextPath"])
        // A picker's option names are read on its options (the elements of `dataPath`).
        let options = kind == "picker" ? run.entityType(after: self["dataPath"], from: context) : nil
        for (p, t) in properties.sorted(by: { $0.key < $1.key }) where !CellDeclaration.literalProperties.contains(p) {
            if p == "optionValues", let plain = plainOptionValues {   // texts as written, shown localized
                run.checkPlainTexts(screen, "\(name).optionValues", t, plain, sites: [site + [.name(p)]])
                continue
            }
            let flag = FlagProperties.cell.contains(p)
            if CellDeclaration.parentProperties.contains(p) {
                run.run(screen, "\(name).\(p)", t, parent, at: site + [.name(p)], flag: flag)
            } else {
                run.run(screen, "\(name).\(p)", t, p == "namePath" && kind == "picker" ? options : context, at: site + [.name(p)], flag: flag)
            }
        }
        for (p, action) in actions.sorted(by: { $0.key < $1.key }) {
            guard case .binding(let t) = action else { continue }
            run.runEither(screen, "\(name).\(p)", t, [context, parent], at: site + [.name(p)])
        }
        checkValueType(run, screen: screen, name: name, site: site, on: context)
        if kind == "picker", !isTextPicker {
            run.checkCollection(screen, "\(name).dataPath", self["dataPath"], on: context, at: site + ["dataPath"], what: "a picker's options")
        }
        checkTextValues(run, screen: screen, name: name, site: site, on: context)
        if run.thorough, takesValues(onScreenThatMayEdit: mayEdit) { checkEdits(run, screen: screen, name: name, site: site, on: context) }
        for p in ["segue", "present"] where run.target(screen, "\(name).\(p)", properties[p], at: site + [.name(p)]) {
            run.open(properties[p], with: .plain(context, from: "\(screen)'s \(name)"))
        }
    }

    /// What each edit kind's value must reach, where okit cannot make sense of anything else (a switch on a
    /// date, a stepper on a date); lenient where values are coerced (text on a number, a date on an ISO string,
    /// a picker on an id string, a switch on a text of `yes`/`no` words).
    static let valueTypes: [String: (property: String, wants: String, accepts: @Sendable (CheckedValue) -> Bool)] = [
        "switch": ("onPath", "a bool (or a number, a text)", { v in
            switch v { case .bool, .number, .string: return true; default: return false }
        }),
        "date": ("datePath", "a date (or an ISO 8601 string)", { v in if case .date = v { return true }; if case .string = v { return true }; return false }),
        "slider": ("valuePath", "a number", { isNumberLike($0) }),
        "stepper": ("valuePath", "a number", { isNumberLike($0) }),
        "progress": ("valuePath", "a number", { isNumberLike($0) }),
        "segment": ("selectIndexPath", "an int (or a string)", { isNumberLike($0) }),
        "text": ("textPath", "a string (or a number, a date, a bool)", { isScalar($0) }),
        "multiline": ("textPath", "a string (or a number, a date, a bool)", { isScalar($0) }),
        "picker": ("selectionPath", "a ref (or an id string)", { v in if case .ref = v { return true }; if case .string = v { return true }; return false }),
    ]

    static func isNumberLike(_ v: CheckedValue) -> Bool {
        switch v {
        case .number, .string: return true
        default: return false
        }
    }

    static func isScalar(_ v: CheckedValue) -> Bool {
        switch v {
        case .string, .number, .date, .bool, .ref: return true
        default: return false
        }
    }

    /// A cell bound to a field of a type its control cannot show or set.
    func checkValueType(_ run: ScreenCheckRun, screen: String, name: String, site: [DeclarationKey], on context: EntityType?) {
        guard let rule = CellDeclaration.valueTypes[kind], !isTextPicker else { return }   // a text picker: checkTextValues
        let text = self[rule.property]
        guard let value = run.checker.value(of: text, on: context), !rule.accepts(value) else { return }
        let on = context.map { " on \($0.name)" } ?? ""
        run.issue(screen, "\(name).\(rule.property)", "a \(kind) cell needs \(rule.wants); \"\(text)\"\(on) is \(value.described)",
                  at: site + [.name(rule.property)])
    }
}

extension CellDeclaration {
    /// Whether a segment's `byTitle` may be true: set, and not a constant false (`#false`, `#0`, `#no`).
    var mayBeByTitle: Bool {
        let text = self["byTitle"].trimmingCharacters(in: .whitespaces).lowercased()
        return !text.isEmpty && !["#false", "#0", "#no", "#off"].contains(text)
    }

    /// The cells that store texts (Action Data's conversions, DetailScreen+TextValues.swift): a picker over
    /// `optionValues` takes its options from them, not from `dataPath` too, and writes a text into `selectionPath`;
    /// a segment with `byTitle` writes its title into `selectIndexPath`. Either bound to a field of another type
    /// (a ref, a date; a number for a segment, or for a picker with an option that is no number) is a problem.
    func checkTextValues(_ run: ScreenCheckRun, screen: String, name: String, site: [DeclarationKey], on context: EntityType?) {
        if kind == "picker", self["dataPath"].isEmpty, self["optionValues"].isEmpty {
            run.issue(screen, "\(name).dataPath", "a picker without options: give dataPath (the entities to choose from) "
                      + "or optionValues (texts, \"Book,Journal\")", at: site)
            return
        }
        let property: String, why: String
        if isTextPicker {
            if !self["dataPath"].isEmpty {
                run.issue(screen, "\(name).optionValues", "a picker takes its options from dataPath (entities) or optionValues (texts), not both",
                          at: site + ["optionValues"])
            }
            (property, why) = ("selectionPath", "a picker over optionValues stores the chosen text")
        } else if kind == "segment", mayBeByTitle {
            (property, why) = ("selectIndexPath", "a segment with byTitle stores the chosen title")
        } else {
            return
        }
        let text = self[property]
        guard let value = run.checker.value(of: text, on: context) else { return }
        if case .string = value { return }
        // A number field takes options that are numbers (the text is written as the number it reads).
        let numbers = plainOptionValues?.allSatisfy { Value.parseNumber($0) != nil } ?? true
        if isTextPicker, numbers, case .number = value { return }
        let on = context.map { " on \($0.name)" } ?? ""
        let wants = isTextPicker ? "a string (or a number, when every option is one)" : "a string"
        run.issue(screen, "\(name).\(property)", "\(why): it needs \(wants); \"\(text)\"\(on) is \(value.described)",
                  at: site + [.name(property)])
    }
}
