/// What writes a snapshot out, knowing no field of it: JSON (`SnapshotJSONWriter`), Lua tables (OKitLua's
/// `SnapshotToLua`), the neutral tree a new front end reads (`Snapshot.tree`). Each part of a snapshot names its
/// fields once, in order, in its `encode(to:)` (Snapshot+Fields.swift); an encoder turns them into its form.
///
/// A field given with a nil value is there as `null` in JSON and the tree, and absent in Lua (screens.md: "a JSON
/// null is simply absent"); a field a part leaves out (`if let footer { … }`) is absent from all of them.
public protocol SnapshotEncoder {
    mutating func field(_ key: String, _ value: String?)
    mutating func field(_ key: String, _ value: Bool?)
    mutating func field(_ key: String, _ value: Int?)
    /// A typed value (a control's): a non-finite double is null (absent in Lua).
    mutating func field(_ key: String, _ value: SnapshotValue?)
    mutating func field(_ key: String, _ values: [String])
    /// An object whose keys are data (`themeValues`), in order.
    mutating func field(_ key: String, pairs: [(key: String, value: String)])
    /// A part as an object.
    mutating func object<Part: SnapshotEncodable>(_ key: String, _ part: Part)
    /// A list of parts, each an object.
    mutating func objects<Part: SnapshotEncodable>(_ key: String, _ parts: [Part])
    /// A part that is not there: `null` (absent in Lua).
    mutating func null(_ key: String)
}

extension SnapshotEncoder {
    /// A part as an object, or null when there is none.
    @inlinable public mutating func object<Part: SnapshotEncodable>(_ key: String, _ part: Part?) {
        if let part { object(key, part) } else { null(key) }
    }
}

/// A part of a snapshot that names its fields to an encoder.
public protocol SnapshotEncodable {
    /// Its fields, in order.
    func encode<E: SnapshotEncoder>(to encoder: inout E)
    /// About how many keys it has (what a Lua table is made with).
    static var keyCount: Int { get }
}

extension SnapshotEncodable {
    public static var keyCount: Int { 4 }
}

/// A screen kind's own part of its screens' snapshots, beyond the title, buttons and sections of rows every kind
/// shares (`ScreenSnapshot.section`): it names its fields once, and JSON, Lua and the tree have them under the
/// kind's name, after the screen's `footer`.
public protocol ScreenSection: SnapshotEncodable, Sendable {
    /// Whether it shows the same as `other` (snapshots compare by value).
    func isEqual(to other: any ScreenSection) -> Bool
}

extension ScreenSection where Self: Equatable {
    public func isEqual(to other: any ScreenSection) -> Bool { (other as? Self) == self }
}

/// A kind's section, boxed (`ScreenSnapshot.section`): compared by value.
struct SectionBox: Equatable, Sendable {
    let value: any ScreenSection
    static func == (a: SectionBox, b: SectionBox) -> Bool { a.value.isEqual(to: b.value) }
}

/// The neutral encoded form of a snapshot: every field of the one description, in its order, as a `JSONTree`
/// (what a new front end writes out in its own format without naming a field; JSON's `null` for nil).
public struct SnapshotTreeEncoder: SnapshotEncoder {
    public private(set) var members: [(key: String, value: JSONTree)] = []

    public init() {}

    /// A part as a tree (an object).
    public static func tree<Part: SnapshotEncodable>(_ part: Part) -> JSONTree {
        var e = SnapshotTreeEncoder()
        part.encode(to: &e)
        return .object(e.members)
    }

    mutating func put(_ key: String, _ value: JSONTree) { members.append((key, value)) }

    public mutating func field(_ key: String, _ value: String?) { put(key, value.map { .string($0) } ?? .null) }
    public mutating func field(_ key: String, _ value: Bool?) { put(key, value.map { .bool($0) } ?? .null) }
    public mutating func field(_ key: String, _ value: Int?) { put(key, value.map { .int($0) } ?? .null) }
    public mutating func field(_ key: String, _ value: SnapshotValue?) {
        switch value {
        case nil, .null?: put(key, .null)
        case .bool(let b)?: put(key, .bool(b))
        case .int(let i)?: put(key, .int(i))
        case .double(let d)?: put(key, d.isFinite ? .double(d) : .null)
        case .string(let s)?: put(key, .string(s))
        }
    }
    public mutating func field(_ key: String, _ values: [String]) { put(key, .array(values.map { .string($0) })) }
    public mutating func field(_ key: String, pairs: [(key: String, value: String)]) {
        put(key, .object(pairs.map { ($0.key, .string($0.value)) }))
    }
    public mutating func object<Part: SnapshotEncodable>(_ key: String, _ part: Part) { put(key, Self.tree(part)) }
    public mutating func objects<Part: SnapshotEncodable>(_ key: String, _ parts: [Part]) {
        var items: [JSONTree] = []
        items.reserveCapacity(parts.count)
        for p in parts { items.append(Self.tree(p)) }
        put(key, .array(items))
    }
    public mutating func null(_ key: String) { put(key, .null) }
}

extension Snapshot {
    /// The snapshot in the neutral encoded form (`SnapshotTreeEncoder`): the same keys, in the same order, as `json`.
    public var tree: JSONTree { SnapshotTreeEncoder.tree(self) }
}

extension ScreenSnapshot {
    /// The kind's own section as a tree (a page or a terminal renderer that does not link the kind's type reads it).
    public var sectionTree: JSONTree? { section.map { SnapshotTreeEncoder.tree($0) } }
}
