import Foundation
import Testing

/// Every subcommand of okit-run that takes an app finds it and opens its data folder through the same options
/// (`--data`, and `--app` or the app argument) and the same loader: a missing app file is exit code 2 with one
/// line, "<command>: no app file at PATH", before the data folder is touched; `--data` is where the data goes.
extension CommandLineTests {
    /// The arguments of each subcommand for an app file and a data folder, and the start of its messages.
    static func appCommands(app: String, data: String, log: String) -> [(args: [String], command: String, hint: String)] {
        [
            ([app, "--data", data], "okit-run", ""),
            (["run", app, "--data", data], "okit-run", ""),
            (["check", app], "okit-run", ""),
            (["backup", "create", "b1", "--app", app, "--data", data], "okit-run backup", ""),
            (["backup", "restore", "b1", "--app", app, "--data", data], "okit-run backup", ""),
            (["backup", "list", "--app", app, "--data", data], "okit-run backup", ""),
            (["backup", "delete", "b1", "--app", app, "--data", data], "okit-run backup", ""),
            (["sync", "--keep-local", "--app", app, "--data", data], "okit-run sync", ""),
            // With --data, keys passphrase needs no app: the app only names the default data folder.
            (["keys", "passphrase", "--app", app], "okit-run keys passphrase", ""),
            (["replay", log, "--app", app, "--data", data], "okit-run replay", " (pass --app)"),
        ]
    }

    @Test func aMissingAppFileIsTheSameUsageErrorInEverySubcommand() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build okit-run first (swift build)")
        let (file, data) = try app("")
        let folder = file.deletingLastPathComponent()
        let missing = folder.appendingPathComponent("missing.lua").path
        let log = folder.appendingPathComponent("session.log")
        try "{\"okit\":\"session\",\"app\":\"\(missing)\",\"now\":\"2019-05-01T10:00:00Z\"}\n".write(to: log, atomically: true, encoding: .utf8)
        for (args, command, hint) in Self.appCommands(app: missing, data: data.path, log: log.path) {
            let r = try run(args)
            #expect(r.code == 2, "\(args): \(r.err)")
            #expect(r.err == "\(command): no app file at \(missing)\(hint)\n", "\(args)")
            #expect(r.out.isEmpty, "\(args): \(r.out)")
            #expect(!FileManager.default.fileExists(atPath: data.path), "\(args) made the data folder")
        }
    }

    @Test func dataWithoutAFolderIsAUsageErrorInEverySubcommandThatTakesIt() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build okit-run first (swift build)")
        let (file, _) = try app("")
        for args in [[file.path], ["run", file.path], ["backup", "list", "--app", file.path], ["sync", "--keep-local", "--app", file.path],
                     ["keys", "passphrase"], ["replay", "session.log"]] {
            let r = try run(args + ["--data"])
            #expect(r.code == 2, "\(args): \(r.err)")
            #expect(r.err.hasPrefix("Error: Missing value for '--data <data>'"), "\(args): \(r.err)")
        }
    }

    /// `--data DIR` is where run, backup and sync store the app's data.
    @Test func dataNamesTheDataFolderInEverySubcommand() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build okit-run first (swift build)")
        let (file, _) = try app("okit.entity('Shop', { name = 'string' })\nshop = okit.model('Shop')\n")
        let folder = file.deletingLastPathComponent()
        for (k, args) in [[file.path], ["run", file.path], ["backup", "create", "b1", "--app", file.path],
                          ["sync", "--keep-local", "--app", file.path]].enumerated() {
            let data = folder.appendingPathComponent("data\(k)")
            let r = try run(args + ["--data", data.path])
            #expect(r.code == 0, "\(args): \(r.err)")
            #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("okit").path), "\(args)")
        }
    }
}
