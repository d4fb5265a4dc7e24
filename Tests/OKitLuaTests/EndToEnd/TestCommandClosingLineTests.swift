import Foundation
import Testing
import OKitTestSupport

/// `okit-run test` on flow tests: the closing line is the last thing every output prints (on stderr when stdout
/// is the output's own: XML, JSON, busted's terminal and gtest lines), and a junit file that cannot be written is
/// refused before anything runs (testing.md "Busted projects", "Output").
@Suite struct TestCommandClosingLineTests {
    func flowProject() throws -> TempFolder {
        let folder = try TempFolder()
        try folder.put("tests/mix_test.lua", """
        describe("mix", function()
          it("passes", function() end)
          it("fails", function() assert.equal(1, 2) end)
        end)
        """)
        return folder
    }

    @Test func everyOutputOfFlowTestsEndsWithTheClosingLine() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try flowProject()
        let tap = try OKitRun.run(["test", "-C", folder.path])
        #expect(tap.code == 1 && tap.out.hasSuffix("1..2\n1 passed, 1 failed\n") && !tap.err.contains("passed"), "TAP: on stdout")
        for format in ["json", "junit", "gtest", "plainTerminal", "utfTerminal"] {
            let r = try OKitRun.run(["test", "-C", folder.path, "-o", format])
            #expect(r.code == 1, "\(format)")
            #expect(r.err.hasSuffix("1 passed, 1 failed\n"), "\(format): on stderr, last: \(r.err)")
            #expect(!r.out.contains("1 passed, 1 failed"), "\(format): stdout is the output's own")
        }
        let json = try OKitRun.run(["test", "-C", folder.path, "-o", "json"])
        #expect((try? JSONSerialization.jsonObject(with: Data(json.out.utf8))) != nil, "the JSON object alone: \(json.out)")
    }

    @Test func aJUnitFileThatCannotBeWrittenIsRefusedBeforeTheRun() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try flowProject()
        try folder.put("tests/slow_test.lua", "it(\"says it ran\", function() io.stderr:write(\"RAN\\n\") end)\n")
        let missing = try OKitRun.run(["test", "-C", folder.path, "-o", "junit=/nonexistent/dir/x.xml"])
        #expect(missing.code == 2)
        #expect(missing.err == "okit-run test: cannot write the junit report /nonexistent/dir/x.xml: there is no folder /nonexistent/dir; "
                + "nothing was run\n", "\(missing.err)")
        #expect(missing.out.isEmpty && !missing.err.contains("RAN"))
        let folderInstead = try OKitRun.run(["test", "-C", folder.path, "-o", "junit=tests"])
        #expect(folderInstead.code == 2 && folderInstead.err.contains("\(folder.url.appendingPathComponent("tests").path) is a folder"),
                "\(folderInstead.err)")
        let written = try OKitRun.run(["test", "-C", folder.path, "-o", "junit=report.xml"])
        #expect(written.code == 1 && FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("report.xml").path))
    }

    @Test func verboseNamesEachFlowTestsPlace() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let folder = try flowProject()
        let r = try OKitRun.run(["test", "-C", folder.path, "-v"])
        #expect(r.out.hasPrefix("# tests/mix_test.lua:2: mix passes\nok 1 - mix passes\n# tests/mix_test.lua:3: mix fails\nnot ok 2 - mix fails\n"),
                "\(r.out)")
    }
}
