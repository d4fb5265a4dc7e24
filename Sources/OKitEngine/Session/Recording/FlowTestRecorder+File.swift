import Foundation

/// The flow test file a recording becomes: a header comment, `launch` from okit.test, one `describe` named after
/// the app with one `it` named after the file, the app launched from the test file's folder on the virtual clock at
/// the session's start (with the session's data as fixtures), then the recorded lines.
extension FlowTestRecorder {
    /// Why a recording cannot be written where asked.
    public struct RefusedPath: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Whether a `--record` path asks for a flow test (rather than a session log for `okit-run replay`).
    public static func isFlowTest(_ path: String) -> Bool { path.hasSuffix("_test.lua") }

    /// The test's name: the file's name without `_test.lua`.
    public static func testName(of file: URL) -> String {
        let name = file.lastPathComponent
        return name.hasSuffix("_test.lua") ? String(name.dropLast("_test.lua".count)) : file.deletingPathExtension().lastPathComponent
    }

    /// The folder beside the test that holds the data the session started from: `<name>_data`.
    public static func fixturesFolder(of file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(testName(of: file) + "_data", isDirectory: true)
    }

    /// Refuses a test file (or its fixtures folder) that exists already: a recording never overwrites.
    public static func checkFree(_ file: URL, path: String) throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: file.path) {
            throw RefusedPath(message: "\(path) exists; choose another name or delete it")
        }
        let data = fixturesFolder(of: file)
        if fm.fileExists(atPath: data.path) {
            throw RefusedPath(message: "\(data.path) exists (the data of an earlier recording); choose another name or delete it")
        }
    }

    /// Refuses a test the system will not let it write, before the session starts: its folder (or the nearest one
    /// that exists, where the folder would be made) takes no new file — not a folder, no permission, a read-only or
    /// special file system (`/proc`). The reason as a person reads it, naming the file given.
    public static func checkWritable(_ file: URL, path: String) throws {
        let fm = FileManager.default
        var folder = file.deletingLastPathComponent().standardizedFileURL
        while !fm.fileExists(atPath: folder.path), folder.path != "/" { folder = folder.deletingLastPathComponent() }
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw RefusedPath(message: "cannot write the flow test \(path): \(folder.path) is not a folder")
        }
        let probe = folder.appendingPathComponent(".okit-record-\(UUID().uuidString)").path
        let fd = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else {
            throw RefusedPath(message: "cannot write the flow test \(path): \(folder.path) is not a writable folder (\(reason(errno)))")
        }
        close(fd)
        unlink(probe)
    }

    /// Why a file could not be written, in plain words: the system's reason (`permission denied`), with the file
    /// it concerned when that is not the test itself (its data folder); not Foundation's error domain and code.
    public static func plainReason(_ error: any Error) -> String {
        if let refused = error as? RefusedPath { return refused.message }
        let ns = error as NSError
        let posix = (ns.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0 : nil }
            ?? (ns.domain == NSPOSIXErrorDomain ? ns : nil)
        let file = ns.userInfo[NSFilePathErrorKey] as? String
        guard let posix else { return (file.map { "\($0): " } ?? "") + ns.localizedDescription }
        return (file.map { "\($0): " } ?? "") + reason(Int32(posix.code))
    }

    /// The system's reason for `code` in lower case (`permission denied`); a folder that exists but takes no new
    /// file says so rather than "no such file".
    static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "a read-only file system"
        case ENOENT: return "the system takes no new file there"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// The whole test file.
    public var text: String {
        let testFolder = start.testFile.deletingLastPathComponent()
        let appPath = Self.relativePath(of: start.app, from: testFolder)
        let day = ISODate.format(start.recordedOn, fractional: false).prefix(10)
        var options: [String] = []
        if start.fixtures != nil { options.append("fixtures = " + LuaLiteral.string(Self.fixturesFolder(of: start.testFile).lastPathComponent)) }
        let now = ISODate.format(start.now, fractional: false)
        if now != "2019-05-01T10:00:00Z" { options.append("now = " + LuaLiteral.string(now)) }
        if let seed = start.seed, seed != 0 { options.append("seed = \(Int64(bitPattern: seed))") }
        if let l = start.language { options.append("lang = " + LuaLiteral.string(l)) }
        let launch = "local app = launch(" + LuaLiteral.string(appPath) + (options.isEmpty ? "" : ", { " + options.joined(separator: ", ") + " }") + ")"
        var out = "-- Recorded " + (start.recordedWith.map { "with \($0) " } ?? "") + "on \(day) from \(appPath)"
        out += start.fixtures == nil ? " (a fresh data folder).\n" : ", starting from the data in \(Self.fixturesFolder(of: start.testFile).lastPathComponent)/.\n"
        if let note = unsealedNote { out += "-- " + note + "\n" }
        out += "local launch = require(\"okit.test\").launch\n\n"
        out += "describe(\(LuaLiteral.string(appName)), function()\n"
        out += "  it(\(LuaLiteral.string(Self.testName(of: start.testFile).replacingOccurrences(of: "_", with: " "))), function()\n"
        for line in [launch] + lines { out += "    " + line + "\n" }
        out += "  end)\nend)\n"
        return out
    }

    /// The app's name: its folder's for an `app.lua`, else the file's.
    var appName: String {
        let file = start.app.deletingPathExtension().lastPathComponent
        let folder = start.app.deletingLastPathComponent().lastPathComponent
        return file == "app" && !folder.isEmpty ? folder : file
    }

    /// What the person is told about fixtures held in plain text (the test's header comment, the front ends'
    /// messages); nil when the data was not encrypted.
    public var unsealedNote: String? {
        guard !unsealedFixtures.isEmpty else { return nil }
        let folder = Self.fixturesFolder(of: start.testFile).lastPathComponent
        return "\(folder)/ holds the app's encrypted data in plain text (no key is copied); the test seals it again with its own key."
    }

    /// Writes the fixtures (when the session started from data), then the test file: to a temporary file
    /// beside it, moved into place only when no file is there (an existing one is never overwritten). When the
    /// test file cannot be written the fixtures written for it are removed and the copy is kept, so a later
    /// `write()` under another name still has them; once written, the copy is removed.
    public func write() throws {
        let fm = FileManager.default
        let file = start.testFile
        try fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        try Self.checkFree(file, path: file.path)
        let body = text
        let fixtures = Self.fixturesFolder(of: file)
        if let copy = start.fixtures {
            try fm.copyItem(at: copy, to: fixtures)
            FlowTestFixtures.prepareForSaving(fixtures)
            FlowTestFixtures.keepPrivate(fixtures)
        }
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            // The test names what the person typed and saw (the data's values): only its owner reads it, as a backup.
            guard fm.createFile(atPath: temporary.path, contents: Data(body.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            try fm.moveItem(at: temporary, to: file)
        } catch {
            try? fm.removeItem(at: temporary)
            if start.fixtures != nil { try? fm.removeItem(at: fixtures) }
            throw error
        }
        discardFixtures()
    }

    /// Removes the copy of the data the recording started from (after saving it, or when the recording ends
    /// unsaved); the test file, if written, keeps its own copy beside it.
    public func discardFixtures() {
        if let copy = start.fixtures { try? FileManager.default.removeItem(at: copy) }
    }

    /// `file`'s path relative to `folder` (`../app.lua`), both taken as absolute paths with links resolved.
    static func relativePath(of file: URL, from folder: URL) -> String {
        let to = file.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let from = folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(to.count - 1, from.count), to[common] == from[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...]).joined(separator: "/")
    }
}
