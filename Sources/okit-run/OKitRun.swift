import ArgumentParser
import OKitEngine
import OKitLua

/// `okit-run`: runs okit apps, their flow tests and benchmarks.
struct OKitRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "okit-run",
        abstract: "Run okit apps: models, bindings and screens declared in Lua.",
        subcommands: [Version.self, BenchCommand.self, StoreLoop.self]
    )
}

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the versions of okit and Lua.")
    func run() {
        print("okit 0.1.0 (\(LuaRuntimeInfo.release))")
    }
}
