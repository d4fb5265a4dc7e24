import Foundation
import OKitTestSupport
import Testing

/// `okit-run check` and `okit-run APP` on the names a person misspells (issue 36 items 1 and 2), through the binary.
@Suite struct DeclarationTypoCommandTests {
    static func write(_ source: String) throws -> (dir: URL, file: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-typo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("app.lua")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return (dir, file)
    }

    @Test func checkExitsNonZeroNamingEachUnknownScreenName() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (dir, file) = try Self.write("""
        okit.entity("Visit", { reason = "string", date = "date" })
        okit.entity("Clinic", { visits = "[Visit]" })
        clinic = okit.model("Clinic")
        okit.list("visits", { dataPath = "visits", group = "reason", groupFootr = "%Visits", cell = { path = "reason" }, segue = "visit" })
        okit.detail("visit", { sections = { { okit.cell.date { path = "%Date", dataPath = "date" } } } })
        okit.app { home = "visits" }
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OKitRun.run(["check", file.path])
        #expect(r.code == 3)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines == [
            "app.lua:4:62: screen visits, property groupFootr: unknown property \"groupFootr\" (did you mean \"groupFooter\"?)",
            "app.lua:5:72: screen visit, property cell Date.dataPath: unknown property \"dataPath\" (did you mean \"datePath\"?)",
            "app.lua: 2 problems in 2 screens, 4 bindings",
        ], "\(r.out)")
        // Running the app warns and goes on, as before.
        let run = try OKitRun.run([file.path, "--data", dir.appendingPathComponent("data").path, "--json"])
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("warning: app.lua:4:62: screen visits, property groupFootr: unknown property \"groupFootr\""), "\(run.err)")
    }

    @Test func aMisspelledModelOptionOrFieldRuleStopsTheAppAndTheCheck() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (dir, file) = try Self.write("""
        okit.entity("Visit", { fee = { "double", minimum = 0 } })
        okit.entity("Clinic", { visits = "[Visit]" })
        clinic = okit.model("Clinic", { storag = "sqlite" })
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try OKitRun.run(["check", file.path])
        #expect(check.code == 3)
        // On stdout as check's other findings, with the summary (cli.md).
        #expect(check.out.contains("app.lua:1:42: okit.entity(\"Visit\"), field \"fee\": unknown key \"minimum\" (did you mean \"min\"?)"), "\(check.out)")
        #expect(check.out.hasSuffix("app.lua: 1 problem: the app does not load, so no screen was checked\n"), "\(check.out)")
        try "okit.entity(\"Visit\", { fee = { \"double\", min = 0 } })\nokit.entity(\"Clinic\", { visits = \"[Visit]\" })\nclinic = okit.model(\"Clinic\", { storag = \"sqlite\" })\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try OKitRun.run([file.path, "--data", dir.appendingPathComponent("data").path, "--json"])
        #expect(run.code == 3)
        #expect(run.err.contains("app.lua:3:33: okit.model(\"Clinic\"): unknown option \"storag\" (did you mean \"storage\"?)"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("data/okit/data/default.json").path), "nothing is stored")
    }

    @Test func checkReportsAMisspelledNameInsideARulesTable() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (dir, file) = try Self.write("""
        okit.entity("B", { copies = { "int", min = { 1, mesage = "Al menos un ejemplar" } } })
        okit.entity("R", { bs = "[B]" })
        r = okit.model("R")
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try OKitRun.run(["check", file.path])
        #expect(check.code == 3)
        #expect(check.out.hasPrefix("app.lua:1:49: okit.entity(\"B\"), field \"copies\", rule min: unknown key \"mesage\" (did you mean \"message\"?)"), "\(check.out)")
        #expect(check.out.hasSuffix("app.lua: 1 problem: the app does not load, so no screen was checked\n"), "\(check.out)")
    }
}
