import ArgumentParser
import Foundation
import OKitEngine
import OKitLua
import OKitPostgres

/// `okit-run check APP.lua`: loads the declarations on a scratch data folder and checks every binding of every
/// screen against the schema on the contexts it runs on; one line per problem and a summary line, all on stdout;
/// exit 3 when there is any problem.
struct CheckApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check every binding of an app's screens against its schema."
    )

    @Argument(help: "The app's Lua file.")
    var app: String

    func run() throws {
        let loader = AppLoader.check
        let url = try loader.appFile(app)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let luaApp: LuaApp
        do {
            luaApp = try loader.load(url, dataFolder: scratch) { options in
                options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
                options.checkBindings = false
                options.checkOnly = true
                // Shared models are checked without their database: declarations and bindings need no rows.
                options.storageKinds.register(.postgres) { _ in TransientStorage() }
            }
        } catch let f as RunFailure where f.code == 3 {
            // An app that does not load is a finding like the others: on stdout, with the summary (cli.md).
            print(f.message)
            print("\(url.lastPathComponent): 1 problem: the app does not load, so no screen was checked")
            throw RunFailure(code: 3, message: "")
        }
        let check = luaApp.checkApp()
        for p in check.problems { print(p) }
        print(check.summary)
        if !check.problems.isEmpty { throw RunFailure(code: 3, message: "") }
    }
}
