import ArgumentParser
import Dispatch
import Foundation
import OKitEngine
import OKitLua
import OKitWeb

/// `okit-run serve APP.lua`: the app in a browser, for many people at once (web.md). The app loads on the
/// engine's own executor; every request runs there, one at a time; SIGINT/SIGTERM store every model and exit
/// 128 + the signal.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve an app as web pages (one session per browser, live updates)."
    )

    @Argument(help: "The app's Lua file.")
    var app: String

    @Option(name: .long, help: "The address to listen on (a non-loopback one needs --token-file).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0: any free port).")
    var port = 8480

    @Option(name: .long, help: "Most browser sessions at once.")
    var sessions = 100

    @Option(name: .long, help: "A file holding the login token (required off loopback and behind a proxy).")
    var tokenFile: String?

    @OptionGroup var dataFolder: DataFolderOption

    @OptionGroup var running: AppRunOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard sessions >= 1 else { throw ValidationError("--sessions must be at least 1") }
        if !ServeOptions.isLoopback(host), tokenFile == nil {
            throw ValidationError("--host \(host) is not a loopback address: give --token-file FILE so that only people with the token get in")
        }
    }

    func run() throws {
        let loader = AppLoader(command: "okit-run serve")
        let appURL = try loader.appFile(app)
        let folder = dataFolder.folder(for: appURL)
        var options = ServeOptions()
        options.host = host
        options.port = port
        options.maxSessions = sessions
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw RunFailure(code: 2, message: "okit-run serve: cannot read the token file \(tokenFile)")
            }
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.count >= 8 else { throw RunFailure(code: 2, message: "okit-run serve: the token in \(tokenFile) is shorter than 8 characters") }
            options.token = token
        }
        try running.recoverModels(in: folder, command: "okit-run serve")
        let settings = running.settings
        let web = WebApp(options: options, log: { StandardStreams.error($0 + "\n") })
        let loaded = Blocking.wait {
            try await web.load {
                let luaApp = try loader.load(appURL, dataFolder: folder) { settings.apply(to: &$0) }
                return WebHostedApp(session: luaApp.session, owner: luaApp)
            }
        }
        if case .failure(let error) = loaded { throw error }
        StopOnSignals.install(web)
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let serveOptions = options
        let served = Blocking.wait {
            try await WebServer.run(web, options: serveOptions) { port in
                StandardStreams.error("okit-run: serving \(appURL.lastPathComponent) at http://\(shownHost):\(port)/\n")
            }
        }
        if case .failure(let error) = served {
            _ = Blocking.wait { await web.storeAtExit() }
            throw RunFailure(code: 4, message: "okit-run serve: cannot listen on \(host):\(port): \(error)")
        }
    }
}

/// Waits for async work from the synchronous command (the main thread blocks; the work runs elsewhere).
enum Blocking {
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.set(.success(try await work())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return box.get() ?? .failure(RunFailure(code: 1, message: "okit-run: interrupted"))
    }
}

/// The result of the async work, handed to the waiting thread.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written once by the task and read by the waiting thread only after the
    // semaphore signalled (which orders the write before the read); the lock makes that explicit.
    private let lock = NSLock()
    private var value: Result<T, Error>?
    func set(_ v: Result<T, Error>) { lock.lock(); value = v; lock.unlock() }
    func get() -> Result<T, Error>? { lock.lock(); defer { lock.unlock() }; return value }
}

/// SIGINT and SIGTERM while serving: every model is stored, then the process exits 128 + the signal.
enum StopOnSignals {
    // nonisolated(unsafe): appended to on the main thread only, once per signal, before serving starts; the
    // sources are kept here only so that they stay alive.
    nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

    static func install(_ web: WebApp) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                Task {
                    if let error = await web.storeAtExit() { StandardStreams.error("okit-run serve: \(error)\n") }
                    StandardStreams.error("okit-run: stored the state and stopped (signal \(sig))\n")
                    exit(128 + sig)
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}
