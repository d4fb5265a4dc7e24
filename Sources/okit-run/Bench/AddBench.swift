import Foundation
import OKitBackends
import OKitEngine
import OKitLua

/// `add_one` and `delete_one` (performance.md): the bench shop as a Lua app with the books list open (rowSort name,
/// group name/initial, search, index), driven by the commands a person or program sends — `add` answered by
/// `respond OK <name>`, `delete <row>` answered Yes — each timed until the next snapshot of the list.
struct AddBench {
    static let app = BenchShop.luaShopApp + """
    okit.list("books", {
      type = "Book", dataPath = "books", titlePath = "%Books", add = "#true", addName = "name", delete = "#true",
      rowSort = "name", group = "name/initial", search = "#true", searchPath = "name", index = "#true",
      cell = { path = "name" },
    })
    okit.app { id = "bench-add", version = 1, home = { "books" } }
    """

    let luaApp: LuaApp
    let driver: Driver

    /// Loads the app on `folder` (whose models/default.json is the bench shop) and opens the list.
    init(folder: URL) throws {
        let appFile = folder.appendingPathComponent("add-app.lua")
        try AddBench.app.write(to: appFile, atomically: true, encoding: .utf8)
        var options = LuaAppOptions()
        options.storageKinds = .builtIn
        options.dataFolder = folder
        options.print = { _ in }
        luaApp = try LuaApp(options: options)
        try luaApp.load(appFile: appFile)
        try luaApp.session.start(home: ["books"], menu: nil)
        driver = Driver(shell: luaApp.session.shell, host: luaApp.session)
        _ = try luaApp.session.shell.snapshot(offset: 0, limit: 50)
        // The id index is there before the first add (index_build times building it; an add should not).
        _ = luaApp.engine.idIndex.count
    }

    /// One add with its name per round, until the list's next snapshot; ms per add (the mean over `rounds`).
    func addOne(rounds: Int) throws -> Double {
        var r = BenchShop.Random(state: 11)
        var times: [Double] = []
        times.reserveCapacity(rounds)
        for k in 0..<rounds {
            let name = BenchShop.words[r.below(BenchShop.words.count)].capitalized + " Added \(k)"
            let t = BenchRunner.now()
            try driver.run("add", [:])
            try driver.run("respond", ["action": .string("OK"), "fields": .list([.string(name)])])
            let snap = try luaApp.session.shell.snapshot(offset: 0, limit: 50)
            times.append(Double(BenchRunner.now() - t) / 1e6)
            if snap.alert != nil { throw BenchError("add \(k) left an alert open") }
        }
        return times.reduce(0, +) / Double(times.count)
    }

    /// One delete of a row the list shows (confirmed) per round, until the next snapshot; ms per delete (the mean).
    func deleteOne(rounds: Int) throws -> Double {
        var r = BenchShop.Random(state: 12)
        var times: [Double] = []
        for _ in 0..<rounds {
            let row = 1 + r.below(50)
            let t = BenchRunner.now()
            try driver.run("delete", ["row": .int(row)])
            try driver.run("respond", ["action": .string("Yes")])
            _ = try luaApp.session.shell.snapshot(offset: 0, limit: 50)
            times.append(Double(BenchRunner.now() - t) / 1e6)
        }
        return times.reduce(0, +) / Double(times.count)
    }
}
