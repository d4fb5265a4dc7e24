/// Writes nodes into one UTF-8 buffer, escaping every text and attribute value.
///
/// Beyond escaping, the writer keeps pages within `Content-Security-Policy: default-src 'self'` by construction:
/// element and attribute names keep only `a-z`, `0-9` and `-` (anything else is dropped), event handler attributes
/// (`on…`) and `style` are never written, a `<script>` element never gets content (only a `src`), and a
/// `javascript:` URL in `href`, `src` or `action` is written as `#`.
public struct HTMLWriter: Sendable {
    /// The page so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 16_384) {
        bytes.reserveCapacity(capacity)
    }

    /// `<!DOCTYPE html>`: the one piece of raw markup.
    public mutating func writeDoctype() {
        bytes.append(contentsOf: "<!DOCTYPE html>\n".utf8)
    }

    /// Writes a node and its children.
    public mutating func write(_ node: HTMLNode) {
        switch node {
        case .text(let s):
            escape(s, quotes: false)
        case .fragment(let nodes):
            for n in nodes { write(n) }
        case .element(let rawName, let attributes, let children):
            let name = Self.safeName(rawName)
            guard !name.isEmpty else {
                for n in children { write(n) }
                return
            }
            bytes.append(UInt8(ascii: "<"))
            bytes.append(contentsOf: name.utf8)
            for a in attributes { write(a) }
            bytes.append(UInt8(ascii: ">"))
            if HTMLNode.voidElements.contains(name) { return }
            // A browser drops one line break right after `<textarea>` or `<pre>`: a text that starts with one gets
            // one more, so a comment beginning with an empty line keeps it when the form is sent back.
            if name == "textarea" || name == "pre", case .text(let t)? = children.first, let b = t.utf8.first, b == 0x0A || b == 0x0D {
                bytes.append(0x0A)
            }
            if name != "script" {
                for n in children { write(n) }
            }
            bytes.append(contentsOf: "</".utf8)
            bytes.append(contentsOf: name.utf8)
            bytes.append(UInt8(ascii: ">"))
        }
    }

    mutating func write(_ a: HTMLAttribute) {
        let name = Self.safeName(a.name)
        guard !name.isEmpty, !name.hasPrefix("on"), name != "style" else { return }
        switch a.content {
        case .absent:
            return
        case .present:
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: name.utf8)
        case .value(let v):
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: "=\"".utf8)
            escape(Self.urlAttributes.contains(name) && Self.isScriptURL(v) ? "#" : v, quotes: true)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Attributes that hold a URL.
    static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "data", "poster", "cite"]

    /// True for a `javascript:` or `vbscript:` URL (ignoring case, spaces and control characters, as browsers
    /// do): written as `#` instead.
    static func isScriptURL(_ v: String) -> Bool {
        var scheme = ""
        for u in v.utf8 {
            if u <= 0x20 { continue }
            if u == UInt8(ascii: ":") { return scheme == "javascript" || scheme == "vbscript" }
            scheme.unicodeScalars.append(Unicode.Scalar(u >= 0x41 && u <= 0x5A ? u | 0x20 : u))
            if scheme.utf8.count > 10 { return false }
        }
        return false
    }

    /// A name with only `a-z`, `0-9` and `-` (upper case letters are lowered).
    static func safeName(_ s: String) -> String {
        if s.utf8.allSatisfy({ isLowerNameByte($0) }) { return s }
        var out = ""
        for u in s.utf8 {
            switch u {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                out.unicodeScalars.append(Unicode.Scalar(u))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                out.unicodeScalars.append(Unicode.Scalar(u + 32))
            default:
                continue
            }
        }
        return out
    }

    static func isLowerNameByte(_ u: UInt8) -> Bool {
        (u >= UInt8(ascii: "a") && u <= UInt8(ascii: "z")) || (u >= UInt8(ascii: "0") && u <= UInt8(ascii: "9"))
            || u == UInt8(ascii: "-")
    }

    /// Appends text with `&`, `<`, `>` (and in attribute values `"` and `'`) as character references.
    mutating func escape(_ s: String, quotes: Bool) {
        for u in s.utf8 {
            switch u {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\"") where quotes: bytes.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'") where quotes: bytes.append(contentsOf: "&#39;".utf8)
            case 0: bytes.append(contentsOf: "\u{FFFD}".utf8)
            default: bytes.append(u)
            }
        }
    }
}

extension HTMLNode {
    /// The node as markup (escaped).
    public func render() -> String {
        var w = HTMLWriter(capacity: 1024)
        w.write(self)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
