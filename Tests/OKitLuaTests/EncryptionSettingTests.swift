import Foundation
import OKitEngine
import Testing
import OKitTestSupport

/// The `encryption` setting reaches every file of an encrypted model — its payloads, data and images, loaded or
/// not — however it changes (a script, not only a screen command), and a switch cut short is finished at the
/// next start (storage.md "encrypted").
@Suite struct EncryptionSettingTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Group", { name = "string", notes = "string" })
    okit.partial("GroupDefer", "Group", { name = "string" }, { field = "group", sync = { "name" } })
    okit.entity("Card", { name = "string", photo = "image?", blob = "data?" })
    okit.entity("Directory", { cards = "[Card]", groups = "[GroupDefer]" })
    dir = okit.model("Directory", { name = "dir", storage = "encrypted" })
    settings = okit.model(okit.Settings, { name = "settings" })
    okit.list("cards", { type = "Card", dataPath = "dir>/cards", cell = { path = "name" } })
    okit.app { id = "enc", home = "cards", contextPath = "settings>/", encryption = "encryption" }
    """
    static let seed = """
    local card = okit.new("Card", { name = "Secret card" })
    dir.cards:append(card)
    okit.data.write(card, "photo", "\\x89PNG\\r\\n\\x1a\\nsecret-photo", "image/png")
    okit.data.write(card, "blob", "secret-blob", "application/octet-stream")
    local g = okit.new("GroupDefer", { name = "Secret group" })
    dir.groups:append(g)
    g.group.notes = "secret notes"
    """

    /// Every file of the `dir` model (model file, payloads, data, images) with whether it is sealed.
    static func files(_ data: URL) throws -> [(String, Bool)] {
        let root = data.appendingPathComponent("okit/data")
        var out: [(String, Bool)] = []
        for rel in ["dir.json"] + ["dir", "dir/_data", "dir/_image"].flatMap({ sub in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(sub).path)) ?? [])
                .filter { !$0.hasPrefix("_") && !$0.hasPrefix(".") }.map { sub + "/" + $0 }
        }) {
            let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(rel)))
            out.append((rel, SealedFile.isSealed(bytes)))
        }
        return out
    }

    func run(_ dir: URL, script: String) throws -> Int32 {
        let s = dir.appendingPathComponent("s-\(UUID().uuidString).lua")
        try script.write(to: s, atomically: true, encoding: .utf8)
        return try OKitRun.run([dir.appendingPathComponent("app.lua").path, "--data",
                                                            dir.appendingPathComponent("data").path, "--script", s.path]).code
    }

    func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Self.app.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func aScriptSwitchingTheSettingReachesEveryFile() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data")
        #expect(try run(dir, script: Self.seed) == 0)
        var files = try Self.files(data)
        #expect(files.count == 4, "\(files)")
        #expect(files.allSatisfy { $0.1 }, "sealed: \(files)")
        #expect(try run(dir, script: "settings.encryption = false") == 0)
        files = try Self.files(data)
        #expect(files.allSatisfy { !$0.1 }, "plain after the script switched it off: \(files)")
        #expect(try run(dir, script: "settings.encryption = true") == 0)
        files = try Self.files(data)
        #expect(files.allSatisfy { $0.1 }, "sealed again, payload and side files too: \(files)")
        #expect(try run(dir, script: "assert(dir.cards[1].name == 'Secret card' and dir.groups[1].group.notes == 'secret notes')") == 0)
    }

    @Test func aSwitchCutShortIsFinishedAtTheNextStart() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data")
        #expect(try run(dir, script: Self.seed + "\nsettings.encryption = false") == 0)
        #expect(try Self.files(data).allSatisfy { !$0.1 })
        // A switch back on that stopped after the model file: the record says so, the side files are plain.
        let form = data.appendingPathComponent("okit/data/dir.form")
        #expect(try String(contentsOf: form, encoding: .utf8) == "plain\n")
        #expect(try run(dir, script: "settings.encryption = true; okit.storeState()") == 0)
        let model = data.appendingPathComponent("okit/data/dir.json")
        let sealed = try Data(contentsOf: model)
        #expect(try run(dir, script: "settings.encryption = false") == 0)
        try "switching\n".write(to: form, atomically: true, encoding: .utf8)
        try sealed.write(to: model)   // the model file already sealed, the rest still plain
        #expect(try run(dir, script: "settings.encryption = true") == 0)
        let after = try Self.files(data)
        #expect(after.allSatisfy { $0.1 }, "\(after)")
        #expect(try String(contentsOf: form, encoding: .utf8) == "sealed\n")
    }
}
