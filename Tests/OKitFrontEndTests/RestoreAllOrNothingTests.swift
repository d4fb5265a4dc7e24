import Foundation
import OKitTestSupport
import Testing

/// Restores that must be all or nothing, `--recover` on a model that reads, and a model held in two forms
/// (backups.md "Restoring", cli.md `--recover`, storage.md "SQLite models"), as a data-loss hunter found them: a
/// backup holding another root type was swapped in and only then refused (every model gone); an older version's
/// backup was refused instead of migrated; `--recover` moved a healthy model aside.
@Suite struct RestoreAllOrNothingTests {
    static let clinic = """
        okit.entity("Pet", { name = "string", tag = "TAG" })
        okit.entity("Clinic", { pets = "[Pet]" })
        m = okit.model("Clinic"STORAGE)
        okit.app { id = "clinic", version = VERSION }
        """

    static func clinic(_ version: Int, tag: String, sqlite: Bool = false, migrate: String = "") -> String {
        clinic.replacingOccurrences(of: "TAG", with: tag).replacingOccurrences(of: "VERSION", with: "\(version)")
            .replacingOccurrences(of: "STORAGE", with: sqlite ? ", { storage = \"sqlite\" }" : "") + "\n" + migrate
    }

    static let toInt = #"okit.migrate(1, function(model, raw) for i, p in ipairs(model.pets) do p.tag = tonumber(raw.pets[i].tag) or -1 end end)"#

    @discardableResult
    func run(_ t: TempFolder, _ args: [String], script: String? = nil, code: Int32 = 0) throws -> ChildResult {
        let r = try OKitRun.run(args, script: script, in: t)
        #expect(r.code == code, "okit-run \(args.joined(separator: " ")): \(r.err)")
        return r
    }

