import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Issue 13's storage holes, attacked the way an outsider would: an app run as a process on a data folder
/// whose files were put there by someone else (quality.md "Reliability promises").
@Suite struct HostileStorageTests {
    /// A tree app: `tree.nodes`, each node with `children`; `okit.app { version = N }`.
    static func app(_ folder: TempFolder, version: Int = 1, root: String = "Tree") throws -> String {
        let app = folder.url.appendingPathComponent("tree-v\(version)-\(root)/app.lua")
        try FileManager.default.createDirectory(at: app.deletingLastPathComponent(), withIntermediateDirectories: true)
        try """
        local okit = require "okit"
        okit.app { version = \(version) }
        okit.entity("Node", { name = "string", children = "[Node]" })
        okit.entity("\(root)", { nodes = "[Node]" })
        tree = okit.model("\(root)")
        """.write(to: app, atomically: true, encoding: .utf8)
        return app.path
    }

    /// `okit-run ARGS`, killed after 60 s (a hang is a failure, not a stuck test run).
    static func run(_ args: [String], env: [String: String] = [:], script: String? = nil, in folder: TempFolder) throws -> (code: Int32, out: String, err: String) {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let r = try OKitRun.run(args, env: env, script: script, in: folder, timeout: 60)
        // `print` in a script writes to stderr: `out` holds both.
        return (r.code, r.out + r.err, r.err)
    }

    static let depthScript = "local d, n = 0, tree.nodes[1]; while n do d = d + 1; n = n.children[1] end; print('depth ' .. d)"

    // MARK: Hole 5: deep entity chains

    @Test func aDeepChainIsRefusedAtTheLimitAndWhatWasStoredLoads() throws {
        let folder = try TempFolder()
        let app = try Self.app(folder), data = folder.url.appendingPathComponent("data").path
        let build = try Self.run([app, "--data", data], script: """
        local n = okit.new('Node', { name = '1' })
        tree.nodes:append(n)
        local ok, err = pcall(function()
            for i = 2, 400 do local c = okit.new('Node', { name = tostring(i) }); n.children:append(c); n = c end
        end)
        print(ok, err)
        """, in: folder)
        #expect(build.code == 0, "\(build.err)")
        #expect(build.out.contains("false") && build.out.contains("nest more than \(Engine.maxEntityDepth) deep"), "\(build.out)")
        let again = try Self.run([app, "--data", data], script: Self.depthScript, in: folder)
        #expect(again.code == 0, "the next start reads what was stored: \(again.err)")
        #expect(again.out.contains("depth \(Engine.maxEntityDepth - 1)"), "\(again.out)")
    }

    @Test func aChainOf48000DoesNotCrashAndKeepsTheData() throws {
        let folder = try TempFolder()
        let app = try Self.app(folder), data = folder.url.appendingPathComponent("data").path
        let first = try Self.run([app, "--data", data], script: "tree.nodes:append(okit.new('Node', { name = 'kept' }))", in: folder)
        #expect(first.code == 0, "\(first.err)")
        // Bottom up (each new node takes the chain so far), then top down in a detached tree, then attached.
        let attack = try Self.run([app, "--data", data], script: """
        local c = okit.new('Node')
        print(pcall(function() for i = 1, 48000 do local p = okit.new('Node'); p.children:append(c); c = p end end))
        local top = okit.new('Node'); local n = top
        print(pcall(function() for i = 1, 48000 do local x = okit.new('Node'); n.children:append(x); n = x end end))
        print(pcall(function() tree.nodes:append(top) end))
        tree.nodes[1].name = 'kept, then changed'
        """, in: folder)
        #expect(attack.code == 0, "no crash: \(attack.code) \(attack.err.suffix(400))")
        #expect(attack.out.components(separatedBy: "nest more than").count >= 3, "\(attack.out)")
        let again = try Self.run([app, "--data", data], script: "print(tree.nodes[1].name, #tree.nodes)", in: folder)
        #expect(again.code == 0, "\(again.err)")
        #expect(again.out.contains("kept, then changed"), "what was typed is stored: \(again.out)")
    }

    // MARK: Hole 6: an older app and newer data

    @Test func anOlderAppRefusesNewerDataAndLeavesItAsItIs() throws {
        let folder = try TempFolder()
        let data = folder.url.appendingPathComponent("data").path
        let v2 = try Self.app(folder, version: 2), v1 = try Self.app(folder, version: 1)
        #expect(try Self.run([v2, "--data", data], script: "tree.nodes:append(okit.new('Node', { name = 'new' }))", in: folder).code == 0)
        let file = data + "/okit/data/default.json"
        let before = try #require(FileManager.default.contents(atPath: file))
        let old = try Self.run([v1, "--data", data], script: "tree.nodes:append(okit.new('Node', { name = 'old' }))", in: folder)
        #expect(old.code == 4, "\(old.err)")
        #expect(old.err.contains(file) && old.err.contains("version 2") && old.err.contains("version 1"), "\(old.err)")
        #expect(FileManager.default.contents(atPath: file) == before, "unchanged")
        #expect(FileManager.default.fileExists(atPath: data + "/okit/data/default.journal") == false)
    }

    // MARK: Hole 7: what is not a regular file

