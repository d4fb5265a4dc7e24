import Foundation
import OKitEngine

/// Detail and settings screens: sections of cells, each edit cell a `set` form with the matching control.
extension PageRenderer {
    func detailBody() -> [HTMLNode] {
        screen.sections.enumerated().map { s, section in
            sectionNode(section, index: s, ordered: false) { r, row in detailCell(row, section: s, index: r) }
        }
    }

    /// A cell: its control when it has one, else its text and detail (a link when it opens a screen); then its
    /// accessory and the message of the rule its value breaks.
    func detailCell(_ row: RowSnapshot, section s: Int, index r: Int) -> HTMLNode {
        let address = address(row, section: s, index: r)
        var nodes: [HTMLNode] = []
        if let control = row.control {
            nodes.append(controlNode(row, control, address: address, section: s, index: r))
        } else if let url = context.rowLink(s, r, row) {
            nodes.append(.el("a", [.attr("href", url), .classes("okit-row-main", "okit-disclosure")],
                             rowLabel(row, section: s, index: r)))
        } else if context.rowTaps(s, r, row) {
            nodes.append(postForm("tap", [("row", address)], class: "okit-row-form", [
                .el("button", [.attr("type", "submit"), .classes("okit-row-main", "okit-disclosure")], rowLabel(row, section: s, index: r)),
            ]))
        } else {
            nodes.append(.el("div", [.classes("okit-row-main")], rowLabel(row, section: s, index: r)))
        }
        if let a = row.accessory { nodes.append(.el("div", [.classes("okit-row-actions")], [accessory(a, address: address)])) }
        // Why the cell refused what this person typed (their text is in the field), else the rule the stored value
        // breaks: at the cell, announced with it (the control points here).
        let typed = typed(row, address: address)
        if let message = typed?.refusal ?? row.invalid {
            nodes.append(.el("p", [.attr("id", domID("invalid", section: s, index: r)), .classes("okit-invalid")], text: message))
        }
        return .el("li", [.attr("id", domID("cell", section: s, index: r)),
                          .classes("okit-row", "okit-cell", "okit-cell-\(HTMLWriter.safeName(row.kind ?? "table"))",
                                   row.selected ? "okit-checked" : nil,
                                   row.invalid != nil || typed != nil ? "okit-cell-invalid" : nil)], nodes)
    }

    /// The label of a cell's control: the cell's title (its `path`, localized by the engine) — what a person
    /// reads beside the field in OKit; a text cell without one falls back to its placeholder, then its id.
    func controlLabel(_ row: RowSnapshot, _ control: ControlSnapshot) -> String {
        if let title = row.text, !title.isEmpty { return title }
        switch row.kind {
        case "text", "multiline": return control.placeholder ?? row.id ?? "Text"
        default: return row.id ?? "Value"
        }
    }

