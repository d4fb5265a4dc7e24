import Foundation

/// A cell of a detail (or settings) screen: its kind and its properties, each a binding string (screens.md).
public struct CellDeclaration {
    public var kind: String
    public var id: String?
    public var properties: [String: String]

    public init(kind: String, id: String? = nil, properties: [String: String] = [:]) {
        self.kind = kind
        self.id = id
        self.properties = properties
    }

    public subscript(_ name: String) -> String { properties[name] ?? "" }

    /// The binding that holds the cell's value, by kind.
    public var valuePath: String {
        switch kind {
        case "text", "multiline": return self["textPath"]
        case "switch": return self["onPath"]
        case "date": return self["datePath"]
        case "slider", "stepper", "progress": return self["valuePath"]
        case "segment": return self["selectIndexPath"]
        case "picker": return self["selectionPath"]
        default: return ""
        }
    }

    /// The cell's id for commands: `id`, else its path's first part with `%`/`#` stripped.
    var defaultId: String {
        if let id { return id }
        let first = self["path"].split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
        var t = first.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("%") || t.hasPrefix("#") { t.removeFirst() }
        return t.isEmpty ? kind : t
    }
}

/// A section of cells.
public struct SectionDeclaration {
    public var header = ""
    public var footer = ""
    public var showDisplay = ""
    public var showEdit = ""
    public var cells: [CellDeclaration] = []

    public init(header: String = "", footer: String = "", cells: [CellDeclaration] = []) {
        self.header = header
        self.footer = footer
        self.cells = cells
    }
}

/// A detail screen as declared (`okit.detail`).
public struct DetailDeclaration {
    public var id: String
    public var type: String?
    public var contextPath = ""
    public var titlePath = ""
    public var subTitlePath = ""
    public var editAlways = ""
    public var sections: [SectionDeclaration] = []

    public init(id: String) { self.id = id }
}

