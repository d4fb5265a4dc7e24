import CLua
import Foundation

/// `require` in a busted spec file (testing.md, "What a spec may load"): Lua's own lookup through the current
/// `package.path` (`?` is the module name with `.` as `/`; `./` is the project root), limited to Lua files inside
/// the project root and inside the folders where Debian installs pure-Lua modules for Lua 5.4; then, as Lua's C
/// searcher, `package.cpath`, limited to the project root and the folders where Debian installs C modules for Lua
/// 5.4 (LuaFileSystem, LPeg, …: busted itself needs `lfs`). A file elsewhere is not loaded.
enum BustedModuleSearch {
    /// Folders outside the project whose Lua files a spec may load.
    static let systemFolders = ["/usr/share/lua/5.4", "/usr/local/share/lua/5.4", "/usr/local/lib/lua/5.4"]
    /// Folders outside the project whose C modules a spec may load. okit-run uses the system's Lua library
    /// (`liblua5.4`), whose functions these modules call: one Lua, as in the `lua5.4` busted runs in.
    static let systemCFolders = ["/usr/local/lib/lua/5.4", "/usr/lib/x86_64-linux-gnu/lua/5.4",
                                 "/usr/lib/aarch64-linux-gnu/lua/5.4", "/usr/lib/lua/5.4"]

    /// The searcher: pushes the loader and the file name; or, for a C module, `false` and its file (the spec's
    /// prelude opens it with `package.loadlib`, as Lua's C searcher does); or a message listing the files tried.
    static func search(_ name: String, path: String, cpath: String, root: URL, call: LuaCall) throws -> Int32 {
        let state = call.state
        let stem = name.replacingOccurrences(of: ".", with: "/")
        var tried: [String] = []
        for template in path.split(separator: ";").map(String.init) where !template.isEmpty {
            let file = template.replacingOccurrences(of: "?", with: stem)
            let url = absolute(file, root: root)
            guard FileManager.default.isReadableFile(atPath: url.path), !isFolder(url) else {
                tried.append("\n\tno file '\(file)'")
                continue
            }
            guard isAllowed(url, root: root) else {
                tried.append("\n\tfile '\(file)' is outside the project and the Lua 5.4 module folders (not loaded)")
                continue
            }
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            try state.load(bytes: [UInt8](data), chunkName: file)
            state.push(file)
            return 2
        }
        for template in cpath.split(separator: ";").map(String.init) where !template.isEmpty {
            let file = template.replacingOccurrences(of: "?", with: stem)
            let url = absolute(file, root: root)
            guard FileManager.default.isReadableFile(atPath: url.path), !isFolder(url) else {
                tried.append("\n\tno file '\(file)'")
                continue
            }
            guard isAllowed(url, root: root, folders: systemCFolders) else {
                tried.append("\n\tfile '\(file)' is outside the project and the Lua 5.4 C module folders (not loaded)")
                continue
            }
            state.push(false)
            state.push(url.path)
            return 2
        }
        state.push(tried.joined())
        return 1
    }

    /// `file` as an absolute, standardized URL (a relative one from the project root).
    static func absolute(_ file: String, root: URL) -> URL {
        (file.hasPrefix("/") ? URL(fileURLWithPath: file) : URL(fileURLWithPath: file, relativeTo: root)).standardizedFileURL
    }

    static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    /// Whether a file is inside the project root or a Lua 5.4 module folder, as named or with its links resolved
    /// (Debian's module folders link to shared copies; a project may link to a vendored one).
    static func isAllowed(_ url: URL, root: URL, folders system: [String] = systemFolders) -> Bool {
        let folders = [root.standardizedFileURL.path, root.resolvingSymlinksInPath().path] + system
        return [url.path, url.resolvingSymlinksInPath().path].contains { path in
            folders.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }
}