    /// Every file under `folder/okit/data` with its bytes.
    func files(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let root = folder + "/okit/data"
        guard let walk = FileManager.default.enumerator(atPath: root) else { return out }
        for case let rel as String in walk {
            var dir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + rel, isDirectory: &dir), !dir.boolValue {
                out[rel] = FileManager.default.contents(atPath: root + "/" + rel)
            }
        }
        return out
    }

    @Test func aBackupOfAnotherRootTypeIsRefusedBeforeTheSwap() throws {
        guard OKitRun.isBuilt else { return }
        let t = try TempFolder()
        let todo = try t.put("todo/app.lua", "okit.entity(\"List\", { items = \"[string]\" })\nm = okit.model(\"List\")\nokit.app { id = \"todo\" }").path
        let shop = try t.put("shop/app.lua", "okit.entity(\"Shop\", { name = \"string\" })\nm = okit.model(\"Shop\")\nokit.entity(\"N\", { n = \"int\" })\nn = okit.model(\"N\", { name = \"other\" })\nokit.app { id = \"shop\" }").path
        let todoData = t.path + "/todo-data", shopData = t.path + "/shop-data"
        try run(t, [todo, "--data", todoData], script: "m.items:append('milk')")
        try run(t, ["backup", "create", "t1", "--app", todo, "--data", todoData])
        try run(t, [shop, "--data", shopData], script: "m.name = 'precious'; n.n = 7")
        let before = files(shopData)
        #expect(before.keys.sorted() == ["default.json", "other.json"])
        let r = try run(t, ["backup", "restore", todoData + "/okit/backup/t1.okbackup", "--app", shop, "--data", shopData, "--force"], code: 4)
        #expect(r.err.contains("holds a List model, not the Shop this app declares"), "\(r.err)")
        #expect(r.err.contains("nothing was changed"), "\(r.err)")
        #expect(files(shopData) == before)
        try run(t, [shop, "--data", shopData], script: "assert(m.name == 'precious' and n.n == 7)")
    }

    @Test(arguments: [false, true])
    func anOlderVersionsBackupIsMigratedAndANewerOneRefusedFirst(sqlite: Bool) throws {
        guard OKitRun.isBuilt else { return }
        let t = try TempFolder()
        let v1 = try t.put("v1/app.lua", Self.clinic(1, tag: "string", sqlite: sqlite)).path
        let v2 = try t.put("v2/app.lua", Self.clinic(2, tag: "int", sqlite: sqlite, migrate: Self.toInt)).path
        let d = t.path + "/d"
        try run(t, [v1, "--data", d], script: "for _, s in ipairs({ '5', 'A7' }) do m.pets:append(okit.new('Pet', { name = s, tag = s })) end")
        try run(t, ["backup", "create", "v1b", "--app", v1, "--data", d])
        try run(t, [v2, "--data", d], script: "m.pets[1].tag = 6")
        try run(t, ["backup", "create", "v2b", "--app", v2, "--data", d])
        try run(t, ["backup", "restore", "v1b", "--app", v2, "--data", d])
        try run(t, [v2, "--data", d], script: "assert(m.pets[1].tag == 5 and m.pets[2].tag == -1, tostring(m.pets[1].tag))")
        let r = try run(t, ["backup", "restore", "v2b", "--app", v1, "--data", d], code: 4)
        #expect(r.err.contains("was made by version 2 of the app"), "\(r.err)")
        #expect(r.err.contains("an older app does not take newer data"), "\(r.err)")
    }

    /// A migration that does not convert what the backup holds: the restored data does not load, so the old data
    /// is swapped back, byte for byte.
    @Test(arguments: [false, true])
    func aBackupItsMigrationsRefuseLeavesTheDataAsItWas(sqlite: Bool) throws {
        guard OKitRun.isBuilt else { return }
        let t = try TempFolder()
        let v1 = try t.put("v1/app.lua", Self.clinic(1, tag: "string", sqlite: sqlite)).path
        let v2 = try t.put("v2/app.lua", Self.clinic(2, tag: "int", sqlite: sqlite, migrate: "okit.migrate(1, function(model, raw) end)")).path
        let d = t.path + "/d"
        try run(t, [v1, "--data", d], script: "m.pets:append(okit.new('Pet', { name = 'a', tag = 'A7' }))")
        try run(t, ["backup", "create", "v1b", "--app", v1, "--data", d])
        try run(t, [v1, "--data", d], script: "m.pets[1].tag = '12'")
        try run(t, [v2, "--data", d], script: "m.pets[1].tag = 12")   // the v2 app's data now: nothing to convert
        let before = files(d)
        let r = try run(t, ["backup", "restore", "v1b", "--app", v2, "--data", d], code: 4)
        #expect(r.err.contains("backup v1b does not load in this app"), "\(r.err)")
        #expect(r.err.contains("nothing was changed: the data is as it was"), "\(r.err)")
        #expect(files(d) == before)
        let okit = try FileManager.default.contentsOfDirectory(atPath: d + "/okit")
        #expect(!okit.contains { $0.hasPrefix("restore-") || $0.hasPrefix("data-before-restore-") }, "\(okit)")
        try run(t, [v2, "--data", d], script: "assert(m.pets[1].tag == 12)")
    }

    @Test func recoverMovesOnlyAModelThatDoesNotLoad() throws {
        guard OKitRun.isBuilt else { return }
        let t = try TempFolder()
        let app = try t.put("a/app.lua", "okit.entity(\"L\", { s = \"string\" })\nm = okit.model(\"L\")\nx = okit.model(\"L\", { name = \"extra\" })").path
        let d = t.path + "/d"
        try run(t, [app, "--data", d], script: "m.s = 'kept'; x.s = 'x'")
        var r = try run(t, [app, "--data", d, "--recover", "default"], script: "")
        #expect(r.err.contains("model default reads: nothing was moved aside"), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: d + "/okit/data").sorted() == ["default.json", "extra.json"])
        r = try run(t, [app, "--data", d, "--recover", "nosuch"], script: "", code: 2)
        #expect(r.err.contains("the app declares no model \"nosuch\"; its models: default, extra"), "\(r.err)")
        // An unreadable one is moved aside (and only it), and the app starts.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: d + "/okit/data/extra.json"))
        r = try run(t, [app, "--data", d, "--recover", "extra", "--recover", "default"], script: "assert(m.s == 'kept' and x.s ~= 'x')")
        #expect(r.err.contains("moved aside: \(d)/okit/data/extra.json.corrupt-"), "\(r.err)")
        #expect(r.err.contains("model default reads: nothing was moved aside"), "\(r.err)")
    }

    @Test func aModelStoredTwiceIsRefusedNamingTheLiveForm() throws {
        guard OKitRun.isBuilt else { return }
        let t = try TempFolder()
        let file = try t.put("f/app.lua", "okit.entity(\"L\", { s = \"string\" })\nm = okit.model(\"L\")").path
        let sqlite = try t.put("s/app.lua", "okit.entity(\"L\", { s = \"string\" })\nm = okit.model(\"L\", { storage = \"sqlite\" })").path
        let d = t.path + "/d", other = t.path + "/o"
        try run(t, [file, "--data", d], script: "m.s = 'json'")
        try run(t, [sqlite, "--data", other], script: "m.s = 'sqlite'")
        try FileManager.default.copyItem(atPath: other + "/okit/data/default.sqlite", toPath: d + "/okit/data/default.sqlite")
        var r = try run(t, [file, "--data", d], script: "", code: 4)
        #expect(r.err.contains("model \"default\" is stored twice: as a JSON file (default.json), which this app reads (storage = \"file\"), and as a SQLite database (default.sqlite)"), "\(r.err)")
        #expect(r.err.contains("move default.sqlite aside"), "\(r.err)")
        r = try run(t, [sqlite, "--data", d], script: "", code: 4)
        #expect(r.err.contains("as a SQLite database (default.sqlite), which this app reads (storage = \"sqlite\"), and as a JSON file (default.json)"), "\(r.err)")
        // --recover does not move both aside (the model would start empty): the message says which file to keep.
        r = try run(t, [file, "--data", d, "--recover", "default"], script: "", code: 4)
        #expect(r.err.contains("is stored twice") && !r.err.contains("moved aside:"), "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: d + "/okit/data/default.json")
                && FileManager.default.fileExists(atPath: d + "/okit/data/default.sqlite"))
    }
}
