import Foundation
import OKitTestSupport
import Testing

/// Backups across app versions (backups.md "Restoring", "What a restore keeps"; storage.md "Versions"), as an
/// outside tester whose app changes over versions found them: a backup of a newer version was swapped in and only
/// then refused (the older data gone); the advice to move newer data aside with `--recover` ended with the
/// moved-aside file deleted by the restore; `convert` judged every model but the one asked for.
@Suite struct RestoreAcrossVersionsTests {
    static func app(_ version: Int, sqlite: Bool = false, encrypted: Bool = true) -> String {
        """
        okit.app { id = "evolve", version = \(version) }
        okit.entity("N", { text = "string" })
        m = okit.model("N"\(sqlite ? ", { storage = \"sqlite\" }" : ""))
        \(encrypted ? "e = okit.model(\"N\", { name = \"e\", storage = \"encrypted\" })" : "")
        """
    }

    /// `okit-run ARGS` in `t`; fails the test when the exit code is not `code`.
    @discardableResult
    func run(_ t: TempFolder, _ args: [String], script: String? = nil, code: Int32 = 0) throws -> ChildResult {
        let r = try OKitRun.run(args, script: script, in: t)
        #expect(r.code == code, "okit-run \(args.joined(separator: " ")): \(r.err)")
        return r
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test(arguments: [true, false])
    func aBackupOfANewerVersionIsRefusedBeforeAnythingChanges(encrypted: Bool) throws {
        let t = try TempFolder()
        let v1 = try t.put("a/app.lua", Self.app(1, encrypted: encrypted)).path
        let v2 = try t.put("b/app.lua", Self.app(2, encrypted: encrypted)).path
        let old = t.path + "/dold", new = t.path + "/dnew"
        try run(t, [v1, "--data", old], script: "m.text = 'precious v1 data'" + (encrypted ? "; e.text = 'v1 secret'" : ""))
        if encrypted {
            try FileManager.default.createDirectory(atPath: new + "/okit", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: old + "/okit/keys", toPath: new + "/okit/keys")
        }
        try run(t, [v2, "--data", new], script: "m.text = 'written by v2'" + (encrypted ? "; e.text = 'v2 secret'" : ""))
        try run(t, ["backup", "create", "v2", "--app", v2, "--data", new])
        let before = text(old + "/okit/data/default.json")

        let r = try run(t, ["backup", "restore", new + "/okit/backup/v2.okbackup", "--app", v1, "--data", old], code: 4)
        #expect(r.err.contains("was made by version 2 of the app (default.json), and this app is version 1"), "\(r.err)")
        #expect(r.err.contains("nothing was changed; restore it with version 2 of the app"), "\(r.err)")
        #expect(text(old + "/okit/data/default.json") == before)
        try run(t, [v1, "--data", old], script: "assert(m.text == 'precious v1 data')" + (encrypted ? "; assert(e.text == 'v1 secret')" : ""))
    }

    @Test func newerDataIsRefusedNamingEveryModelWhereItIsDeclared() throws {
        let t = try TempFolder()
        let v1 = try t.put("a/app.lua", Self.app(1, sqlite: true)).path
        let v2 = try t.put("b/app.lua", Self.app(2, sqlite: true)).path
        let d = t.path + "/d"
        try run(t, [v2, "--data", d], script: "m.text = 'v2'; e.text = 'v2 secret'")
        let r = try run(t, [v1, "--data", d], code: 4)
        #expect(r.err.contains("app.lua:3: okit.model(\"N\"): \(d)/okit/data/default.sqlite: model \"default\" was stored by version 2 of the app, and this app is version 1"), "\(r.err)")
        #expect(r.err.contains("app.lua:4: okit.model(\"N\"): \(d)/okit/data/e.json: model \"e\" was stored by version 2 of the app"), "\(r.err)")
        #expect(r.err.contains("Run the newer app, or restore a backup made with version 1"), "\(r.err)")
    }

    /// Newer data that does not decode in the older app (a field's type changed in version 2) is not called damaged,
    /// nor is the older app told to migrate it: it says a newer version stored it, and leaves the file as it is.
    @Test func newerDataThatDoesNotDecodeSaysANewerVersionStoredIt() throws {
        let t = try TempFolder()
        let v1 = try t.put("a/app.lua", Self.app(1, encrypted: false)).path
        let v2 = try t.put("b/app.lua", Self.app(2, encrypted: false).replacingOccurrences(of: "text = \"string\"", with: "text = \"number\"")).path
        let d = t.path + "/d"
        try run(t, [v2, "--data", d], script: "m.text = 5")
        let stored = text(d + "/okit/data/default.json")
        let r = try run(t, [v1, "--data", d], code: 4)
        #expect(r.err.contains("default.json:1:"), "where it failed: \(r.err)")
        #expect(r.err.contains("it was stored by version 2 of the app, and this app is version 1"), "\(r.err)")
        #expect(r.err.contains("an older app cannot read newer data and does not rewrite it. Run the newer app, or restore a backup made with version 1"), "\(r.err)")
        #expect(!r.err.contains("okit.migrate") && !r.err.contains("version = 3"), "no migration advice to an older app: \(r.err)")
        #expect(text(d + "/okit/data/default.json") == stored)
    }

    /// The way back to an older version: restoring its backup over newer data replaces it and keeps it whole.
    @Test func restoringAnOlderBackupOverNewerDataKeepsTheNewerData() throws {
        let t = try TempFolder()
        let v1 = try t.put("a/app.lua", Self.app(1, encrypted: false)).path
        let v2 = try t.put("b/app.lua", Self.app(2, encrypted: false)).path
        let d = t.path + "/d"
        try run(t, [v1, "--data", d], script: "m.text = 'precious v1 data'")
        try run(t, ["backup", "create", "v1", "--app", v1, "--data", d])
        try run(t, [v2, "--data", d], script: "m.text = 'written by v2'")
        let r = try run(t, ["backup", "restore", "v1", "--app", v1, "--data", d])
        #expect(r.err.contains("the data the restore replaced is kept in \(d)/okit/data-before-restore-"), "\(r.err)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: d + "/okit").filter { $0.hasPrefix("data-before-restore-") }
        #expect(kept.count == 1)
        #expect(text(d + "/okit/" + (kept.first ?? "") + "/default.json").contains("written by v2"))
        try run(t, [v1, "--data", d], script: "assert(m.text == 'precious v1 data')")
    }

    /// okit's advice for data that does not load (`--recover`, "nothing is deleted") holds across the restore.
    @Test func filesMovedAsideStayAcrossARestore() throws {
        let t = try TempFolder()
        let v1 = try t.put("a/app.lua", Self.app(1, encrypted: false)).path
        let d = t.path + "/d"
        try run(t, [v1, "--data", d], script: "m.text = 'precious v1 data'")
        try run(t, ["backup", "create", "v1", "--app", v1, "--data", d])
        try run(t, [v1, "--data", d], script: "m.text = 'later'")
        try t.put("d/okit/data/default.json", "{ damaged")
        try t.put("d/okit/data/notes.txt", "mine")
        let refused = try run(t, ["backup", "restore", "v1", "--app", v1, "--data", d], code: 4)
        #expect(refused.err.contains("first move the model \"default\" aside with okit-run \(v1) --data \(d) --recover default (nothing is deleted"), "\(refused.err)")
        try run(t, [v1, "--data", d, "--recover", "default"], script: "")
        try run(t, ["backup", "restore", "v1", "--app", v1, "--data", d])
        let files = try FileManager.default.contentsOfDirectory(atPath: d + "/okit/data")
        let aside = files.filter { $0.hasPrefix("default.json.corrupt-") }
        #expect(aside.count == 1, "\(files)")
        #expect(text(d + "/okit/data/" + (aside.first ?? "")) == "{ damaged")
        #expect(text(d + "/okit/data/notes.txt") == "mine")
        try run(t, [v1, "--data", d], script: "assert(m.text == 'precious v1 data')")
    }

    @Test func aBackupHoldingAModelInAnotherFormIsRefused() throws {
        let t = try TempFolder()
        let v1 = try t.put("a/app.lua", Self.app(1, encrypted: false)).path
        let v2 = try t.put("b/app.lua", Self.app(1, sqlite: true, encrypted: false)).path
        try run(t, [v2, "--data", t.path + "/new"], script: "m.text = 'in sqlite'")
        try run(t, ["backup", "create", "s", "--app", v2, "--data", t.path + "/new"])
        try run(t, [v1, "--data", t.path + "/old"], script: "m.text = 'in json'")
        let r = try run(t, ["backup", "restore", t.path + "/new/okit/backup/s.okbackup", "--app", v1, "--data", t.path + "/old"], code: 4)
        #expect(r.err.contains("holds model \"default\" as a SQLite database (default.sqlite), and this app declares it with storage = \"file\""), "\(r.err)")
        try run(t, [v1, "--data", t.path + "/old"], script: "assert(m.text == 'in json')")
    }

    @Test func convertJudgesOnlyTheModelAskedForAndSaysWhyASealedOneIsNot() throws {
        let t = try TempFolder()
        let app = try t.put("a/app.lua", Self.app(1) + "\nf = okit.model(\"N\", { name = \"f\" })\n").path
        let d = t.path + "/d"
        try run(t, [app, "--data", d], script: "m.text = 'one'; e.text = 'secret'; f.text = 'two'")
        try run(t, ["convert", "--app", app, "--data", d, "--model", "default", "--to", "sqlite"])
        // The first model is converted but still declared "file": the second converts all the same.
        let r = try run(t, ["convert", "--app", app, "--data", d, "--model", "f", "--to", "sqlite"])
        #expect(r.out.contains("converted model \"f\" to sqlite"), "\(r.out)")
        let sealed = try run(t, ["convert", "--app", app, "--data", d, "--model", "e", "--to", "sqlite"], code: 4)
        #expect(sealed.err.contains("model \"e\" is sealed (storage = \"encrypted\"), and neither a SQLite database nor PostgreSQL keeps it sealed"), "\(sealed.err)")
        #expect(!sealed.err.contains("declare model"), "\(sealed.err)")
    }
}
