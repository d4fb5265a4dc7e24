import CLua
import Foundation
import OKitEngine

/// A test as `okit-run test --list` shows it: its full name, where it is declared, and whether it is pending.
public struct FlowTestListing: Sendable, Equatable {
    public var file: String
    public var name: String
    public var location: String?
    public var pending: Bool
    /// A block whose body raised an error (a spec's describe): its tests are not known; the error's message.
    public var broken: String?
}

/// Which tests of a file run and in what order: the name filter, `#tags`, the shuffle seed (docs/testing.md), and
/// listing them without running them.
extension FlowTestFile {
    /// Pushes `{ filter =, filterOut =, tags =, excludeTags =, sort =, stopOnFailure =, seed =, runSeed = }` for `T.run` and `T.list`.
    func pushSelection() {
        let lua = host.lua
        lua.newTable(hash: 6)
        if !options.filters.isEmpty { lua.push(.array(options.filters.map(LuaValue.string))); lua.rawSet(-2, "filter") }
        if !options.filterOut.isEmpty { lua.push(.array(options.filterOut.map(LuaValue.string))); lua.rawSet(-2, "filterOut") }
        if !options.tags.isEmpty { lua.push(.array(options.tags.map(LuaValue.string))); lua.rawSet(-2, "tags") }
        if !options.excludeTags.isEmpty {
            lua.push(.array(options.excludeTags.map(LuaValue.string)))
            lua.rawSet(-2, "excludeTags")
        }
        if options.sortTests { lua.push(true); lua.rawSet(-2, "sort") }
        if options.stopOnFailure { lua.push(true); lua.rawSet(-2, "stopOnFailure") }
        if let seed = options.shuffleSeed, options.shuffleTests {
            // a busted spec: busted's seed, the run's (busted shuffles each block with it)
            lua.push(Int64(bitPattern: bustedProject != nil ? seed : FlowTestFile.fileSeed(seed, url.lastPathComponent)))
            lua.rawSet(-2, "seed")
            lua.push(String(seed))      // the run's seed, as a failure in a shuffled block shows it
            lua.rawSet(-2, "runSeed")
        }
    }

    /// The seed of one file's shuffle: the run's seed mixed with the file's name (`tasks_test.lua`), so that a file
    /// keeps its order whether it runs alone or with others, and from whatever folder it is named (`tests/x_test.lua`
    /// from the app's folder, `app/tests/x_test.lua` from the repository's root, an absolute path: one order).
    static func fileSeed(_ seed: UInt64, _ path: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325          // FNV-1a
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return seed ^ hash
    }

    /// Loads the file and lists the tests a run would run, in its order, without running them.
    func list() throws -> [FlowTestListing] {
        defer { releaseAll() }
        let framework = try loadTests()
        let lua = host.lua
        framework.push()
        _ = lua.rawGet(-1, "list")
        lua.hostPush { lua_rotate(lua.L, -2, 1) }
        lua.pop()
        pushSelection()
        try lua.pcall(nargs: 1, nresults: 1)
        let value = lua.value(at: -1)
        lua.pop()
        guard case .table(let items, _) = value else { return [] }
        return items.compactMap { item in
            guard case .table(_, let fields) = item else { return nil }
            func text(_ key: String) -> String? {
                if case .string(let s)? = fields[.string(key)] { return s }
                return nil
            }
            return FlowTestListing(file: displayPath, name: text("name") ?? "?", location: text("where"),
                                   pending: fields[.string("pending")] == .bool(true), broken: text("broken"))
        }
    }
}
