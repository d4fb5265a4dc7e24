/// Parts of screens that many shells share (one engine, many people: the web's browser sessions), each kept by
/// what it is made from and held weakly: a part lives while a screen uses it (screens hold theirs strongly), and
/// goes with the last one. The screens say what a part is and what its key holds (a list's rows:
/// ListScreen+Sharing.swift; a list's first window: ListScreen+SharedWindow.swift); the engine only keeps them.
final class SharedParts {
    private final class WeakPart {
        weak var part: AnyObject?
        init(_ part: AnyObject) { self.part = part }
    }

    private var parts: [AnyHashable: WeakPart] = [:]
    /// How many entries the table may hold before the dead ones are swept: twice the live ones found at the last
    /// sweep (at least 64), so a sweep's cost is paid once per as many keeps as it visits entries.
    private var sweepAt = 64

    private var serials = 0

    /// A number no earlier call gave (the sources of live snapshots' revisions, `ScreenWatch.Revision`).
    func nextSerial() -> Int {
        serials += 1
        return serials
    }

    /// The live part kept for `key`, if any.
    func part(for key: AnyHashable) -> AnyObject? { parts[key]?.part }

    /// Keeps `part` for `key` (and forgets the parts no screen uses any more, once the table has grown to twice
    /// what was alive at the last sweep).
    func keep(_ part: AnyObject, for key: AnyHashable) {
        if parts.count >= sweepAt {
            parts = parts.filter { $0.value.part != nil }
            sweepAt = max(64, 2 * parts.count)
        }
        parts[key] = WeakPart(part)
    }

    /// How many parts are alive (for tests).
    var liveCount: Int { parts.values.filter { $0.part != nil }.count }
    /// How many entries the table holds, alive or not (for tests: dead ones are swept as it grows).
    var entryCount: Int { parts.count }
}