    /// The control of a cell by its kind; a `set` form when it takes values now, else the control disabled.
    func controlNode(_ row: RowSnapshot, _ c: ControlSnapshot, address: String, section s: Int, index r: Int) -> HTMLNode {
        let id = domID("control", section: s, index: r)
        let label = controlLabel(row, c)
        let off = !c.enabled
        // A value that breaks a rule, or text the cell refused (shown instead of the value): the field says so and
        // points at the message (detailCell writes it).
        let typed = typed(row, address: address)
        let invalid: String? = row.invalid != nil || typed != nil ? "true" : nil
        let describedBy: String? = invalid != nil ? domID("invalid", section: s, index: r) : nil
        var after: [HTMLNode] = []
        var field: [HTMLNode]
        switch row.kind {
        case "multiline":
            field = [.el("textarea", [.attr("id", id), .attr("name", "value"), .attr("placeholder", c.placeholder),
                                      .attr("aria-invalid", invalid), .attr("aria-describedby", describedBy),
                                      .bool("disabled", off)], text: typed?.text ?? editableText(c.value))]
        case "switch":
            // An unchecked box sends nothing: the hidden `false` comes first and the box's `true` wins when checked.
            field = [hidden("value", "false"),
                     .el("input", [.attr("type", "checkbox"), .attr("id", id), .attr("name", "value"), .attr("value", "true"),
                                   .attr("role", "switch"), .classes("okit-switch"),
                                   .bool("checked", c.value == .bool(true)), .bool("disabled", off)])]
        case "date":
            return dateCell(row, c, address: address, id: id, label: label, section: s, index: r)
        case "segment":
            return segmentGroup(row, c, address: address, id: id, label: label)
        case "picker":
            let options = (c.options ?? []).enumerated().map { i, name -> HTMLNode in
                .el("option", [.attr("value", String(i + 1)), .bool("selected", c.selected == i + 1)], text: name)
            }
            let none: [HTMLNode] = c.selected == nil ? [.el("option", [.attr("value", ""), .bool("selected")], text: "")] : []
            field = [.el("select", [.attr("id", id), .attr("name", "value"), .bool("disabled", off)], none + options)]
        case "slider":
            field = [.el("input", [.attr("type", "range"), .attr("id", id), .attr("name", "value"),
                                   .attr("min", c.min.flatMap(Self.number) ?? "0"), .attr("max", c.max.flatMap(Self.number) ?? "1"),
                                   // An int field's slider moves by whole numbers (a fraction is refused).
                                   .attr("step", { if case .int = c.value { return "1" } else { return "any" } }()),
                                   .attr("value", Self.number(c.value)), .bool("disabled", off)])]
        case "stepper":
            // A text field, so the server reads what was typed: a browser's number field drops what its own locale
            // cannot read (`2,5` in an int field became 25 in es-ES) and the cell's refusal never came.
            field = [.el("input", [.attr("type", "text"), .attr("inputmode", Self.stepperInputMode(c)), .attr("id", id),
                                   .attr("name", "value"), .attr("value", typed?.text ?? editableText(c.value)),
                                   .attr("aria-invalid", invalid), .attr("aria-describedby", describedBy), .bool("disabled", off)])]
            if c.enabled { after = stepperButtons(c, address: address) }
        case "progress":
            return .el("div", [.classes("okit-control")], [
                .el("label", [.attr("for", id)], text: label),
                .el("progress", [.attr("id", id), .attr("max", "1"), .attr("value", Self.number(c.value))],
                    text: Self.number(c.value).map { "\($0)" } ?? ""),
            ])
        case "image":
            let src = context.imageURL(s, r, row)
            return .el("figure", [.classes("okit-control", "okit-image")], [
                src.map { .el("img", [.attr("src", $0), .attr("alt", row.text ?? ""), .attr("id", id)]) } ?? .empty,
                row.text.map { .el("figcaption", text: $0) } ?? .empty,
            ])
        case "web":
            guard let src = context.webCellURL(s, r, row) else { return webLink(row, label: label) }
            return .el("div", [.classes("okit-control", "okit-web")], [
                .el("iframe", [.attr("src", src), .attr("sandbox", ""), .attr("title", row.text ?? label), .attr("id", id),
                               .attr("referrerpolicy", "same-origin")]),
            ])
        default:
            field = [.el("input", [.attr("type", c.secure ? "password" : "text"), .attr("id", id), .attr("name", "value"),
                                   .attr("value", c.secure ? nil : typed?.text ?? editableText(c.value)), .attr("placeholder", c.placeholder),
                                   .attr("aria-invalid", invalid), .attr("aria-describedby", describedBy),
                                   .bool("disabled", off)])]
        }
        // The cell's detail text (its `detailPath`: a switch's "lent", a stepper's "3 copies"), as the terminal and
        // JSON lines show it, between the label and the control.
        let detail: [HTMLNode] = row.detail.flatMap { $0.isEmpty ? nil : [.el("span", [.classes("okit-detail")], text: $0)] } ?? []
        let labelled: [HTMLNode] = [.el("label", [.attr("for", id)], text: label)] + detail + field
        guard c.enabled else { return .el("div", [.classes("okit-control")], labelled) }
        // With the script, a text field saves on Enter and when it loses focus (no Save button); the others as
        // soon as they change. Without it, every form has its Save button.
        let cls = ["text", "multiline", nil].contains(row.kind) ? "okit-control okit-auto okit-text-save"
            : ["switch", "picker", "slider"].contains(row.kind ?? "") ? "okit-control okit-auto" : "okit-control"
        return .fragment([postForm("set", [("cell", address)], class: cls, labelled + [submitButton()])] + after)
    }

