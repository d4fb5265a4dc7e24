import ArgumentParser
import Foundation
import OKitEngine
import OKitLua

/// `okit-run APP.lua`: loads an app; with `--script` runs a Lua file against it and stores the state;
/// without, prints its models as JSON (until the screens arrive).
struct RunApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an app (the default command: okit-run APP.lua)."
    )

    @Argument(help: "The app's Lua file.")
    var app: String

    @OptionGroup var dataFolder: DataFolderOption

    @OptionGroup var running: AppRunOptions

    @Option(name: .long, help: "Run this Lua file with `okit` and the app's models, then store the state and exit.")
    var script: String?

    @Option(name: .long, help: "Write the session as a flow test to a path ending in _test.lua (okit-run test runs it), or else its commands as JSON lines (okit-run replay reads them).")
    var record: String?

    @Flag(name: .long, help: "Speak the JSON-lines protocol on stdin/stdout even on a terminal.")
    var json = false

    @Flag(name: .long, help: "No colours in the terminal shell (also NO_COLOR, TERM=dumb, or stdout not a terminal).")
    var noColor = false

    func run() throws {
        // A person's session: large temporary blocks go back to the system when freed (its peak memory,
        // performance.md). Not for serve, whose 64–128 KiB response buffers would each be a new mapping.
        FreedMemory.keepLargeBlocksMapped()
        let loader = AppLoader.run
        let appURL = try loader.appFile(app)
        let dataFolder = try self.dataFolder.folder(for: appURL)
        try running.recoverModels(app: appURL, in: dataFolder, command: "okit-run")
        let fixtures = try flowTestFixtures(dataFolder: dataFolder)
        let luaApp = try loader.load(appURL, dataFolder: dataFolder) { options in
            running.settings.apply(to: &options)
            // A script's stdout carries nothing else: its print goes there, as `lua script.lua` prints (lua-api.md).
            if script != nil { options.print = { _ = StandardStreams.output($0 + "\n") } }
        }
        // The warnings of loading are on stderr already; the ones logged later and not shown by a front end are
        // printed there at exit.
        let warnings = WarningFeed(engine: luaApp.engine, alreadyShown: luaApp.engine.warnings.count)
        defer { warnings.printUnshown() }
        if let script {
            do {
                try luaApp.runScript(URL(fileURLWithPath: script))
            } catch {
                try? luaApp.storeState()
                throw RunFailure(code: 1, message: "\(error)")
            }
            try RunApp.storeAndCompact(luaApp)
            return
        }
        try startRecording(luaApp, appURL: appURL, fixtures: fixtures)
        StopSignals.install()
        var end = SessionEnd.ended
        if !luaApp.shell.home.isEmpty {
            let quitStore = QuitStore { try RunApp.storeAtExit(luaApp) }
            // On a terminal: the shell; otherwise (or with --json): the JSON-lines protocol.
            if json || isatty(STDIN_FILENO) == 0 {
                // A program reads stdout only: its first answer carries the warnings of loading too.
                warnings.shown = 0
                end = JSONLinesDriver(session: luaApp.session, warnings: warnings, quitStore: quitStore).run()
            } else {
                let color = TerminalShell.usesColor(noColor: noColor, environment: ProcessInfo.processInfo.environment,
                                                    outputIsTerminal: isatty(STDOUT_FILENO) == 1)
                end = TerminalShell(session: luaApp.session, color: color, warnings: warnings, quitStore: quitStore).run()
            }
        } else {
            // An app without screens: its models as JSON, one line each.
            for m in luaApp.engine.models {
                print("{\"model\":\"\(m.name)\",\"data\":\(luaApp.engine.json(of: m))}")
            }
        }
        let unwritten = finishRecording(luaApp)
        try RunApp.finish(luaApp, end)
        if let unwritten { throw unwritten }
        if let sig = StopSignals.received {
            StandardStreams.error("okit-run: stored the state and stopped (signal \(sig))\n")
            throw RunFailure(code: 128 + sig, message: "")
        }
        // Done and stored: the process ends here, and its memory goes back to the system whole. Returning would
        // release the app, its models and every entity one by one first — 10–15 % of a 100,000-book session's
        // time (perf, issue 38) for nothing anyone sees.
        warnings.printUnshown()
        luaApp.session.closeStorages()          // a SQLite model's write-ahead log goes back into its file
        Foundation.exit(0)
    }

    /// With `--record NAME_test.lua`: refuses an existing test file before anything loads, and copies the model
    /// files the session starts from (nil when there are none, or without a flow test to record).
    func flowTestFixtures(dataFolder: URL) throws -> URL? {
        guard let record, FlowTestRecorder.isFlowTest(record), script == nil else { return nil }
        do {
            try FlowTestRecorder.checkFree(URL(fileURLWithPath: record), path: record)
            try FlowTestRecorder.checkWritable(URL(fileURLWithPath: record), path: record)
            return try FlowTestFixtures.capture(dataFolder: dataFolder, passphrase: ProcessInfo.processInfo.environment["OKIT_PASSPHRASE"])
        } catch {
            throw RunFailure(code: 2, message: "okit-run: --record: \(error)")
        }
    }

    /// `--record`: a flow test recorder for a path ending in `_test.lua`, else a session log (JSON lines).
    func startRecording(_ luaApp: LuaApp, appURL: URL, fixtures: URL?) throws {
        guard let record, !luaApp.shell.home.isEmpty else {
            if let fixtures { try? FileManager.default.removeItem(at: fixtures) }
            return
        }
        let now = luaApp.engine.clock.now
        if FlowTestRecorder.isFlowTest(record) {
            let start = FlowTestRecorder.Start(app: appURL.standardizedFileURL, testFile: URL(fileURLWithPath: record).standardizedFileURL,
                                               now: now, seed: running.clock == "virtual" ? (running.seed ?? 0) : nil,
                                               language: running.lang, fixtures: fixtures,
                                               // On the virtual clock the day is the app's, as serve --dev writes it.
                                               recordedOn: running.clock == "virtual" ? now : Date(),
                                               recordedWith: "okit-run --record")
            luaApp.driver.flowRecorder = FlowTestRecorder(start: start, clock: luaApp.engine.clock)
            return
        }
        if record.hasSuffix(".lua") {
            let test = String(record.dropLast(".lua".count)) + "_test.lua"
            StandardStreams.error("okit-run: note: \(record) does not end in _test.lua, so the session is recorded as JSON lines "
                + "for okit-run replay, not as a flow test; for a flow test record to \(test)\n")
        }
        let header = SessionRecorder.Header(app: appURL.standardizedFileURL.path, now: now, seed: running.seed ?? 0, language: running.lang)
        do {
            luaApp.driver.recorder = try SessionRecorder(url: URL(fileURLWithPath: record), header: header, clock: luaApp.engine.clock)
        } catch {
            throw RunFailure(code: 2, message: "okit-run: cannot write the session log \(record): \(error.localizedDescription)")
        }
    }

    /// Writes the recorded flow test when the session ends, saying where; the failure to write it, if any.
    func finishRecording(_ luaApp: LuaApp) -> RunFailure? {
        guard let recorder = luaApp.driver.flowRecorder, let record else { return nil }
        do {
            try recorder.write()
            let count = recorder.lines.count == 1 ? "1 line" : "\(recorder.lines.count) lines"
            StandardStreams.error("okit-run: recorded \(count) as \(record) (run it: okit-run test \(record))\n")
            if let note = recorder.unsealedNote {
                let folder = (record as NSString).deletingLastPathComponent
                StandardStreams.error("okit-run: " + (folder.isEmpty ? "" : folder + "/") + note + "\n")
            }
            return nil
        } catch {
            return RunFailure(code: 2, message: "okit-run: cannot write the flow test \(record): \(FlowTestRecorder.plainReason(error))")
        }
    }

    /// Stores the state and writes every model whole (so each `<model>.json` is complete); exit code 4 on failure.
    /// Changes an HTTP server did not take are kept in `<data>/okit/pending/` and named in a warning.
    static func storeAndCompact(_ luaApp: LuaApp) throws {
        do {
            try storeAtExit(luaApp)
        } catch {
            throw RunFailure(code: 4, message: "okit-run: \(CommandLineAdvice.message(for: error))")
        }
    }

    /// The end of a session (cli.md "Storing, stopping and warnings"): after `quit` the state is stored already;
    /// after `quit!` nothing is stored (exit 4 when a model had changes); else it is stored now, and when that
    /// fails the error and what is lost are said, exit 4.
    static func finish(_ luaApp: LuaApp, _ end: SessionEnd) throws {
        switch end {
        case .quit:
            return
        case .quitWithoutStoring:
            guard luaApp.engine.models.contains(where: \.isDirty) else { return }
            throw RunFailure(code: 4, message: QuitStore.lostLine("left with quit!"))
        case .ended:
            do {
                try storeAtExit(luaApp)
            } catch {
                let how = StopSignals.received.map { "stopped (signal \($0))" } ?? "exited"
                throw RunFailure(code: 4, message: "okit-run: \(CommandLineAdvice.message(for: error))\n" + QuitStore.lostLine(how))
            }
        }
    }

    /// Stores the state and writes every model whole; the models whose changes stay pending are named on stderr.
    static func storeAtExit(_ luaApp: LuaApp) throws {
        do {
            let pending = try luaApp.session.storeAtExit()
            let folder = luaApp.options.dataFolder.map { DataFolder($0).pending } ?? DataFolder.relativePending
            for (model, reason) in pending {
                if luaApp.engine.storage(of: model) is SharedModelStorage {
                    StandardStreams.error("okit-run: warning: the changes to shared model \"\(model)\" are not in the database yet (\(reason)); the next run stores them, merged field by field with what others stored meanwhile\n")
                    continue
                }
                let text = "okit-run: warning: the changes to model \"\(model)\" are not on the server yet (\(reason)); "
                    + "they are kept in \(folder) and sent by the next run (a conflict: okit-run sync --keep-local or --take-remote)\n"
                StandardStreams.error(text)
            }
        }
    }

    /// `$XDG_DATA_HOME/okit/<app folder name>`, else `$HOME/.local/share/okit/<app folder name>` (`DefaultDataFolder`).
    static func defaultDataFolder(for app: URL) throws -> URL {
        try DefaultDataFolder.resolve(for: app, environment: ProcessInfo.processInfo.environment) {
            StandardStreams.error($0 + "\n")
        }
    }
}
