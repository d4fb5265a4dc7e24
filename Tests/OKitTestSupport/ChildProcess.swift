import Foundation

/// How one standard stream of a child is set up.
public enum ChildStream: Sendable {
    /// `/dev/null`.
    case null
    /// Closed in the child.
    case closed
    /// stdin only: these bytes, then end of input.
    case text(String)
    /// stdin: read from the path; stdout or stderr: written to it (created or truncated).
    case file(String)
    /// Opened write-only as it is, neither created nor truncated (`/dev/full`).
    case device(String)
    /// A descriptor of the test (a pipe's end, a fifo), the same in the child.
    case descriptor(Int32)
    /// stdout or stderr: kept in a temporary file and returned by `wait`.
    case capture
    /// stderr only: where stdout goes.
    case stdout
}

/// How a child ended: its exit code (128 + the signal when a signal ended it) and what it printed.
public struct ChildResult: Sendable {
    public let code: Int32
    public let out: String
    public let err: String
    /// The signal that ended the child, nil when it exited (then `code` is its own exit code).
    public let signal: Int32?
    /// The child did not end within the timeout and was killed with SIGKILL (`code` is then 137).
    public let timedOut: Bool
}

/// The tests' one way to run a program: posix_spawn and waitpid. Not Foundation's `Process`: with tests spawning
/// in parallel it sometimes never reaps a child and `waitUntilExit` blocks forever. The child starts as a shell
/// starts it (empty signal mask, SIGINT, SIGTERM, SIGPIPE, SIGHUP at their defaults); a child still running at the
/// timeout is killed, so a hang fails its test instead of stopping the run.
public struct ChildProcess: Sendable {
    /// Seconds `run` and `wait` give a child before SIGKILL.
    public static let defaultTimeout: Double = 120

    public let pid: pid_t
    let outPath: String?
    let errPath: String?
    let inPath: String?

    /// Runs `path ARGS` to its end; `environment` is laid over the test's (a nil value removes the variable).
    public static func run(_ path: String, _ args: [String], stdin: ChildStream = .null, stdout: ChildStream = .capture,
                           stderr: ChildStream = .capture, environment: [String: String?] = [:],
                           timeout: Double = defaultTimeout) throws -> ChildResult {
        try start(path, args, stdin: stdin, stdout: stdout, stderr: stderr, environment: environment).wait(timeout: timeout)
    }

    /// Starts `path ARGS` and returns at once; `closing` are descriptors of the test the child must not keep
    /// (the other ends of its pipes). Call `wait` to reap it.
    public static func start(_ path: String, _ args: [String], stdin: ChildStream = .null, stdout: ChildStream = .capture,
                             stderr: ChildStream = .capture, environment: [String: String?] = [:],
                             closing: [Int32] = []) throws -> ChildProcess {
        func temporary() -> String {
            FileManager.default.temporaryDirectory.appendingPathComponent("okit-child-\(UUID().uuidString)").path
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inPath: String?, outPath: String?, errPath: String?
        func set(_ fd: Int32, _ stream: ChildStream) throws {
            let write = O_WRONLY | O_CREAT | O_TRUNC
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .closed: posix_spawn_file_actions_addclose(&actions, fd)
            case .text(let text):
                let p = temporary()
                try Data(text.utf8).write(to: URL(fileURLWithPath: p))
                inPath = p
                posix_spawn_file_actions_addopen(&actions, fd, p, O_RDONLY, 0)
            case .file(let p): posix_spawn_file_actions_addopen(&actions, fd, p, fd == 0 ? O_RDONLY : write, 0o600)
            case .device(let p): posix_spawn_file_actions_addopen(&actions, fd, p, O_WRONLY, 0)
            case .descriptor(let d): posix_spawn_file_actions_adddup2(&actions, d, fd)
            case .capture:
                let p = temporary()
                if fd == 1 { outPath = p } else { errPath = p }
                posix_spawn_file_actions_addopen(&actions, fd, p, write, 0o600)
            case .stdout: posix_spawn_file_actions_adddup2(&actions, 1, fd)
            }
        }
        try set(0, stdin)
        try set(1, stdout)
        try set(2, stderr)
        for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            [inPath, outPath, errPath].compactMap { $0 }.forEach { unlink($0) }
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO)
        }
        return ChildProcess(pid: pid, outPath: outPath, errPath: errPath, inPath: inPath)
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// What the child has written to a captured stdout so far.
    public var outputSoFar: String {
        outPath.flatMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Waits for the child to end (SIGKILL after `timeout` seconds), reaps it and returns how it ended.
    public func wait(timeout: Double = defaultTimeout) -> ChildResult {
        var status: Int32 = 0, timedOut = false
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r == -1, errno != EINTR { break }
            if Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                break
            }
            usleep(r == 0 ? 10_000 : 0)
        }
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        func read(_ path: String?) -> String {
            guard let path else { return "" }
            defer { unlink(path) }
            return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        if let inPath { unlink(inPath) }
        return ChildResult(code: code, out: read(outPath), err: read(errPath), signal: signal == 0 ? nil : signal, timedOut: timedOut)
    }
}
