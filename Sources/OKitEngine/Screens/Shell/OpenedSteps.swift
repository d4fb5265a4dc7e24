/// The screens a shell opened itself, each with the screen it opened over: places a URL may name besides what
/// the declarations open (`AppShell.reaches`). At most 1,024 are kept (then they start again).
struct OpenedSteps {
    struct Key: Hashable {
        /// The screen it opened over (its id), the screen and the id of the entity it opened it on, and whether it
        /// presented it.
        let under: String?
        let screen: String
        let entity: String?
        let presented: Bool
    }
    private var keys: Set<Key> = []

    func contains(_ key: Key) -> Bool { keys.contains(key) }

    mutating func insert(_ key: Key) {
        if keys.count >= 1024, !keys.contains(key) { keys.removeAll(keepingCapacity: true) }
        keys.insert(key)
    }
}
