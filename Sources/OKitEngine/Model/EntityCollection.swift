/// A collection field of an entity: an array, a set (unique by id, insertion order) or a map (string keys).
///
/// Reads are direct; changes go through the `Engine` (`insert`, `remove`, `move`, `clear`, `put`),
/// which fires the lifecycle hooks exactly once and notifies the bindings that read the membership.
public final class EntityCollection {
    public enum Kind: Sendable { case array, set, map }

    public let kind: Kind
    /// `slot`'s storage, beside `kind` (the object stays at 88 bytes with `firstEntity`).
    private let slotBits: Int32
    public let elementType: FieldType
    /// The elements in order (room kept at the front for OKit's insert-first: `ValueList`). Every change goes
    /// through `_modify` or `set`, which forget `firstEntity`; reads borrow (`_read`), as a stored property's do.
    public internal(set) var items: ValueList {
        _read { yield storedItems }
        _modify {
            // After the change, also when it throws: a read of element 0 while it ran notes nothing that lasts.
            defer { firstEntity = nil }
            yield &storedItems
        }
        set {
            firstEntity = nil
            storedItems = newValue
        }
    }
    /// `items`' storage: read through `items`, changed only through it.
    private var storedItems: ValueList
    /// The first element's entity, unretained, while `items` has not changed since it was noted (nil: not noted,
    /// or the first element is no entity); `items`' storage holds it for as long as the note lasts, since every
    /// change of `items` forgets the note. A binding's `authors[0]` then reads it from the collection's own lines
    /// instead of the elements' storage, a separate allocation whose line was a third of `path_eval`
    /// (performance.md, fourteenth session). Whole reads and writes in the engine's one isolation domain, never
    /// held across a call: unchecked.
    @exclusivity(unchecked) private var firstEntity: Unmanaged<Entity>?
    /// The noted first element's entity (`firstEntity`), for a prefetch ahead of a read (`BindingReadAhead`).
    var notedFirstEntity: Unmanaged<Entity>? { firstEntity }
    /// Map keys, parallel to `items` (maps only).
    public internal(set) var keys: [String] = []
    /// The entity whose field this is; nil once that entity is gone (or, after a model was read again into its
    /// root, for the collection the new one replaced). Safe to read for as long as you hold the collection: an
    /// owner that is not nil is alive, since an entity that goes clears the owner of its collections
    /// (docs/unsafe.md). To keep working with the collection, hold its owner too; the Lua bridge's collection
    /// objects hold both.
    public internal(set) var owner: Entity? {
        @inline(__always) get { ownerReference }
        @inline(__always) set { ownerReference = newValue }
    }
    /// `owner`'s storage: unowned and unretained, as an entity's `parentReference` is, and kept true the same way.
    unowned(unsafe) var ownerReference: Entity?
    /// The field's slot in the owner.
    public var slot: Int { Int(slotBits) }
    /// Subscriptions that read this collection's membership (see `DependencyGraph`).
    internal var readers: [Subscription] = []

    init(kind: Kind, elementType: FieldType, owner: Entity?, slot: Int, items: ValueList = []) {
        self.kind = kind
        self.elementType = elementType
        self.ownerReference = owner
        self.slotBits = Int32(slot)
        self.storedItems = items
    }

    /// Notes the first element's entity for `entityElement(at: 0)` (the readers call it once a collection is
    /// read; a read of element 0 notes it too).
    @inline(__always)
    func noteFirstEntity() {
        if case .entity(let x)? = storedItems.first { firstEntity = .passUnretained(x) }
    }

    public var count: Int { items.count }
    public var isEmpty: Bool { items.isEmpty }

    /// The entity at `index` (negative from the end), unretained (the collection holds it), or nil.
    @inline(__always)
    func entityElement(at index: Int) -> Unmanaged<Entity>? {
        if index == 0, let f = firstEntity { return f }
        if let chunks = items.chunks {
            let i = index < 0 ? chunks.count + index : index
            guard i >= 0, i < chunks.count, case .entity(let x) = chunks[i] else { return nil }
            return .passUnretained(x)
        }
        let head = items.head
        return items.storage.withUnsafeBufferPointer { buf -> Unmanaged<Entity>? in
            let n = buf.count - head
            let i = index < 0 ? n + index : index
            guard i >= 0, i < n, case .entity(let x) = buf[head + i] else { return nil }
            if i == 0 { firstEntity = .passUnretained(x) }
            return .passUnretained(x)
        }
    }

    /// The element at a 0-based index; negative counts from the end; nil when out of range.
    @inline(__always)
    public func element(at index: Int) -> Value? {
        let i = index < 0 ? items.count + index : index
        return i >= 0 && i < items.count ? items[i] : nil
    }

    /// The value stored under a map key.
    public func value(forKey key: String) -> Value? {
        guard let i = keys.firstIndex(of: key) else { return nil }
        return items[i]
    }

    /// The position of an entity in this collection.
    public func index(of entity: Entity) -> Int? {
        items.firstIndex { if case .entity(let e) = $0 { return e === entity }; return false }
    }

    /// The position of an entity, searched outward from `near` (a position it had: a list's rows remember where
    /// each was when they last read the data), so it costs as many steps as elements came in or went out before
    /// it since, not a scan of the collection (deleting a row of a 1,000,000-book list scanned 8 MB, issue 16).
    public func index(of entity: Entity, near: Int) -> Int? {
        let n = items.count
        guard n > 0 else { return nil }
        let h = Swift.min(Swift.max(near, 0), n - 1)
        var below = h, above = h + 1
        while below >= 0 || above < n {
            if below >= 0 {
                if items.holds(entity, at: below) { return below }
                below -= 1
            }
            if above < n {
                if items.holds(entity, at: above) { return above }
                above += 1
            }
        }
        return nil
    }

    /// The entities of this collection, in order.
    public var entities: [Entity] { items.compactMap { $0.entity } }

    /// The field's name in the owner.
    public var fieldName: String { owner.map { $0.type.fields[slot].name } ?? "?" }
}
