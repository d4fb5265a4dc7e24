import OKitEngine

/// A date cell as OKit shows it (issue 36 item 8): its title and, in the detail label, the text the engine gives
/// the cell (`row.detail`: the cell's `detailPath`, else the date formatted in the app's language) — never the
/// browser's own rendering of a date, which follows the browser's locale whatever `--lang` says.
///
/// A date that takes values is a disclosure, as OKit's date cell opens its picker when tapped: the `<summary>`
/// shows the title and that text; opened, a `set` form holds the `datetime-local` input in the app's time zone
/// (`WallClock`; submitted on `change` by the script, with a Save button without it). A date that takes no values shows its title and text only.
/// A date the person typed and the cell refused opens the disclosure with their text in the field (``RefusedText``).
extension PageRenderer {
    func dateCell(_ row: RowSnapshot, _ c: ControlSnapshot, address: String, id: String, label: String,
                  section s: Int, index r: Int) -> HTMLNode {
        var shown: [HTMLNode] = [.el("span", [.classes("okit-text")], text: label)]
        if let detail = row.detail, !detail.isEmpty {
            shown.append(.el("span", [.classes("okit-detail"), .attr("id", domID("date", section: s, index: r))], text: detail))
        }
        guard c.enabled else { return .el("div", [.classes("okit-row-main")], shown) }
        // The wall-clock time of the app's time zone, as the detail text shows the date (the server reads it back so).
        // A date this person typed and the cell refused: the field holds their text, said invalid, and stays open.
        let zone = context.timeZone
        let typed = typed(row, address: address)
        let message = typed != nil || row.invalid != nil ? domID("invalid", section: s, index: r) : nil
        let input = HTMLNode.el("input", [
            .attr("type", "datetime-local"), .attr("id", id), .attr("name", "value"),
            .attr("value", typed?.text ?? WallClock.local(c.value, timeZone: zone)),
            .attr("min", c.min.flatMap { WallClock.local($0, timeZone: zone) }), .attr("max", c.max.flatMap { WallClock.local($0, timeZone: zone) }),
            .attr("aria-invalid", message != nil ? "true" : nil), .attr("aria-describedby", message),
        ])
        return .el("details", [.classes("okit-date"), .bool("open", typed != nil)], [
            .el("summary", [.classes("okit-row-main")], shown),
            postForm("set", [("cell", address)], class: "okit-control okit-auto", [
                .el("label", [.attr("for", id)], text: label), input, submitButton(),
            ]),
        ])
    }
}
