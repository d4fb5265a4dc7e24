/// A Lua value copied out of a state: plain data that can live anywhere (Sendable).
public enum LuaValue: Sendable, Equatable {
    case `nil`
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    /// A Lua string that is not valid UTF-8.
    case bytes([UInt8])
    /// A table: its array part (keys 1…n) and its other entries.
    case table(array: [LuaValue], hash: [LuaKey: LuaValue])
    /// A function, thread or userdata: not copied.
    case opaque(String)

    public static func array(_ items: [LuaValue]) -> LuaValue { .table(array: items, hash: [:]) }
    public static func map(_ entries: [LuaKey: LuaValue]) -> LuaValue { .table(array: [], hash: entries) }
}

/// A key of a copied table.
public enum LuaKey: Hashable, Sendable {
    case int(Int64)
    case string(String)
    case other(String)
}
