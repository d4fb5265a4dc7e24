import ArgumentParser
import Foundation
import OKitEngine
import OKitLua

/// `okit-run replay LOG`: runs a recorded session again on the virtual clock from the recorded start, with the
/// recorded seed, on a fresh data folder (or `--data`), answering each command as the JSON-lines protocol does;
/// at the end the state is stored, so the data folder holds the same files the session left.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded session (okit-run APP --record LOG, app:record()) again.",
        discussion: "Prints one JSON-lines answer per command. The same starting data gives the same snapshots and the same stored files."
    )

    @Argument(help: "The session log.")
    var log: String

    @Option(name: .long, help: "The data folder to start from (default: a fresh temporary one, printed on stderr).")
    var data: String?

    @Option(name: .long, help: "The app file (default: the one the log names).")
    var app: String?

    @Flag(name: .long, help: "Read the secrets the log left out (passwords, passphrases) from stdin, one per line, in order.")
    var secretsStdin = false

    func run() throws {
        guard let text = FileManager.default.contents(atPath: log).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw RunFailure(code: 2, message: "okit-run replay: cannot read \(log)")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard let first = lines.first, let header = SessionRecorder.header(of: first) else {
            throw RunFailure(code: 2, message: "okit-run replay: \(log):1: not a session log (the first line must be {\"okit\":\"session\",\"app\":…,\"now\":…})")
        }
        lines.removeFirst()
        let loader = AppLoader.replay
        let appURL = try loader.appFile(app ?? header.app)
        let folder: URL
        if let data {
            folder = URL(fileURLWithPath: data)
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-replay-\(UUID().uuidString.prefix(8))")
            StandardStreams.error("okit-run replay: data folder \(folder.path)\n")
        }
        let luaApp = try loader.load(appURL, dataFolder: folder) { options in
            options.virtualNow = header.now
            options.seed = header.seed
            options.language = header.language
        }
        if secretsStdin { luaApp.driver.secretSupply = { readLine(strippingNewline: true) } }
        let driver = JSONLinesDriver(session: luaApp.session, quitStore: QuitStore { try RunApp.storeAtExit(luaApp) })
        var end = SessionEnd.ended
        for line in lines {
            // A line the session answered without running a command: the same error again.
            if let unread = SessionRecorder.unread(line) {
                StandardStreams.output(driver.error(unread) + "\n")
                continue
            }
            let (answer, ended) = driver.handle(line)
            StandardStreams.output((answer + "\n"))
            if let ended { end = ended; break }
        }
        try RunApp.finish(luaApp, end)
    }
}
