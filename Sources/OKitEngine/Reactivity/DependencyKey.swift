/// Something an evaluation read, and a write can change.
public enum DependencyKey: Hashable {
    /// A stored field of an entity (by object identity and slot).
    case field(ObjectIdentifier, Int)
    /// The membership and order of a collection.
    case members(ObjectIdentifier)
    /// The entry of an id in the id index (what `$x` and `ref` resolved).
    case id(String)
    /// A model's root (replaced by restoreState).
    case model(String)
    /// The locale, strings tables and time zone (localized text, formatted dates).
    case locale
    /// The app clock (relative dates, intervals).
    case clock
}

/// Collects the keys read during one evaluation.
public final class DependencyRecorder {
    public private(set) var keys: [DependencyKey] = []
    private var seen: Set<DependencyKey> = []

    public init() {}

    @inline(__always)
    public func record(_ key: DependencyKey) {
        if seen.insert(key).inserted { keys.append(key) }
    }
}
