import Foundation
import OKitEngine

/// How the terminal shell draws one row of a list or cell of a detail screen: its number, a selected mark, text,
/// detail and value (each once), image, ribbon, accessory, quick and more actions, a check mark; then the message
/// of the rule its value breaks and a picker's options on lines of their own.
extension TerminalShell {
    /// A row's lines. `selecting`: the row belongs to a list in edit mode, where a row its `selectPath` selects
    /// shows `[x]` before its text.
    func rowLines(_ r: RowSnapshot, number n: Int, selecting: Bool = false) -> [String] {
        var line = "  \(n). " + (selecting && r.selected ? tint("[x] ") : "") + (r.text ?? "")
        var extra: [String] = []
        if let c = r.control, let options = c.options {
            if let d = r.detail { line += dim(" — \(d)") }
            let name = c.selected.flatMap { $0 >= 1 && $0 <= options.count ? options[$0 - 1] : nil }
            if name == nil || name != r.detail { line += " [\(name ?? " ")]" }
            if r.selected || (c.enabled && options.count <= 8) {
                extra.append(dim("       " + word(.labelled, word(.options), "")) + options.enumerated().map { i, o in
                    i + 1 == c.selected ? tint("\(i + 1) [\(o)]") : "\(i + 1) \(o)"
                }.joined(separator: dim(" · ")))
            }
        } else if let c = r.control, let segments = c.segments {
            if let d = r.detail { line += dim(" — \(d)") }
            line += " " + segments.enumerated().map { i, t in i == c.index ? "[\(t)]" : t }.joined(separator: " | ")
        } else if let c = r.control {
            line += valueText(r, c)
        } else if let d = r.detail {
            line += dim(" — \(d)")
        }
        if let image = r.image { line += dim(" [\(word(.labelled, word(.image), image))]") }
        if let ribbon = r.ribbon { line += " " + ribbonMark(ribbon) }
        if let a = r.accessory { line += " " + (a.enabled ? tint("(\(a.text ?? a.kind))") : dim("(\(a.text ?? a.kind))")) }
        if let q = r.quick, q.enabled {
            let what = [q.title, q.image.map { "[\(word(.labelled, word(.image), $0))]" } ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
            line += dim(" " + word(.labelled, word(.quickLabel), what))
        }
        if r.more { line += dim(" …") }
        if r.checked == true { line += tint(" ✓") }
        if let message = r.invalid { extra.insert(red("       ! \(message)"), at: 0) }
        // A multiline text's further lines go under the row's text, not to the start of the line.
        let indent = String(repeating: " ", count: "  \(n). ".count)
        let lines = line.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { $0 == 0 ? String($1) : indent + $1 }
        return lines + extra
    }

    /// A cell's detail and value, each shown once: a date cell's detail is its value as the person reads it, so
    /// it stands in the brackets instead of the stored ISO 8601 text; a detail equal to the value is not repeated;
    /// an image cell's value is its image (shown as `[image: …]`).
    func valueText(_ r: RowSnapshot, _ c: ControlSnapshot) -> String {
        let value = controlText(c, editsText: r.kind == "text" || r.kind == "multiline")
        if r.kind == "image", r.image != nil, value == r.image { return "" }
        guard let d = r.detail else { return " [\(value)]" }
        if r.kind == "date" || d == value { return " [\(d)]" }
        return dim(" — \(d)") + " [\(value)]"
    }

    /// A row's ribbon (`ribbonColor`): `▌` and the colour's text, the mark drawn in that colour (24-bit) when
    /// colours are on and the text is `#RRGGBB`.
    func ribbonMark(_ ribbon: String) -> String {
        guard color, ribbon.count == 7, ribbon.hasPrefix("#"), let rgb = Int(ribbon.dropFirst(), radix: 16) else {
            return dim("▌\(ribbon)")
        }
        return "\u{1B}[38;2;\((rgb >> 16) & 0xFF);\((rgb >> 8) & 0xFF);\(rgb & 0xFF)m▌\u{1B}[0m" + dim(ribbon)
    }

    /// A switch's state as `set` takes it: yes and no in the app's language when okit has words for it (`ja`,
    /// `nein`) or the app gives its own (`oui`, `non`), else on and off.
    var switchWords: (on: String, off: String) {
        let words = session.engine.builtInWords
        let own = words.overrides[BuiltInWord.yes.rawValue] != nil && words.overrides[BuiltInWord.no.rawValue] != nil
        guard own || BuiltInWords.hasTable(for: words.language) else { return ("on", "off") }
        return (words(.yes).lowercased(), words(.no).lowercased())
    }

    /// A control's value as text: on/off, a number, the text, a blank for none (a secure text never shows). A
    /// text field's number as `set` reads it back in the app's language (`1,125` in German: `Engine.editableText`).
    func controlText(_ c: ControlSnapshot, editsText: Bool = false) -> String {
        if c.secure { return "••••" }
        switch c.value {
        case .bool(let b): return b ? switchWords.on : switchWords.off
        case .int(let i): return "\(i)"
        case .double(let d): return editsText ? session.engine.editableText(d) : Value.displayDouble(d)
        case .string(let t): return t
        case .null: return c.placeholder.map { "(\($0))" } ?? " "
        }
    }
}
