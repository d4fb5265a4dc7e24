import ArgumentParser
import OKitEngine
import OKitLua

/// `okit-run`: runs okit apps, their scripts and benchmarks.
struct OKitRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "okit-run",
        abstract: "Run okit apps: models, bindings and screens declared in Lua.",
        subcommands: [RunApp.self, ServeCommand.self, CheckApp.self, TestCommand.self, ReplayCommand.self, BackupCommand.self, KeysCommand.self, SyncCommand.self, ConvertCommand.self, Version.self, BenchCommand.self, StoreLoop.self],
        defaultSubcommand: RunApp.self
    )
}

/// A failure with its exit code and a one- or two-line message.
struct RunFailure: Error {
    let code: Int32
    let message: String
}

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the versions of okit and Lua.")
    func run() {
        print("okit 0.1.0 (\(LuaRuntimeInfo.release))")
    }
}
