import CLua
import Foundation
import Synchronization

/// `require` in a busted spec file (testing.md, "What a spec may load"): Lua's own lookup through the current
/// `package.path` (`?` is the module name with `.` as `/`; `./` is the project root), limited to Lua files inside
/// the project root and inside the folders where Debian installs pure-Lua modules for Lua 5.4. A file elsewhere is
/// not loaded; a C module (a `.so` on `package.cpath`) is refused with a message saying so.
enum BustedModuleSearch {
    /// Folders outside the project whose Lua files a spec may load.
    static let systemFolders = ["/usr/share/lua/5.4", "/usr/local/share/lua/5.4", "/usr/local/lib/lua/5.4"]

    /// The searcher: pushes the loader and the file name, or a message listing the files tried.
    /// `notes`: say once on stderr that a C module was refused (a spec may go on without it; `.busted` cannot).
    static func search(_ name: String, path: String, cpath: String, root: URL, call: LuaCall,
                       notes: Bool = true) throws -> Int32 {
        let state = call.state
        let stem = name.replacingOccurrences(of: ".", with: "/")
        var tried: [String] = []
        for template in path.split(separator: ";").map(String.init) where !template.isEmpty {
            let file = template.replacingOccurrences(of: "?", with: stem)
            let url = absolute(file, root: root)
            guard FileManager.default.isReadableFile(atPath: url.path), !isFolder(url) else {
                tried.append("no file '\(file)'")
                continue
            }
            guard isAllowed(url, root: root) else {
                tried.append("file '\(file)' is outside the project and the Lua 5.4 module folders (not loaded)")
                continue
            }
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            do {
                try loadAsLua(state, bytes: [UInt8](data), chunkName: file)
            } catch {
                // Lua's searcher words it so (no column: the spec may compare the text)
                throw LuaRaise("error loading module '\(name)' from file '\(file)':\n\t\(error.message)", withPosition: false)
            }
            state.push(file)
            return 2
        }
        for template in cpath.split(separator: ";").map(String.init) where !template.isEmpty {
            let file = template.replacingOccurrences(of: "?", with: stem)
            if FileManager.default.fileExists(atPath: absolute(file, root: root).path) {
                if notes { noteRefused(name, file: file) }
                throw LuaRaise("module '\(name)' is a C module (\(file)): okit-run test loads Lua files only, "
                    + "from the project and \(systemFolders[0])", withPosition: false)
            }
            tried.append("no file '\(file)'")
        }
        // As Lua's own searchers say it: one line a file, which `require` puts after "\n\t" (no empty line).
        state.push(tried.joined(separator: "\n\t"))
        return 1
    }

    /// Compiles Lua source as Lua itself does, its syntax errors in Lua's words (`file:line: message`, without the
    /// column okit adds for apps): what busted's `require`, spec files and `.busted` show.
    static func loadAsLua(_ state: LuaState, bytes: [UInt8], chunkName: String) throws(LuaError) {
        let status = state.loadStatus(bytes[...], chunkName: chunkName)
        guard status != LUA_OK else { return }
        throw state.takeError(status: status)
    }

    /// The C modules refused in this run, each said once on stderr.
    private static let refused = Mutex<Set<String>>([])

    /// Says on stderr, once per module and run, that a C module was refused: a spec that asks for it under `pcall`
    /// (an optional dependency, `local hasyaml = pcall(require, "yaml")`) goes on without it and leaves out the
    /// tests that need it — with a word, not silently (busted, which loads C modules, runs them).
    static func noteRefused(_ name: String, file: String) {
        guard refused.withLock({ $0.insert(name).inserted }) else { return }
        StandardStreams.error("okit-run test: note: require \"\(name)\" found the C module \(file), which okit-run test "
            + "does not load (testing.md \"What a spec may load\"); a spec that goes on without it leaves out what needs it\n")
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
    static func isAllowed(_ url: URL, root: URL) -> Bool {
        let folders = [root.standardizedFileURL.path, root.resolvingSymlinksInPath().path] + systemFolders
        return [url.path, url.resolvingSymlinksInPath().path].contains { path in
            folders.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }
}
