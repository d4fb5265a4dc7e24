import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one rule for every file app code can name (`require`, `loadfile`/`dofile`, `okit.strings`, the check's
/// declaration sources): a relative path without `..`, absolute paths or NUL, that — with every symbolic link
/// resolved — is a regular file inside the app's folder (lua-api.md "Sandbox and limits"). An app archive with a
/// link to `~/.ssh/id_rsa` or a FIFO cannot make okit read or hang on anything outside the app.
enum AppFolderPolicy {
    /// Why a path was refused; `message` names the path as the app wrote it.
    struct Refusal: Error {
        let message: String
    }

    /// What a path names.
    enum Lookup {
        /// A regular file inside the folder: its contents.
        case file([UInt8])
        /// Nothing there (or a dangling link).
        case missing
        /// A directory inside the folder.
        case directory
    }

    /// Reads `path` (relative to `folder`, as app code wrote it) under the policy.
    static func read(_ path: String, in folder: URL) throws -> Lookup {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !parts.contains(".."), !path.contains("\0") else {
            throw Refusal(message: "\(path): app code reads files inside the app's folder only (a relative path without ..)")
        }
        guard let root = realPath(folder.path) else {
            throw Refusal(message: "\(path): the app's folder \(folder.path) cannot be read")
        }
        let full = folder.path.hasSuffix("/") ? folder.path + path : folder.path + "/" + path
        guard let resolved = realPath(full) else { return .missing }
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw Refusal(message: "\(path): it leads outside the app's folder (symbolic links may not leave it)")
        }
        var info = stat()
        guard stat(resolved, &info) == 0 else { return .missing }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Refusal(message: "\(path): not a regular file")
        }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            throw Refusal(message: "\(path): cannot be read")
        }
        return .file([UInt8](data))
    }

    /// The path with every symbolic link resolved, or nil when it does not exist (or a link dangles).
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
