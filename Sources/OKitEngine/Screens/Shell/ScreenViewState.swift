/// What a person set on an open screen that is not data — edit mode, a search and its scope, a revealed row — as a
/// live reload hands it from the screen of the app that goes to the screen opened again in its place (web.md "Live
/// reload"). A kind keeps what it has; the new screen takes what its declaration still allows.
public struct ScreenViewState: Equatable, Sendable {
    public var editing = false
    /// A list's search text and scope (0: "All").
    public var search = ""
    public var scopeIndex = 0
    /// A detail screen's revealed row (an inline date or picker): section and cell, 0-based.
    public var selectedCell: [Int]?

    public init(editing: Bool = false) { self.editing = editing }
}
