import Foundation

/// okit's own messages (a notice, an error, an alert's title and text) quote what a person typed — a name, a value.
/// A text direction control in it (`U+202E`, right-to-left override) would reverse the rest of the message, okit's
/// own words too ("exe.evil:" read as ":live.exe" and the sentence after it backwards), and a control character
/// would not show at all. So they are shown as what they are, `[U+202E]` (web.md "Security"): embeddings and
/// overrides always, isolates (`U+2066`–`U+2069`) only when one is not closed or closes none, control characters
/// but the tab and line breaks. Other text is left as it is.
enum VisibleControls {
    static func shown(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { isControl($0.value) || (0x2066...0x2069).contains($0.value) }) else { return text }
        var visible = Set<Int>()
        var open: [Int] = []
        for (i, s) in scalars.enumerated() {
            switch s.value {
            case 0x2066...0x2068: open.append(i)
            case 0x2069: if open.popLast() == nil { visible.insert(i) }
            default: if isControl(s.value) { visible.insert(i) }
            }
        }
        visible.formUnion(open)
        var out = String.UnicodeScalarView()
        for (i, s) in scalars.enumerated() {
            if visible.contains(i) { out.append(contentsOf: String(format: "[U+%04X]", s.value).unicodeScalars) } else { out.append(s) }
        }
        return String(out)
    }

    /// An embedding or override (`U+202A`–`U+202E`), or a control character but tab, line feed and carriage return.
    static func isControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || ((v < 0x20 || (0x7F...0x9F).contains(v)) && v != 0x09 && v != 0x0A && v != 0x0D)
    }
}