    /// Puts something at the model file's (or journal's) place with `make`, runs the app, and checks the exit,
    /// the message and that the thing is still there as it was.
    func refused(_ what: String, journal: Bool = false, make: (String) throws -> Void) throws {
        let folder = try TempFolder()
        let app = try Self.app(folder), data = folder.url.appendingPathComponent("data").path
        let models = data + "/okit/data"
        if journal {
            #expect(try Self.run([app, "--data", data], script: "tree.nodes:append(okit.new('Node'))", in: folder).code == 0)
        } else {
            try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        }
        let path = models + (journal ? "/default.journal" : "/default.json")
        try make(path)
        var before = stat()
        lstat(path, &before)
        // Under `timeout -s KILL 60`: a hang ends as a kill (137), not exit 4.
        let r = try Self.run([app, "--data", data], script: "tree.nodes:append(okit.new('Node'))", in: folder)
        #expect(r.code == 4, "\(what): \(r.code) \(r.err)")
        #expect(r.err.contains(path) && r.err.contains(what), "\(r.err)")
        var after = stat()
        #expect(lstat(path, &after) == 0 && after.st_mode == before.st_mode && after.st_ino == before.st_ino, "\(what) is left in place")
    }

    @Test func aFIFOIsRefusedWithoutHanging() throws {
        try refused("a FIFO") { #expect(mkfifo($0, 0o644) == 0) }
        try refused("a FIFO", journal: true) { #expect(mkfifo($0, 0o644) == 0) }
    }

    @Test func aDanglingSymlinkIsNotAMissingFile() throws {
        try refused("symbolic link to nothing") { #expect(symlink("/nonexistent/okit-model.json", $0) == 0) }
    }

    @Test func aDirectoryIsRefused() throws {
        try refused("a directory") { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) }
    }

    @Test func aLinkToARegularFileIsFollowed() throws {
        let folder = try TempFolder()
        let app = try Self.app(folder), data = folder.url.appendingPathComponent("data").path
        #expect(try Self.run([app, "--data", data], script: "tree.nodes:append(okit.new('Node', { name = 'linked' }))", in: folder).code == 0)
        let file = data + "/okit/data/default.json", real = folder.url.appendingPathComponent("real.json").path
        try FileManager.default.moveItem(atPath: file, toPath: real)
        #expect(symlink(real, file) == 0)
        let r = try Self.run([app, "--data", data], script: "print(tree.nodes[1].name)", in: folder)
        #expect(r.code == 0 && r.out.contains("linked"), "\(r.err)")
    }

    // MARK: Hole 14: a huge file

    @Test func aHugeSparseFileOfNULsIsRefusedAtOnce() throws {
        let folder = try TempFolder()
        let app = try Self.app(folder), data = folder.url.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: data + "/okit/data", withIntermediateDirectories: true)
        let file = data + "/okit/data/default.json"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        #expect(truncate(file, 3 << 30) == 0)
        // Refused by its first bytes ("not a model file"), before the rest is read.
        let r = try Self.run([app, "--data", data], env: ["OKIT_MAX_FILE_SIZE": String(4 << 30)], in: folder)
        #expect(r.code == 4, "\(r.err)")
        #expect(r.err.contains("not a model file"), "\(r.err)")
        // A file that starts like a model but is larger than the limit.
        let fd = open(file, O_WRONLY)
        _ = write(fd, "{\"nodes\":[", 10)
        close(fd)
        let big = try Self.run([app, "--data", data], env: ["OKIT_MAX_FILE_SIZE": "1048576"], in: folder)
        #expect(big.code == 4 && big.err.contains("more than the 1048576 okit reads (OKIT_MAX_FILE_SIZE)"), "\(big.err)")
        var st = stat()
        #expect(stat(file, &st) == 0 && st.st_size == 3 << 30, "unchanged")
    }

    // MARK: Hole 15: a model file of another type

    @Test func aFileOfAnotherTypeIsRefused() throws {
        let folder = try TempFolder()
        let data = folder.url.appendingPathComponent("data").path
        let shop = try Self.app(folder, root: "Shop"), list = try Self.app(folder, root: "List")
        #expect(try Self.run([shop, "--data", data], script: "tree.nodes:append(okit.new('Node', { name = 'shop' }))", in: folder).code == 0)
        let file = data + "/okit/data/default.json"
        let before = try #require(FileManager.default.contents(atPath: file))
        let r = try Self.run([list, "--data", data], script: "tree.nodes:append(okit.new('Node'))", in: folder)
        #expect(r.code == 4, "\(r.err)")
        #expect(r.err.contains(file) && r.err.contains("Shop") && r.err.contains("List"), "\(r.err)")
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    // MARK: A missing passphrase

    @Test func aMissingPassphraseIsAStorageProblem() throws {
        let folder = try TempFolder()
        let app = try HTTPAppTests.app(folder, storage: "encrypted"), data = folder.url.appendingPathComponent("data").path
        let first = try Self.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "secret"],
                                 script: "notes.notes:append(okit.new('Note', { title = 'sealed' }))", in: folder)
        #expect(first.code == 0, "\(first.err)")
        let r = try Self.run([app, "--data", data], in: folder)
        #expect(r.code == 4, "\(r.code) \(r.err)")
        #expect(r.err.contains("OKIT_PASSPHRASE"), "\(r.err)")
    }
}
