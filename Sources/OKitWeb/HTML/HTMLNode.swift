/// A piece of HTML: an element with attributes and children, escaped text, or a list of nodes.
///
/// Text and attribute values are escaped when written (``HTMLWriter``), so model text can never become markup.
/// There is no way to put unescaped text into a node: the only raw output is the document's doctype.
public indirect enum HTMLNode: Sendable, Equatable {
    /// An element; void elements (`input`, `br`, …) are written without children and without an end tag.
    case element(name: String, attributes: [HTMLAttribute], children: [HTMLNode])
    /// Text, escaped when written.
    case text(String)
    /// Several nodes in order (no element of their own).
    case fragment([HTMLNode])

    /// Nothing: handy for optional parts of a page.
    public static let empty = HTMLNode.fragment([])

    /// An element: `HTMLNode.el("a", [.attr("href", url)], [.text("Books")])`.
    public static func el(_ name: String, _ attributes: [HTMLAttribute] = [], _ children: [HTMLNode] = []) -> HTMLNode {
        .element(name: name, attributes: attributes, children: children)
    }

    /// An element with one text child.
    public static func el(_ name: String, _ attributes: [HTMLAttribute] = [], text: String) -> HTMLNode {
        .element(name: name, attributes: attributes, children: [.text(text)])
    }

    /// The elements that have no content and no end tag.
    public static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
}

/// An attribute of an element: a name with a value (escaped when written), a boolean attribute (`checked`), or
/// absent (not written at all — for attributes that depend on a condition).
public struct HTMLAttribute: Sendable, Equatable {
    /// What is written for the attribute.
    public enum Content: Sendable, Equatable {
        /// `name="value"`, the value escaped.
        case value(String)
        /// `name` alone (a boolean attribute that is on).
        case present
        /// Not written.
        case absent
    }

    /// The attribute's name (only `a-z`, `0-9` and `-` are written).
    public var name: String
    /// Its value, or bare, or absent.
    public var content: Content

    /// An attribute; see ``attr(_:_:)`` and ``bool(_:_:)`` for the usual forms.
    public init(name: String, content: Content) {
        self.name = name
        self.content = content
    }

    /// `name="value"`; nil leaves the attribute out.
    public static func attr(_ name: String, _ value: String?) -> HTMLAttribute {
        HTMLAttribute(name: name, content: value.map { .value($0) } ?? .absent)
    }

    /// A boolean attribute (`checked`, `disabled`, `open`): written bare when `on`, else left out.
    public static func bool(_ name: String, _ on: Bool = true) -> HTMLAttribute {
        HTMLAttribute(name: name, content: on ? .present : .absent)
    }

    /// `class="…"` from the non-empty names given.
    public static func classes(_ names: String?...) -> HTMLAttribute {
        let joined = names.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return attr("class", joined.isEmpty ? nil : joined)
    }
}

/// A whole page: the doctype, `<html lang>` (with `dir="rtl"` for a language written right to left), the head's
/// nodes and the body's attributes and nodes.
public struct HTMLDocument: Sendable, Equatable {
    /// The `lang` of `<html>`.
    public var lang: String
    /// The children of `<head>`.
    public var head: [HTMLNode]
    /// The attributes of `<body>`.
    public var bodyAttributes: [HTMLAttribute]
    /// The children of `<body>`.
    public var body: [HTMLNode]

    /// A page.
    public init(lang: String = "en", head: [HTMLNode], bodyAttributes: [HTMLAttribute] = [], body: [HTMLNode]) {
        self.lang = lang
        self.head = head
        self.bodyAttributes = bodyAttributes
        self.body = body
    }

    /// The page as UTF-8 bytes.
    public func bytes() -> [UInt8] {
        var w = HTMLWriter()
        w.writeDoctype()
        w.write(.el("html", [.attr("lang", lang), .attr("dir", TextDirection.htmlDir(lang))], [
            .el("head", [], head),
            .el("body", bodyAttributes, body),
        ]))
        return w.bytes
    }

    /// The page as text.
    public func render() -> String { String(decoding: bytes(), as: UTF8.self) }
}
