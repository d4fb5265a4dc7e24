import Foundation

/// The files of an app that a live reload watches (web.md "Live reload"): every `.lua` and `.strings` file in the
/// app's folder and below it — the app file, the modules it requires, the files it loads and its strings —
/// except the `tests/` folder (a saved recording goes there) and hidden folders. Each is known by its
/// modification time and size, read by polling (no file system events needed).
struct AppFolderWatch: Sendable {
    /// The app's folder.
    let folder: URL
    /// Most files looked at (a folder with more is not an app's).
    static let maxFiles = 5000

    /// A file's modification time and size.
    struct Stamp: Equatable, Sendable {
        let modified: Date
        let size: Int
    }

    /// The watched files now, by path.
    func stamps() -> [String: Stamp] {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isDirectoryKey]
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) else {
            return [:]
        }
        let tests = folder.appendingPathComponent("tests").standardizedFileURL.path
        var out: [String: Stamp] = [:]
        var seen = 0
        for case let url as URL in walk {
            seen += 1
            if seen > Self.maxFiles { break }
            let values = try? url.resourceValues(forKeys: Set(keys))
            if values?.isDirectory == true {
                if url.standardizedFileURL.path == tests { walk.skipDescendants() }
                continue
            }
            guard url.pathExtension == "lua" || url.pathExtension == "strings" else { continue }
            out[url.standardizedFileURL.path] = Stamp(modified: values?.contentModificationDate ?? .distantPast, size: values?.fileSize ?? -1)
        }
        return out
    }
}
