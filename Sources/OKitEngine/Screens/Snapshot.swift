/// What a person sees of a screen (screens.md "Snapshot"): plain values, computed from bindings.
public struct ScreenSnapshot: Equatable, Sendable {
    public var id: String
    public var kind: String
    public var context: String?
    public var title: String?
    public var subtitle: String?
    public var search: SearchSnapshot?
    public var index: [String] = []
    public var sections: [SectionSnapshot] = []
    /// All rows of the list (the sections hold a window of them).
    public var rowCount: Int = 0
}

public struct SearchSnapshot: Equatable, Sendable {
    public var visible: Bool
    public var text: String
    public var scope: String = "All"
}

public struct SectionSnapshot: Equatable, Sendable {
    public var header: String?
    public var footer: String?
    public var rows: [RowSnapshot]
}

public struct RowSnapshot: Equatable, Sendable {
    public var id: String?
    public var text: String?
    public var detail: String?
}
