import Foundation
import OKitTestSupport
import Testing

/// `okit-run check`'s options and the run's words on what an outside user's probe found (/tmp/probe-check), through
/// the binary.
@Suite struct CheckProbeCommandTests {
    static let app = """
    local home = os.getenv("HOME")
    okit.entity("Book", { title = "string" })
    okit.entity("Shop", { books = "[Book]" })
    shop = okit.model("Shop")
    okit.list("books", { dataPath = "books", cell = { path = "title" } })
    okit.app { home = "books" }
    """

    /// check takes the run's options that change what loads (`--unsafe`, `--lang`) and refuses the others, a
    /// misspelt one with the option meant.
    @Test func checkTakesUnsafeAndLangAndRefusesOtherOptions() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (dir, file) = try DeclarationTypoCommandTests.write(Self.app)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sandboxed = try OKitRun.run(["check", file.path])
        #expect(sandboxed.code == 3)
        #expect(sandboxed.out.contains("os.getenv is outside okit's sandbox"), "\(sandboxed.out)")
        let unsafe = try OKitRun.run(["check", file.path, "--unsafe", "--lang", "de"])
        #expect(unsafe.code == 0, "\(unsafe.out)\(unsafe.err)")
        #expect(unsafe.out.hasPrefix("app.lua: 0 problems"), "\(unsafe.out)")
        let runOnly = try OKitRun.run(["check", file.path, "--json"])
        #expect(runOnly.code == 2)
        #expect(runOnly.err.contains("check does not take --json"), "\(runOnly.err)")
        let typo = try OKitRun.run(["check", file.path, "--unsaf"])
        #expect(typo.code == 2)
        #expect(typo.err.contains("check: unknown option --unsaf (did you mean --unsafe?)"), "\(typo.err)")
    }

    /// A warning said while loading is printed also when the load then stops (it may be why).
    @Test func warningsAreSaidBeforeTheErrorThatStopsTheLoad() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (dir, file) = try DeclarationTypoCommandTests.write("""
        okit.entity("Book", { title = "string" })
        okit.entity("Shop", { books = "[Book]" })
        shop = okit.model("Shop")
        okit.list("books", { dataPath = "books", rowsort = "title", cell = { path = "title" }, segue = "bok" })
        okit.app { home = "books" }
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try OKitRun.run([file.path, "--data", dir.appendingPathComponent("data").path, "--json"])
        #expect(run.code == 3)
        #expect(run.err.contains("okit-run: warning: app.lua:4:42: screen books, property rowsort: unknown property \"rowsort\" (did you mean \"rowSort\"?) (ignored)\n"),
                "\(run.err)")
        #expect(run.err.contains("screen books, property segue: no screen \"bok\" is declared"), "\(run.err)")
    }

    /// `--now` (and `--seed`) without `--clock virtual` were read by nothing: refused with what to add.
    @Test func nowWithoutTheVirtualClockIsRefused() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (dir, file) = try DeclarationTypoCommandTests.write("okit.entity(\"Shop\", { name = \"string\" })\nshop = okit.model(\"Shop\")\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data").path
        let r = try OKitRun.run([file.path, "--data", data, "--now", "2026-11-29T03:00:00Z", "--json"])
        #expect(r.code == 2)
        #expect(r.err.contains("--now is read by the virtual clock only (the system clock is the real time): add --clock virtual"), "\(r.err)")
        let virtual = try OKitRun.run([file.path, "--data", data, "--now", "2026-11-29T03:00:00Z", "--clock", "virtual", "--json"])
        #expect(virtual.code == 0, "\(virtual.err)")
    }

    /// A folder given as the app: exit 2, naming the app file in it.
    @Test func aFolderGivenAsTheAppIsRefusedWithItsAppFile() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (dir, _) = try DeclarationTypoCommandTests.write("okit.entity(\"Shop\", { name = \"string\" })\nshop = okit.model(\"Shop\")\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [["check", dir.path], [dir.path, "--json"]] {
            let r = try OKitRun.run(args)
            #expect(r.code == 2)
            #expect(r.err.contains("okit-run: \(dir.path) is a folder, not an app file; give its app file: \(dir.path)/app.lua"), "\(r.err)")
        }
    }
}
