import Foundation
import OKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// okit-run on a real full disk (cli.md "Storing, stopping and warnings"): `quit` answers an error and the
/// session stays while the store fails; the end of input and a stop signal exit 4 saying what is lost; autosave
/// says a failure once, in words, in the answers' `warnings`. An outside tester's `{"cmd":"quit"}` was answered
/// `{"ok": true}` while the change was lost, and autosave failed silently for JSON-lines clients.
@Suite(.serialized, .enabled(if: SmallDisk.isAvailable, Comment(rawValue: SmallDisk.unavailable)))
struct FullDiskTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Task", { title = "string" })
    okit.entity("List", { tasks = "[Task]" })
    list = okit.model("List")
    okit.list("tasks", { type = "Task", dataPath = "tasks", cell = { path = "title" }, add = "#true", addName = "title" })
    okit.app { id = "tasks", home = "tasks", autosave = 1 }
    """

    /// okit-run speaking JSON lines through pipes: a line is written, its answer read.
    final class Lines {
        let child: ChildProcess
        let input: Int32
        let output: FileHandle

        init(_ args: [String]) throws {
            var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
            pipe(&toChild)
            pipe(&fromChild)
            child = try ChildProcess.start(OKitRun.binary.path, args + ["--json"], stdin: .descriptor(toChild[0]),
                                           stdout: .descriptor(fromChild[1]), closing: [toChild[1], fromChild[0]])
            close(toChild[0])
            close(fromChild[1])
            input = toChild[1]
            output = FileHandle(fileDescriptor: fromChild[0], closeOnDealloc: true)
        }

        /// Sends a line and reads its answer.
        func send(_ line: String) -> String {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            var answer = [UInt8]()
            var byte: UInt8 = 0
            while read(output.fileDescriptor, &byte, 1) == 1, byte != 10 { answer.append(byte) }
            return String(decoding: answer, as: UTF8.self)
        }

        /// Closes stdin (the end of input) and waits for the end.
        func end() -> ChildResult {
            close(input)
            return child.wait(timeout: 60)
        }
    }

    static func start(_ disk: SmallDisk, clock: String = "virtual") throws -> (Lines, URL) {
        let appFile = disk.url.appendingPathComponent("app.lua")
        try app.write(to: appFile, atomically: true, encoding: .utf8)
        let data = disk.url.appendingPathComponent("d")
        return (try Lines([appFile.path, "--data", data.path, "--clock", clock]), data.appendingPathComponent("okit/data/default.json"))
    }

    @Test func quitOnAFullDiskAnswersAnErrorAndTheSessionStays() throws {
        let disk = try SmallDisk()
        let (lines, file) = try Self.start(disk)
        #expect(lines.send(#"{"cmd":"store"}"#).hasPrefix(#"{"ok":true"#))
        disk.fill()
        _ = lines.send(#"{"cmd":"add"}"#)
        #expect(lines.send(#"{"cmd":"respond","action":"OK","fields":["typed on a full disk"]}"#).hasPrefix(#"{"ok":true"#))
        let refused = lines.send(#"{"cmd":"quit"}"#)
        #expect(refused.hasPrefix(#"{"ok":false,"error":"could not store the state ("#), "\(refused)")
        #expect(refused.contains("/okit/data/default.json: cannot write: no space left on the disk"), "\(refused)")
        #expect(refused.contains("free some space on the disk and quit again, or {\\\"cmd\\\":\\\"quit!\\\"} to leave without storing them"), "\(refused)")
        #expect(!refused.contains(".tmp"), "\(refused)")
        // Space comes back: the next quit stores everything and ends the process with 0.
        disk.free()
        #expect(lines.send(#"{"cmd":"quit"}"#) == #"{"ok":true}"#)
        let ended = lines.end()
        #expect(ended.code == 0, "\(ended.err)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("typed on a full disk"))
    }

    /// A session on `disk` whose last change (a task "lost", added after the disk filled up) is not stored.
    static func unstoredChange(on disk: SmallDisk) throws -> Lines {
        let (lines, _) = try start(disk)
        #expect(lines.send(#"{"cmd":"store"}"#).hasPrefix(#"{"ok":true"#))
        disk.fill()
        _ = lines.send(#"{"cmd":"add"}"#)
        _ = lines.send(#"{"cmd":"respond","action":"OK","fields":["lost"]}"#)
        return lines
    }

    @Test func theEndOfInputOnAFullDiskSaysWhatIsLost() throws {
        let disk = try SmallDisk()
        let lines = try Self.unstoredChange(on: disk)
        let ended = lines.end()
        #expect(ended.code == 4, "\(ended.err)")
        #expect(ended.err.contains("default.json: cannot write: no space left on the disk"), "\(ended.err)")
        #expect(ended.err.contains("okit-run: exited WITHOUT storing the state: the changes since the last store that worked are lost"), "\(ended.err)")
    }

    @Test func aStopSignalOnAFullDiskSaysWhatIsLost() throws {
        let disk = try SmallDisk()
        let lines = try Self.unstoredChange(on: disk)
        lines.child.signal(SIGTERM)
        let ended = lines.end()
        #expect(ended.code == 4, "\(ended.err)")
        #expect(ended.err.contains("okit-run: stopped (signal 15) WITHOUT storing the state"), "\(ended.err)")
    }

    @Test func quitBangLeavesWithoutStoring() throws {
        let disk = try SmallDisk()
        let (lines, file) = try Self.start(disk)
        #expect(lines.send(#"{"cmd":"store"}"#).hasPrefix(#"{"ok":true"#))
        _ = lines.send(#"{"cmd":"add"}"#)
        _ = lines.send(#"{"cmd":"respond","action":"OK","fields":["not kept"]}"#)
        #expect(lines.send("quit!") == #"{"ok":true}"#)
        let ended = lines.end()
        #expect(ended.code == 4, "\(ended.err)")
        #expect(ended.err.contains("okit-run: left with quit! WITHOUT storing the state"), "\(ended.err)")
        #expect(try !String(contentsOf: file, encoding: .utf8).contains("not kept"))
    }

    /// Autosave failing on every tick is said once, in words, in the next answer's `warnings` (and by
    /// `{"cmd":"warnings"}`); that it works again is said once too.
    @Test func autosaveFailuresAreSaidOncePerStreak() throws {
        let disk = try SmallDisk()
        let (lines, file) = try Self.start(disk)
        #expect(lines.send(#"{"cmd":"store"}"#).hasPrefix(#"{"ok":true"#))
        disk.fill()
        _ = lines.send(#"{"cmd":"add"}"#)
        _ = lines.send(#"{"cmd":"respond","action":"OK","fields":["typed while full"]}"#)
        let failed = lines.send(#"{"cmd":"advance","seconds":1}"#)
        let said = #"autosave could not store model \"default\" (default.json: no space left on the disk); your changes are kept in memory and stored when there is room"#
        #expect(failed.contains(#""warnings":[""# + said), "\(failed)")
        let again = lines.send(#"{"cmd":"advance","seconds":3}"#)
        #expect(!again.contains("warnings"), "\(again)")
        disk.free()
        let works = lines.send(#"{"cmd":"advance","seconds":1}"#)
        #expect(works.contains("autosave works again: your changes are stored"), "\(works)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("typed while full"))
        let all = lines.send(#"{"cmd":"warnings"}"#)
        #expect(all.contains(said) && all.contains("autosave works again"), "\(all)")
        #expect(lines.send(#"{"cmd":"quit"}"#) == #"{"ok":true}"#)
        #expect(lines.end().code == 0)
    }

    /// A data folder on a read-only file system: what to do, in okit-run's words.
    @Test func aReadOnlyDataFolderSaysWhatToDo() throws {
        let disk = try SmallDisk()
        let appFile = disk.url.appendingPathComponent("app.lua")
        try Self.app.write(to: appFile, atomically: true, encoding: .utf8)
        let data = disk.url.appendingPathComponent("d")
        #expect(try OKitRun.run([appFile.path, "--data", data.path, "--json"], stdin: .text(#"{"cmd":"quit"}"# + "\n")).code == 0)
        try disk.remount(readOnly: true)
        defer { try? disk.remount(readOnly: false) }
        for folder in [data, disk.url.appendingPathComponent("new")] {
            let r = try OKitRun.run([appFile.path, "--data", folder.path, "--json"], stdin: .text(#"{"cmd":"quit"}"# + "\n"))
            #expect(r.code == 4, "\(r.err)")
            #expect(r.err.contains("the file system is mounted read-only; okit-run writes its data folder: remount the file system read-write, or pass --data a folder on a writable disk"), "\(r.err)")
            #expect(!r.err.contains("The volume is read only"), "\(r.err)")
        }
    }
}
