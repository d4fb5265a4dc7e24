import ArgumentParser
import Dispatch
import Foundation
import OKitEngine
import OKitLua
import OKitWeb
import Synchronization

/// `okit-run serve APP.lua`: the app in a browser, for many people at once (web.md). The app loads on the
/// engine's own executor; every request runs there, one at a time; SIGINT/SIGTERM/SIGHUP store every model and exit
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

    @Option(name: .long, parsing: .unconditional, help: "The port to listen on (0: any free port).")
    var port = 8480

    @Option(name: .long, parsing: .unconditional, help: "Most browser sessions at once.")
    var sessions = 100

    @Option(name: .long, help: "A file holding the login token (required off loopback and behind a proxy).")
    var tokenFile: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("A host name the server answers for besides loopback and --host (repeatable); other Host headers get 421.", valueName: "name"))
    var allowHosts: [String] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds a new connection has to send its request headers.", valueName: "seconds"))
    var headerTimeout: Double = 10

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds a connection may sit idle (no request, or a body that stopped coming); live updates are exempt.", valueName: "seconds"))
    var idleTimeout: Double = 60

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Connections open at once, live-update streams not counted (past it the longest idle one is closed).", valueName: "n"))
    var maxConnections = 1024

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Connections open at once from one client address.", valueName: "n"))
    var maxClientConnections = 256

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp("The address of a proxy in front of the server, e.g. nginx's (repeatable): its connections carry everyone's and are not capped by --max-client-connections.", valueName: "address"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("client-header"), help: ArgumentHelp("The header a --trusted-proxy writes the client's address in: X-Forwarded-For (its last entry; the default), Forwarded (its last for=) or X-Real-IP. Only it is read.", valueName: "name"))
    var clientHeader = "X-Forwarded-For"

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Live-update streams open at once (one per open tab).", valueName: "n"))
    var maxStreams = 4096

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Backup uploads read at once.", valueName: "n"))
    var maxUploads = 2

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The longest text a person may store through a form, in characters (a cell's value, a prompt's field); a longer one is refused naming the cell.", valueName: "n"))
    var maxText = 65_536

    @Flag(name: .long, help: "Development mode, on loopback only: the app reloads when its Lua files change, and each page gets a Record bar that saves what you do as a flow test in the app's tests/ folder.")
    var dev = false

    @OptionGroup var dataFolder: DataFolderOption

    @OptionGroup var running: AppRunOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard sessions >= 1 else { throw ValidationError("--sessions must be at least 1") }
        guard headerTimeout > 0, headerTimeout <= 3600 else { throw ValidationError("--header-timeout must be more than 0 and at most 3600 seconds") }
        guard idleTimeout > 0, idleTimeout <= 86400 else { throw ValidationError("--idle-timeout must be more than 0 and at most 86400 seconds") }
        for (name, value) in [("--max-connections", maxConnections), ("--max-client-connections", maxClientConnections),
                              ("--max-streams", maxStreams), ("--max-uploads", maxUploads), ("--max-text", maxText)] where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
        for name in allowHosts where HostCheck(listenHost: "", allowed: [name]).allows(name) == false || name.isEmpty {
            throw ValidationError("--allow-host \(name) is not a host name (letters, digits, '-', '.'; an address in brackets for IPv6)")
        }
        for address in trustedProxies where !HostCheck.isAddress(address) {
            throw ValidationError("--trusted-proxy \(address) is not an IP address (the proxy's address as the server sees it, e.g. 127.0.0.1)")
        }
        if dev, let refusal = DevOptions.refusal(host: host, token: tokenFile != nil, allowedHosts: allowHosts) {
            throw ValidationError(refusal)
        }
        guard clientAddressHeader != nil else {
            throw ValidationError("--client-header \(clientHeader) is not a header okit-run serve reads a client's address from: write X-Forwarded-For, Forwarded or X-Real-IP (the one your proxy sets)")
        }
        if !ServeOptions.isLoopback(host), tokenFile == nil {
            throw ValidationError("--host \(host) is not a loopback address: give --token-file FILE so that only people with the token get in")
        }
    }

    /// The header `--client-header` names (nil: none okit-run serve reads).
    var clientAddressHeader: ProxyHeaders.ClientHeader? {
        ProxyHeaders.ClientHeader.allCases.first { $0.rawValue.lowercased() == clientHeader.lowercased() }
    }

    /// The login token in `path` (web.md "Security"): refused when the file cannot be read, is empty or holds fewer
    /// than 8 characters; a file other users of the machine may read or change is taken with a warning and the
    /// `chmod` that ends it, as ssh warns of a key file open to others (a token readable by all is no secret).
    static func token(from path: String) throws -> String {
        let cannot = RunFailure(code: 2, message: "okit-run serve: cannot read the token file \(path) (does it exist, and may this user read it?)")
        // Read as a stream (`/dev/null` or a named pipe has no size to read by), and no further than a token goes.
        guard let handle = FileHandle(forReadingAtPath: path) else { throw cannot }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 4097) ?? Data() else { throw cannot }
        guard data.count <= 4096, let text = String(data: data, encoding: .utf8) else {
            throw RunFailure(code: 2, message: "okit-run serve: the token file \(path) holds no token (more than 4096 bytes, or not UTF-8 text)")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw RunFailure(code: 2, message: "okit-run serve: the token file \(path) is empty: put a token of at least 8 characters in it (openssl rand -hex 16 > \(path))")
        }
        guard token.count >= 8 else { throw RunFailure(code: 2, message: "okit-run serve: the token in \(path) is shorter than 8 characters") }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            StandardStreams.error("okit-run serve: warning: other users of this machine may read or change the token file \(path) "
                                  + "(mode \(String(mode & 0o777, radix: 8))): chmod 600 \(path)\n")
        }
        return token
    }

    func run() throws {
        WebServer.runTasksOnEventLoops()
        let loader = AppLoader(command: "okit-run serve")
        let appURL = try loader.appFile(app)
        let folder = try dataFolder.folder(for: appURL)
        var options = ServeOptions()
        options.host = host
        options.port = port
        options.maxSessions = sessions
        options.allowedHosts = allowHosts
        options.headerTimeout = headerTimeout
        options.connectionIdleTimeout = idleTimeout
        options.maxConnections = maxConnections
        options.maxClientConnections = maxClientConnections
        options.trustedProxies = trustedProxies
        options.clientHeader = clientAddressHeader ?? .xForwardedFor
        options.maxStreams = maxStreams
        options.maxUploads = maxUploads
        options.maxText = maxText
        OpenFileLimit.raise(toAtLeast: maxConnections + maxStreams + 256)
        if let tokenFile { options.token = try ServeCommand.token(from: tokenFile) }
        try running.recoverModels(app: appURL, in: folder, command: "okit-run serve")
        if dev {
            options.dev = DevOptions(app: appURL, dataFolder: folder, dataStartedFresh: !DevOptions.hasModelFiles(folder),
                                     seed: running.clock == "virtual" ? (running.seed ?? 0) : nil, language: running.lang)
        }
        let settings = running.settings
        let web = WebApp(options: options, log: { StandardStreams.error($0 + "\n") })
        let advice = ServeAdvice()
        // The app from its files: at start, and in development mode at every live reload with what the running
        // app hands over (its models in memory, its data folder).
        let make: WebAppMaker = { handover in
            do {
                let luaApp = try loader.load(appURL, dataFolder: folder) {
                    settings.apply(to: &$0)
                    $0.session.remedyWording = { advice.words(for: $0) }    // okit-run's at start, then a browser's
                    $0.session.log = { StandardStreams.error(ServeAdvice.logText($0) + "\n") }
                    handover?.apply(to: &$0.session)
                }
                return WebHostedApp(session: luaApp.session, owner: luaApp)
            } catch let failure as RunFailure where handover != nil {
                throw ReloadFailure(message: failure.message)            // the page shows the message alone
            }
        }
        let loaded = Blocking.wait { try await web.load { try make(nil) } }
        if case .failure(let error) = loaded { throw error }
        advice.servePages()
        if dev { _ = Blocking.wait { await web.watchForReload(make) } }
        StopOnSignals.install(web)
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let serveOptions = options
        let served = Blocking.wait {
            try await WebServer.run(web, options: serveOptions) { port in
                StandardStreams.error("okit-run: serving \(appURL.lastPathComponent) at http://\(shownHost):\(port)/\n")
            }
        }
        if case .failure(let error) = served {
            _ = Blocking.wait { await web.storeAtExit() }    // the listen failure is what is said
            throw RunFailure(code: 4, message: "okit-run serve: cannot listen on \(shownHost):\(port): \(Self.listenFailure(error))")
        }
    }
}

