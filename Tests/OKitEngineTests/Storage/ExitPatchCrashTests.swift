import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// quality.md promise 1 for the exit patch (storage.md "Writing"): `kill -9` of an okit-run process at any
/// instant — while it loads, stores a rename to the journal, or patches the model file at exit — leaves a model
/// file that is valid JSON and loads as the previous or the new state, never losing a stored rename.
@Suite struct ExitPatchCrashTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string", count = "int" })
    okit.entity("Shop", { books = "[Book]" })
    shop = okit.model("Shop")
    """

    /// Renames book 30 to the next number and stores it (a journal record), prints the number (a script's `print` goes to stderr); okit-run then
    /// patches the file at exit. The first run makes the 60 books.
    static let step = """
    local okit = require "okit"
    if #shop.books == 0 then
      for i = 1, 60 do shop.books:append(okit.new("Book", { name = string.format("book %02d v%06d", i, 0) })) end
      okit.store(shop)
    end
    local b = shop.books[30]
    local n = tonumber(b.name:sub(-6)) + 1
    b.name = string.format("book 30 v%06d", n)
    okit.store(shop)
    print(n)
    """

    /// The number in book 30's name as a fresh engine loads the folder (the other books checked unchanged).
    func loadedNumber(_ folder: TempFolder) throws -> Int {
        let schema = Schema()
        try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int)])
        try schema.entity("Shop", fields: [FieldSpec("books", .array(.entity("Book")))])
        let engine = Engine(schema: schema)
        let storage = try FileStorage(dataFolder: folder.url)
        defer { storage.close() }
        let model = try engine.register(model: "default", type: "Shop", storage: storage)
        let names = try engine.collection(model.root, "books").items.compactMap { $0.entity?["name"]?.description }
        try #require(names.count == 60)
        for (i, name) in names.enumerated() where i != 29 { #expect(name == String(format: "book %02d v000000", i + 1)) }
        return try #require(Int(names[29].suffix(6)))
    }

    @Test func killingOkitRunWhileItPatchesAtExitNeverLosesOrMixesAStore() throws {
        try #require(OKitRun.isBuilt, "okit-run is not built at \(OKitRun.binary.path): run `swift build` first")
        let folder = try TempFolder()
        let app = folder.url.appendingPathComponent("app.lua"), step = folder.url.appendingPathComponent("step.lua")
        try Self.app.write(to: app, atomically: true, encoding: .utf8)
        try Self.step.write(to: step, atomically: true, encoding: .utf8)
        let args = [app.path, "--data", folder.url.path, "--script", step.path]
        // Three whole runs (the first makes the books), each a rename and a patch; the last two's shorter one is the
        // first guess of when a run stores. Then each round kills at a time around that guess, and the guess moves
        // later after a round killed before its store and earlier after one that stored: the kills gather where the
        // store and the exit patch are, however fast or slow the machine is at the moment (not asserted).
        var lifetime = Double.infinity
        for n in 1...3 {
            let started = Date()
            let whole = try ChildProcess.run(OKitRun.binary.path, args)
            if n > 1 { lifetime = min(lifetime, max(Date().timeIntervalSince(started), 0.01)) }
            #expect(whole.out.hasPrefix("\(n)"), "a script's print goes to stdout: \(whole.out) \(whole.err)")
        }
        var stored = try loadedNumber(folder)
        #expect(stored == 3)
        var rng = SplitMix(seed: 38)
        var leftBehind = 0
        for round in 0..<40 {
            let p = try ChildProcess.start(OKitRun.binary.path, args)
            let fraction = 0.7 + Double(rng.next() % 1000) / 1000 * 0.4
            usleep(UInt32(lifetime * fraction * 1_000_000))
            p.signal(SIGKILL)
            let printed = Int(p.wait().out.trimmingCharacters(in: .whitespacesAndNewlines))
            let data = try Data(contentsOf: folder.file("default.json"))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "round \(round): the model file is valid JSON")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.modelsFolder.path)) ?? []
            if files.contains("default.patch") || files.contains("default.journal") { leftBehind += 1 }
            let now = try loadedNumber(folder)
            #expect(now == stored || now == stored + 1, "round \(round): \(stored) before, \(now) now")
            if let printed { #expect(now == printed, "round \(round): the stored rename \(printed) was lost (\(now))") }
            lifetime *= now == stored ? 1.15 : 0.9
            stored = now
        }
        #expect(stored > 3, "some rounds stored their rename")
        // How many kills left a journal or an intent behind: shown, not asserted (it depends on timing).
        print("ExitPatchCrashTests: \(leftBehind) of 40 kills left a journal or an intent; the last rename stored is \(stored)")
    }
}
