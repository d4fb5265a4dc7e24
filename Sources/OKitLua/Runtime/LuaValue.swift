/// A Lua value copied out of a state: plain data that can live anywhere (Sendable).
///
/// Integers and floats stay apart (`3` is `.int(3)`, `3.0` is `.double(3)`); strings that are not valid UTF-8
/// are `.bytes`; functions, threads and userdata are not copied (`.opaque` with their type name).
public enum LuaValue: Sendable, Equatable {
    case `nil`
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    /// A Lua string that is not valid UTF-8.
    case bytes([UInt8])
    /// A table: its array part (keys exactly 1…n) or its entries.
    case table(array: [LuaValue], hash: [LuaKey: LuaValue])
    /// A function, thread or userdata (or, from `value(at:)`, a table in a cycle or nested too deep): not copied.
    case opaque(String)

    public static func array(_ items: [LuaValue]) -> LuaValue { .table(array: items, hash: [:]) }
    public static func map(_ entries: [LuaKey: LuaValue]) -> LuaValue { .table(array: [], hash: entries) }
}

/// A key of a copied table.
public enum LuaKey: Hashable, Sendable {
    case int(Int64)
    case string(String)
    /// A float key that has no integer value (`t[1.5]`; Lua turns `t[2.0]` into `t[2]`).
    case double(Double)
    case bool(Bool)
    /// A key that is not plain data (a table, function or userdata; a non-UTF-8 string): its type name.
    case other(String)
}
