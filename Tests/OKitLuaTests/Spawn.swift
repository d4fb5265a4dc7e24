import Foundation

/// Runs a program to its end with posix_spawn and waitpid (Foundation's Process can leave a child unreaped and
/// hang when tests spawn in parallel): stdin from a file or /dev/null, stdout to a file; returns the exit code
/// and what it printed.
enum Spawn {
    static func run(_ path: String, _ args: [String], stdin: String? = nil) throws -> (code: Int32, out: String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("okit-spawn-\(UUID().uuidString)").path
        defer { unlink(out) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }
}
