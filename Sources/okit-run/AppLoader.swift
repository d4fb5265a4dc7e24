import ArgumentParser
import Foundation
import OKitBackends
import OKitEngine
import OKitLua

/// `--data DIR`: the data folder option of every subcommand that opens an app's data folder (run, backup, keys,
/// sync). replay's `--data` is its own: its default is a fresh temporary folder.
struct DataFolderOption: ParsableArguments {
    @Option(name: .long, help: "The data folder (default: $XDG_DATA_HOME/okit/<app folder name>, else $HOME/.local/share/okit/<app folder name>).")
    var data: String?

    /// The folder `--data` names, else the app's default data folder (`DefaultDataFolder`: a relative
    /// XDG_DATA_HOME is ignored with a warning, a HOME that is not a folder refused).
    func folder(for appURL: URL) throws -> URL {
        try data.map { URL(fileURLWithPath: $0) } ?? RunApp.defaultDataFolder(for: appURL)
    }

    /// `folder(for:)` without its warning and refusal: where the data would be, for a message or a listing that
    /// does not make the folder.
    func namedFolder(for appURL: URL) -> URL {
        data.map { URL(fileURLWithPath: $0) } ?? DefaultDataFolder.path(for: appURL, environment: ProcessInfo.processInfo.environment)
    }
}

/// `--app APP.lua [--data DIR]`: the options of the subcommands that work on an app's data without starting a
/// front end (backup, sync).
struct AppOptions: ParsableArguments {
    @Option(name: .long, help: "The app file.")
    var app: String

    @OptionGroup var dataFolder: DataFolderOption

    /// The data folder these options name.
    var folder: URL { dataFolder.namedFolder(for: URL(fileURLWithPath: app)) }
}

/// Loads an app for one subcommand, with that subcommand's messages and exit codes: the app file must exist
/// (exit 2, "<command>: no app file at PATH"); a failure of the app's code is exit 3, of its storage exit 4.
/// Every subcommand that takes an app finds it and loads it here; the differences between them are the
/// properties below, one loader per subcommand at the end of this file.
struct AppLoader: Sendable {
    /// The start of the subcommand's messages: "okit-run", "okit-run backup", …
    let command: String
    /// The "no app file" message names the file by its absolute path rather than as given.
    var namesAbsolutePath = false
    /// Words after the "no app file" message.
    var missingHint = ""
    /// Lua's `print` goes to stdout (else nowhere: the subcommand's own output is there).
    var printsToStdout = true
    /// What the app declared but okit ignored is printed on stderr after loading.
    var printsWarnings = true
    /// Every failure to load is exit 3 with the error's message alone (check: it loads on a scratch folder).
    var everyFailureIsTheApps = false

    /// The app file at `path`; exit code 2 when there is none.
    func appFile(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path)
        var folder: ObjCBool = false
        let shown = namesAbsolutePath ? url.path : path
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) else {
            throw RunFailure(code: 2, message: "\(command): no app file at \(shown)" + (missingHint.isEmpty ? "" : " " + missingHint))
        }
        if folder.boolValue {
            // A folder is not run as an app (Lua would say only that it cannot read it): the file in it that is one.
            let inside = url.appendingPathComponent("app.lua")
            let hint = FileManager.default.fileExists(atPath: inside.path)
                ? "give its app file: \((shown as NSString).appendingPathComponent("app.lua"))" : "give the app's .lua file"
            throw RunFailure(code: 2, message: "\(command): \(shown) is a folder, not an app file; \(hint)")
        }
        return url
    }

    /// Loads the app at `appURL` (see ``appFile(_:)``) on `dataFolder`, with the options `configure` sets; a
    /// failure is exit code 3 (its code) or 4 (its storage), with the message.
    func load(_ appURL: URL, dataFolder: URL, configure: (inout LuaAppOptions) -> Void = { _ in }) throws -> LuaApp {
        var options = LuaAppOptions()
        options.storageKinds = Self.storageKinds
        options.screenKinds = Self.screenKinds
        options.dataFolder = dataFolder
        if !printsToStdout { options.print = { _ in } }
        options.session.remedyWording = CommandLineAdvice.words(for:)     // okit-run's commands, flags and variables
        configure(&options)
        var made: LuaApp?
        // What the app declared but okit ignored, and what the data folder needs (an unfinished key change): said
        // also when the load then stops (before its error), as a name okit ignored may be why.
        defer {
            if printsWarnings, let made {
                for w in made.engine.warnings { StandardStreams.error("okit-run: warning: \(w)\n") }
            }
        }
        do {
            let luaApp = try LuaApp(options: options)
            made = luaApp
            try luaApp.load(appFile: appURL)
            return luaApp
        } catch where everyFailureIsTheApps {
            throw RunFailure(code: 3, message: CommandLineAdvice.message(for: error))
        } catch let e as AppLoadError {
            throw RunFailure(code: e.isStorage ? 4 : 3, message: e.message)
        } catch {
            throw RunFailure(code: 3, message: "\(appURL.relativePath): \(CommandLineAdvice.message(for: error))")
        }
    }

    /// The app file `--app` names, loaded on the data folder `--data` names.
    func load(_ options: AppOptions, configure: (inout LuaAppOptions) -> Void = { _ in }) throws -> LuaApp {
        let appURL = try appFile(options.app)
        return try load(appURL, dataFolder: try options.dataFolder.folder(for: URL(fileURLWithPath: options.app)), configure: configure)
    }
}

/// The kinds okit-run gives every app — run, --json, serve, check, backup, sync, convert, replay (`load`) — and
/// every app a flow test launches (`okit-run test`): the one place a kind of one's own is registered for okit-run
/// (docs/engine.md "Where to put a new screen kind", step 4).
extension AppLoader {
    /// The storage kinds: the engine's and the backends' okit-run links (`StorageRegistry.builtIn`). A kind of
    /// one's own is registered on them here: `var r = StorageRegistry.builtIn; r.register(.s3, options: ["bucket"],
    /// S3Storage.factory); return r`.
    static var storageKinds: StorageRegistry { StorageRegistry.builtIn }

    /// The screen kinds: the built-in ones (`ScreenKinds.builtIn`), then a kind of one's own as one more element
    /// (`+ [.kanban]`). A kind that cannot be registered — a command of another kind's name with other arguments,
    /// or of a name the driver keeps (`ScreenKinds.reservedCommandNames`) — stops okit-run at its start, saying why.
    static let screenKinds = ScreenKinds(ScreenKinds.builtIn.kinds + [])
}

extension AppLoader {
    static let run = AppLoader(command: "okit-run")
    /// check loads on a scratch folder and reports its problems on stdout itself.
    static let check = AppLoader(command: "okit-run", printsToStdout: false, printsWarnings: false, everyFailureIsTheApps: true)
    static let backup = AppLoader(command: "okit-run backup", printsToStdout: false)
    static let sync = AppLoader(command: "okit-run sync", printsToStdout: false)
    /// keys passphrase does not load the app: it only needs its default data folder.
    static let keys = AppLoader(command: "okit-run keys passphrase", namesAbsolutePath: true)
    static let replay = AppLoader(command: "okit-run replay", namesAbsolutePath: true, missingHint: "(pass --app)")
}
