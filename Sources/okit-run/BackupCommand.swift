import ArgumentParser
import Foundation
import OKitBackends
import OKitEngine
import OKitLua

/// `okit-run backup create|restore|list|delete` (storage.md "Backups"): the backups screen's work from the command
/// line, on the app's data folder with its keys and schema.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Create, restore, list and delete the backups of an app's data.",
        subcommands: [Create.self, Restore.self, List.self, Delete.self]
    )


    static func fail(_ error: Error) -> RunFailure {
        if let f = error as? RunFailure { return f }
        return RunFailure(code: 4, message: "okit-run backup: \(CommandLineAdvice.message(for: error))")
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Store the app's state and back up every file of its data.")
        @Argument(help: "The backup's name (a file name: no /, \\, .. or leading dot).") var name: String
        @OptionGroup var options: AppOptions
        @Flag(name: .long, help: "A secure backup: sealed with a password, asked twice on the terminal.") var secure = false
        @Flag(name: .long, help: "A secure backup whose password is the first line of stdin.") var passwordStdin = false

        func run() throws {
            let app = try options.load("create")
            let password = (secure || passwordStdin) ? try SecretInput.newSecret("backup password", fromStdin: passwordStdin) : nil
            let bar = ProgressBar("backing up")
            do {
                try app.session.createBackup(name: name, password: password, progress: bar.update)
            } catch { bar.finish(); throw BackupCommand.fail(error) }
            bar.finish()
            let info = try app.session.listBackups().first { $0.name == (try? BackupStore.existingName(name)) }
            print("created \(info?.url.path ?? name)\(password != nil ? " (secure)" : "")")
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Verify a backup completely, then replace the app's data with it (everything or nothing).")
        @Argument(help: "A backup's name, or the path of a .okbackup file.") var backup: String
        @OptionGroup var options: AppOptions
        @Flag(name: .long, help: "The password of a secure backup is the first line of stdin.") var passwordStdin = false
        @Flag(name: .long, help: "Restore a backup made by another app (another okit.app id) too.") var force = false

        func run() throws {
            let app = try options.load("restore", restoreOtherApp: force)
            var password: String?
            do {
                if try app.session.isSecureBackup(name: backup) {
                    password = passwordStdin ? SecretInput.line() : SecretInput.ask("Password of \(backup): ")
                    guard password != nil else {
                        throw RunFailure(code: 2, message: "okit-run backup restore: \(backup) is a secure backup; give its password on a terminal or with --password-stdin")
                    }
                }
            } catch { throw BackupCommand.fail(error) }
            let bar = ProgressBar("restoring")
            let warned = app.engine.warnings.count
            do {
                try app.session.restoreBackup(name: backup, password: password, progress: bar.update)
                try RunApp.storeAndCompact(app)
            } catch { bar.finish(); throw BackupCommand.fail(error) }
            bar.finish()
            for w in app.engine.warnings.dropFirst(warned) { StandardStreams.error("okit-run: warning: \(w)\n") }
            print("restored \(backup)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the backups, newest first.")
        @OptionGroup var options: AppOptions
        @Flag(name: .long, help: "One JSON object per line.") var json = false

        func run() throws {
            let store = try options.store
            let backups: [BackupInfo]
            do { backups = try store.list() } catch { throw BackupCommand.fail(error) }
            for b in backups {
                let created = ISODate.format(b.createdAt, fractional: false)
                // A file that does not read as a backup is listed with why (its date is then the file's).
                if json {
                    let name = String(decoding: try JSONEncoder().encode(b.name), as: UTF8.self)
                    let damaged = try b.damaged.map { ",\"damaged\":" + String(decoding: try JSONEncoder().encode($0), as: UTF8.self) } ?? ""
                    print("{\"name\":\(name),\"createdAt\":\"\(created)\",\"secure\":\(b.secure),\"size\":\(b.size)\(damaged)}")
                } else {
                    print("\(b.name)\t\(created)\t\(b.secure ? "secure" : "plain")\t\(b.size) bytes" + (b.damaged.map { "\tdamaged: \($0)" } ?? ""))
                }
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a backup.")
        @Argument(help: "The backup's name.") var name: String
        @OptionGroup var options: AppOptions

        func run() throws {
            let app = try options.load("delete")
            do { try app.session.deleteBackup(name: name) } catch { throw BackupCommand.fail(error) }
            print("deleted \(name)")
        }
    }
}

/// What the backup commands do with the shared `--app`/`--data` options.
extension AppOptions {
    /// Loads the app on its data folder (taking the folder's lock), without starting a shell. `command`: the
    /// subcommand ("create", "restore", "delete"), whose advice a failure gets (`loadAdvice`).
    func load(_ command: String, restoreOtherApp: Bool = false) throws -> LuaApp {
        do {
            return try AppLoader.backup.load(self) { o in
                o.restoreOtherApp = restoreOtherApp
                o.restoreOverNewer = command == "restore"   // a restore replaces newer data, keeping it whole
            }
        } catch let f as RunFailure where f.code == 4 {
            let advice = AppOptions.loadAdvice(f.message, command: command, diskFull: DiskSpace.isFull(at: folder.path),
                                               app: app, folder: folder.path)
            throw RunFailure(code: 4, message: f.message + advice)
        }
    }

    /// What to do when the data does not load for `backup <command>`, fitted to the command and the cause: a
    /// full disk (`diskFull`, or the message says so) is named, and no model is to be moved aside for it; only a
    /// restore gets the way past a model that does not load (`--recover`), since a restore replaces it; a folder
    /// in use and a create or delete get nothing beyond the message.
    static func loadAdvice(_ message: String, command: String, diskFull: Bool, app: String, folder: String) -> String {
        if message.contains("in use") { return "" }
        let noSpace = message.contains("No space left on device") || message.contains("no space left on the disk")
        if noSpace || diskFull {
            if message.contains("free some space") { return "" }
            return "\n  the disk of \(folder) is full (nothing is damaged): free some space, then run the \(command) again"
        }
        guard command == "restore" else { return "" }
        let models = damagedModels(in: message)
        let named = models.isEmpty ? "MODEL" : models.joined(separator: " --recover ")
        let which = models.count == 1 ? "model \"\(models[0])\"" : "damaged model"
        return "\n  the current data does not load: to restore a backup over it, first move the \(which) aside with okit-run \(app) --data \(folder) --recover \(named) (nothing is deleted; a restore keeps what was moved aside), then run the restore again"
    }

    /// The models whose files (`…/okit/data/<model>.json`, `.journal`, `.sqlite`) a load error names, in order.
    static func damagedModels(in message: String) -> [String] {
        var models: [String] = []
        var rest = message[...]
        while let r = rest.range(of: "/okit/data/") {
            let name = rest[r.upperBound...].prefix { $0 != ":" && $0 != " " && $0 != "\n" && $0 != "/" }
            for ext in [".json", ".journal", ".sqlite"] where name.hasSuffix(ext) {
                let model = String(name.dropLast(ext.count))
                if !model.isEmpty, !models.contains(model) { models.append(model) }
            }
            rest = rest[r.upperBound...]
        }
        return models
    }

    /// The backups of the data folder, without loading the app (so they can be listed while its data does not load).
    var store: BackupStore {
        get throws {
            _ = try AppLoader.backup.appFile(app)
            var store = BackupStore(dataFolder: folder)
            store.forms = AppLoader.storageKinds.forms
            store.limits = LuaAppOptions().session.archiveLimits
            return store
        }
    }
}
