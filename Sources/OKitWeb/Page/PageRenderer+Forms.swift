import OKitEngine

/// POST forms: every one posts to `context.commandURL` with the hidden fields `csrf`, `v`, `at` and `command`,
/// then the command's arguments named as the driver names them (`row`, `cell`, `value`, `text`, `scope`, `id`,
/// `action`, `fields`, `on`, `from`, `to`, `passphrase`).
extension PageRenderer {
    /// A hidden field.
    public func hidden(_ name: String, _ value: String) -> HTMLNode {
        .el("input", [.attr("type", "hidden"), .attr("name", name), .attr("value", value)])
    }

    /// The four hidden fields every POST form starts with.
    func commandFields(_ command: String) -> [HTMLNode] {
        baseFields + [hidden("command", command)]
    }

    /// A POST form running `command` with the given hidden arguments and the visible content.
    public func postForm(_ command: String, _ arguments: [(String, String)] = [], class cls: String? = nil,
                  enctype: String? = nil, action: String? = nil, _ content: [HTMLNode]) -> HTMLNode {
        .el("form", [.attr("method", "post"), .attr("action", action ?? context.commandURL), .attr("enctype", enctype),
                     .classes("okit-form", cls)],
            commandFields(command) + arguments.map { hidden($0.0, $0.1) } + content)
    }

    /// A form with one button: the button shows `title` as its text.
    public func commandButton(_ command: String, _ arguments: [(String, String)] = [], title: String,
                       ariaLabel: String? = nil, enabled: Bool = true, pressed: Bool? = nil,
                       class cls: String? = nil) -> HTMLNode {
        postForm(command, arguments, class: "okit-inline", [
            .el("button", [.attr("type", "submit"), .classes("okit-button", cls), .attr("aria-label", ariaLabel),
                           .attr("aria-pressed", pressed.map { $0 ? "true" : "false" }), .bool("disabled", !enabled)],
                text: title),
        ])
    }

    /// A submit button for a form whose control normally submits on change (the script hides it).
    func submitButton(_ title: String? = nil) -> HTMLNode {
        .el("button", [.attr("type", "submit"), .classes("okit-button", "okit-nojs")], text: title ?? words(.save))
    }

    /// How a command names a row: its `id` when it has one, else its 1-based position over all rows of the screen
    /// in order (flattened across sections, counted from the start of the whole list, not the window).
    public func address(_ row: RowSnapshot, section: Int, index: Int) -> String {
        if let id = row.id, !id.isEmpty { return id }
        return String(position(section: section, index: index))
    }

    /// The 1-based position of a row in the whole list.
    public func position(section: Int, index: Int) -> Int {
        let before = sectionStarts.indices.contains(section) ? sectionStarts[section] : 0
        return context.rowOffset + before + index + 1
    }

    /// A DOM id for a row or cell: from positions only, never from model text.
    public func domID(_ prefix: String, section: Int, index: Int) -> String {
        "\(prefix)-\(section + 1)-\(index + 1)"
    }
}