extension ServeCommand {
    /// Why the address could not be listened on, in the operator's words and with okit-run's way out (the OS's
    /// words for another error): `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)` was shown as it was.
    static func listenFailure(_ error: any Error) -> String {
        switch WebServer.errorNumber(of: error) {
        case EADDRINUSE?: return "the address is in use (another server runs there?); choose another --port"
        case EADDRNOTAVAIL?: return "this machine has no such address; check --host"
        case EACCES?: return "not allowed to listen there (ports below 1024 need privileges); choose another --port"
        case let code?: return String(cString: strerror(code))
        case nil: return "\(error)"
        }
    }
}

/// A live reload's load failure: its message alone (the page shows where and what; no exit code applies).
struct ReloadFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The process's limit on open files: every connection is one, so serve raises the soft limit to the hard one
/// when it is below what the connection limits need.
enum OpenFileLimit {
    static func raise(toAtLeast needed: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(needed) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(needed))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
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

/// SIGINT, SIGTERM and SIGHUP while serving: every model is stored, then the process exits 128 + the signal; when that
/// store fails, it says the state was not stored and exits 4 (cli.md "Exit codes").
enum StopOnSignals {
    // nonisolated(unsafe): appended to on the main thread only, once per signal, before serving starts; the
    // sources are kept here only so that they stay alive.
    nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

