/// The screens a shell opened itself, each with the screen it opened over: places a URL may name besides what
/// the declarations open (`AppShell.reaches`). The last 1,024 at least are kept: two sets of up to 1,024, the
/// older dropped when the newer fills up.
struct OpenedSteps {
    struct Key: Hashable {
        /// The screen it opened over (its id), the screen and the id of the entity it opened it on, and whether it
        /// presented it.
        let under: String?
        let screen: String
        let entity: String?
        let presented: Bool
    }
    static let generation = 1024
    private var keys: Set<Key> = []
    private var older: Set<Key> = []

    func contains(_ key: Key) -> Bool { keys.contains(key) || older.contains(key) }

    mutating func insert(_ key: Key) {
        if keys.count >= OpenedSteps.generation, !keys.contains(key) {
            older = keys
            keys.removeAll(keepingCapacity: true)
        }
        keys.insert(key)
    }
}

extension AppShell {
    /// Takes the places `other` opened itself (`app:open`, a menu item): a live reload's new shell for the same
    /// person still reaches them by URL.
    public func keepOpenedPlaces(of other: AppShell) { openedSteps = other.openedSteps }
}
