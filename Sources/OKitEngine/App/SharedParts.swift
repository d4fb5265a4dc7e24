/// Parts of screens that many shells share (one engine, many people: the web's browser sessions), each kept by
/// what it is made from and held weakly: a part lives while a screen uses it (screens hold theirs strongly), and
/// goes with the last one. The screens say what a part is and what its key holds (a list's rows:
/// ListScreen+Sharing.swift); the engine only keeps them.
final class SharedParts {
    private final class WeakPart {
        weak var part: AnyObject?
        init(_ part: AnyObject) { self.part = part }
    }

    private var parts: [AnyHashable: WeakPart] = [:]

    /// The live part kept for `key`, if any.
    func part(for key: AnyHashable) -> AnyObject? { parts[key]?.part }

    /// Keeps `part` for `key` (and forgets the parts no screen uses any more, once there are many).
    func keep(_ part: AnyObject, for key: AnyHashable) {
        if parts.count >= 64 { parts = parts.filter { $0.value.part != nil } }
        parts[key] = WeakPart(part)
    }

    /// How many parts are alive (for tests).
    var liveCount: Int { parts.values.filter { $0.part != nil }.count }
}
