/// Something an evaluation read, and a write can change.
public enum DependencyKey: Hashable {
    /// A stored field of an entity (by slot).
    case field(Entity, Int)
    /// The membership and order of a collection.
    case members(EntityCollection)
    /// The entry of an id in the id index (what `$x` and `ref` resolved).
    case id(String)
    /// A model's root (replaced by restoreState).
    case model(String)
    /// The locale, strings tables and time zone (localized text, formatted dates).
    case locale
    /// The app clock (relative dates, intervals).
    case clock
    /// Another subscription's value (a cached evaluation read inside this one): when it goes stale, so does
    /// every evaluation that read it.
    case derived(Subscription)

    public static func == (a: DependencyKey, b: DependencyKey) -> Bool {
        switch (a, b) {
        case (.field(let x, let i), .field(let y, let j)): return x === y && i == j
        case (.members(let x), .members(let y)): return x === y
        case (.id(let x), .id(let y)): return x == y
        case (.model(let x), .model(let y)): return x == y
        case (.locale, .locale), (.clock, .clock): return true
        case (.derived(let x), .derived(let y)): return x === y
        default: return false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .field(let e, let i): h.combine(0); h.combine(ObjectIdentifier(e)); h.combine(i)
        case .members(let c): h.combine(1); h.combine(ObjectIdentifier(c))
        case .id(let s): h.combine(2); h.combine(s)
        case .model(let s): h.combine(3); h.combine(s)
        case .locale: h.combine(4)
        case .clock: h.combine(5)
        case .derived(let s): h.combine(6); h.combine(ObjectIdentifier(s))
        }
    }
}

/// Collects the keys read during one evaluation.
///
/// Its fields are read and written without dynamic exclusivity checks (`@exclusivity(unchecked)`): a recorder
/// belongs to its engine's one isolation domain, and no access to a field spans a call that could reach the
/// same field (`record` reads and appends, then returns). The checks were seven calls into the runtime per row
/// of a list's first pass (12 % of its instructions).
public final class DependencyRecorder {
    @exclusivity(unchecked) public private(set) var keys: [DependencyKey] = []
    @exclusivity(unchecked) private var seen: Set<DependencyKey> = []
    /// The entity a piece of a larger evaluation is about (a list's row): reads of anything but its own fields
    /// set `readOther`. Reads of its own fields are kept once each without the set (no other piece reads them).
    @exclusivity(unchecked) public var piece: Entity? {
        didSet { pieceStart = keys.count; pieceID = piece.map(ObjectIdentifier.init) }
    }
    @exclusivity(unchecked) private var pieceStart = 0
    /// `piece`'s identity, compared without retaining `piece` (a retain and a release are atomic instructions:
    /// with the keys' copies, about a tenth of a list's first pass over 100,000 rows; issue 16).
    @exclusivity(unchecked) private var pieceID: ObjectIdentifier?
    /// Whether something other than `piece`'s own fields was read since `piece` was set.
    @exclusivity(unchecked) public var readOther = false

    public init() {}

    /// Makes room for `n` more keys.
    public func reserve(_ n: Int) { keys.reserveCapacity(keys.count + n) }

    /// Records a read of field `slot` of `e`: `record(.field(e, slot))`, with no key made, copied or compared
    /// whole unless it is new.
    @inline(__always)
    public func recordField(_ e: Entity, _ slot: Int) {
        guard let p = pieceID, p == ObjectIdentifier(e) else { return record(.field(e, slot)) }
        if !hasField(e, slot) { keys.append(.field(e, slot)) }
    }

    /// Whether the piece's keys so far hold field `slot` of `e`.
    @inline(__always)
    private func hasField(_ e: Entity, _ slot: Int) -> Bool {
        let start = pieceStart
        return keys.withUnsafeBufferPointer { ks in
            var i = start
            while i < ks.count {
                if case .field(let x, let j) = ks[i], j == slot, x === e { return true }
                i += 1
            }
            return false
        }
    }

    @inline(__always)
    public func record(_ key: DependencyKey) {
        if let p = pieceID {
            if case .field(let e, let slot) = key, ObjectIdentifier(e) == p {
                if !hasField(e, slot) { keys.append(key) }
                return
            }
            readOther = true
        }
        // Most evaluations read a handful of keys: a scan finds a repeat without hashing; past 16 keys a set does.
        if keys.count < 16 {
            for k in keys where k == key { return }
            keys.append(key)
            return
        }
        if seen.isEmpty { seen = Set(keys) }
        if seen.insert(key).inserted { keys.append(key) }
    }
}