    /// A model's changes its place did not take, kept on disk for the next start (not "stored": cli.md).
    static func pendingLine(_ p: WebApp.PendingAtStop) -> String {
        guard let count = p.count, let path = p.path else {
            return "the changes to model \"\(p.model)\" are not stored yet (\(p.reason)); the next run stores them"
        }
        let changes = count == 1 ? "1 change to model \"\(p.model)\" is" : "\(count) changes to model \"\(p.model)\" are"
        return "\(changes) not in the database yet (it is out of reach); kept in \(path), stored at the next start"
    }

    static func install(_ web: WebApp) {
        for sig in StopSignals.stopping {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                Task {
                    switch await web.storeAtExit() {
                    case .failure(let error):
                        StandardStreams.error("okit-run serve: \(CommandLineAdvice.message(for: error))\n")
                        StandardStreams.error("okit-run: stopped (signal \(sig)) WITHOUT storing the state: the changes since the last store that worked are lost\n")
                        exit(4)
                    case .success(let pending):
                        for p in pending { StandardStreams.error("okit-run: \(StopOnSignals.pendingLine(p))\n") }
                        StandardStreams.error(pending.isEmpty ? "okit-run: stored the state and stopped (signal \(sig))\n"
                                                              : "okit-run: stopped (signal \(sig)); everything else is stored\n")
                        exit(128 + sig)
                    }
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// serve's words for a remedy: okit-run's while the app loads at start — a refusal then goes to the console of
/// whoever runs the server (web.md "The server's own console keeps okit-run's words") — and a browser's once pages
/// are served (`BrowserAdvice`). The process's log lines are always okit-run's.
final class ServeAdvice: Sendable {
    private let serving = Atomic<Bool>(false)

    /// From now on remedies are worded for the pages.
    func servePages() { serving.store(true, ordering: .releasing) }

    func words(for remedy: Remedy) -> String {
        serving.load(ordering: .acquiring) ? BrowserAdvice.words(for: remedy) : CommandLineAdvice.words(for: remedy)
    }

    /// A line of the process's log on stderr: `okit-run: warning: …` or `okit-run: …`, its way out in okit-run's words.
    static func logText(_ line: LogLine) -> String {
        "okit-run: " + (line.isWarning ? "warning: " : "") + CommandLineAdvice.message(for: line)
    }
}