    /// A segment cell: a radio group of the segment titles (`value`: the title).
    func segmentGroup(_ row: RowSnapshot, _ c: ControlSnapshot, address: String, id: String, label: String) -> HTMLNode {
        let radios = (c.segments ?? []).enumerated().map { i, title -> HTMLNode in
            let rid = "\(id)-\(i + 1)"
            return .el("span", [.classes("okit-segment")], [
                .el("input", [.attr("type", "radio"), .attr("id", rid), .attr("name", "value"), .attr("value", title),
                              .bool("checked", c.index == i), .bool("disabled", !c.enabled)]),
                .el("label", [.attr("for", rid)], text: title),
            ])
        }
        let group = HTMLNode.el("fieldset", [.classes("okit-segments"), .attr("id", id)],
                                [.el("legend", text: label)] + radios)
        guard c.enabled else { return .el("div", [.classes("okit-control")], [group]) }
        return postForm("set", [("cell", address)], class: "okit-control okit-auto", [group, submitButton()])
    }

    /// The keyboard a phone shows for a stepper's field: digits for an int field, digits and the decimal separator
    /// else; the whole keyboard when the range goes below 0 (a phone's number pads have no minus). The field holds
    /// no grid or range of the browser's: the cell takes any number of its range (the step is what − and + add)
    /// and refuses the rest in the app's language.
    static func stepperInputMode(_ c: ControlSnapshot) -> String? {
        if let lo = c.min.flatMap(double), lo < 0 { return nil }
        if case .int = c.value { return "numeric" }
        return "decimal"
    }

    /// A stepper's − and + buttons: each a `set` form with the next value (clamped to the range).
    func stepperButtons(_ c: ControlSnapshot, address: String) -> [HTMLNode] {
        guard let v = Self.double(c.value) else { return [] }
        let step = c.step.flatMap(Self.double) ?? 1
        let lo = c.min.flatMap(Self.double)
        let hi = c.max.flatMap(Self.double)
        func clamped(_ x: Double) -> Double { Swift.min(hi ?? x, Swift.max(lo ?? x, x)) }
        let integral = { if case .int = c.value { return true }; return false }()
        func text(_ x: Double) -> String {
            if integral, let i = Int(exactly: x.rounded()) { return String(i) }
            return String(x)
        }
        let down = clamped(v - step), up = clamped(v + step)
        return [.el("div", [.classes("okit-stepper")], [
            commandButton("set", [("cell", address), ("value", text(down))], title: "−", ariaLabel: words(.decrease),
                          enabled: down != v),
            commandButton("set", [("cell", address), ("value", text(up))], title: "+", ariaLabel: words(.increase),
                          enabled: up != v),
        ])]
    }

    /// A control's value as its text field shows it: a number as the other front ends and bindings show it
    /// (`12`, not `12.0`: `Value.displayDouble`).
    /// A text field's value: a number as the app reads it back (`1,125` in German: `Engine.editableText`).
    func editableText(_ v: SnapshotValue) -> String {
        if case .double(let d) = v { return Engine.editableText(d, decimalSeparator: context.decimalSeparator) }
        return Self.text(v)
    }

    static func text(_ v: SnapshotValue) -> String {
        switch v {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return Value.displayDouble(d)
        case .string(let s): return s
        }
    }

    static func double(_ v: SnapshotValue) -> Double? {
        switch v {
        case .int(let i): return Double(i)
        case .double(let d): return d.isFinite ? d : nil
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    static func number(_ v: SnapshotValue) -> String? {
        switch v {
        case .int(let i): return String(i)
        case .double(let d) where d.isFinite: return Value.displayDouble(d)
        default: return nil
        }
    }

    /// A web cell without a frame: its page's address (an http or https URL) as a link, else its text.
    func webLink(_ row: RowSnapshot, label: String) -> HTMLNode {
        if case .string(let value)? = row.control?.value {
            let url = value.trimmingCharacters(in: .whitespacesAndNewlines)
            let lower = url.lowercased()
            if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
                return .el("p", [.classes("okit-control", "okit-web-link")], [
                    .el("a", [.attr("href", url), .attr("rel", "noopener noreferrer"), .attr("target", "_blank")],
                        text: row.text.flatMap { $0.isEmpty ? nil : $0 } ?? url),
                ])
            }
        }
        return .el("div", [.classes("okit-control")], [.el("p", text: row.text ?? "")])
    }
}
