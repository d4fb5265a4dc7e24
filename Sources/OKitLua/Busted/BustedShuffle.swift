import Foundation

/// busted 2.1.1's shuffle (`busted.utils.shuffle`): `math.randomseed(seed)`, then Fisher–Yates from the last
/// element down, `math.random(n)` choosing the one swapped in. Run in Lua 5.4 (the Lua busted runs in, and the one
/// okit links), so that one seed gives busted's order of spec files (`--shuffle`, `--shuffle-files`).
public enum BustedShuffle {
    /// `items` in the order busted's shuffle with `seed` gives them (as given when Lua cannot run, which only a
    /// lack of memory causes).
    public static func shuffled<T>(_ items: [T], seed: UInt64) -> [T] {
        guard items.count > 1, let order = try? permutation(count: items.count, seed: seed) else { return items }
        return order.map { items[$0] }
    }

    /// The indices 0..<count in busted's shuffled order.
    static func permutation(count: Int, seed: UInt64) throws -> [Int] {
        let lua = try LuaState(memoryLimit: 16 << 20)
        defer { lua.close() }
        try LuaSandbox().apply(to: lua)
        try lua.load(source: """
            local n, seed = ...
            local t = {}
            for i = 1, n do t[i] = i - 1 end
            math.randomseed(seed)
            while n >= 2 do
              local k = math.random(n)
              t[n], t[k] = t[k], t[n]
              n = n - 1
            end
            return table.concat(t, " ")
            """, chunkName: "=busted.shuffle")
        lua.push(Int64(count))
        lua.push(Int64(bitPattern: seed))
        try lua.pcall(nargs: 2, nresults: 1)
        defer { lua.pop() }
        guard case .string(let text) = lua.value(at: -1) else { return Array(0..<count) }
        let order = text.split(separator: " ").compactMap { Int($0) }
        return order.count == count ? order : Array(0..<count)
    }
}
