import OKitEngine     // not @testable: what a kind of one's own, in a module of its own, can write

// The shared parts of a snapshot, as a kind of one's own fills them: sections of rows and bar buttons
// (docs/engine.md "Where to put a new screen kind", step 1). This file imports OKitEngine plainly, so it compiles
// only with the snapshot types' public initializers.

extension CounterScreen {
    /// The counter's snapshot with its history as a section of rows and a bar button: what a kind shows in the
    /// parts every front end draws.
    func snapshotWithRows(_ history: [Int]) throws -> ScreenSnapshot {
        var s = try snapshot(offset: 0, limit: 100)
        var row = RowSnapshot(id: "last", text: "\(history.last ?? 0)")
        row.accessory = AccessorySnapshot(kind: "detail")
        s.sections = [SectionSnapshot(header: "History", rows: [row] + history.dropLast().map { RowSnapshot(id: nil, text: "\($0)") })]
        s.buttons = [ButtonSnapshot(id: "reset", title: "Reset", enabled: history.last != 0)]
        return s
    }
}
