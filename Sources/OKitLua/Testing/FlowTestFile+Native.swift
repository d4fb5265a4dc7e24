import CLua
import Foundation
import OKitEngine

/// The Swift functions behind `require("okit.test")`: launching apps, snapshot files, JSON.
extension FlowTestFile {
    /// Pushes the `native` table the support chunk receives.
    func pushNative() {
        let lua = host.lua
        lua.newTable(hash: 8)
        lua.push(function: "launch") { [unowned self] call in try launch(call) }
        lua.rawSet(-2, "launch")
        lua.push(function: "snapshotJSON") { [unowned self] call in
            let app = try launchedApp(call, 1)
            host.lua.push(FlowTestFile.indentJSON(try app.shell.snapshot().json))
            return 1
        }
        lua.rawSet(-2, "snapshotJSON")
        lua.push(function: "decodeJSON") { [unowned self] call in
            guard host.pushJSON(try call.bytes(1)) else { throw LuaRaise("a snapshot file is not valid JSON") }
            return 1
        }
        lua.rawSet(-2, "decodeJSON")
        lua.push(function: "readFile") { [unowned self] call in
            if let data = FileManager.default.contents(atPath: try call.string(1)) {
                host.lua.push(String(decoding: data, as: UTF8.self))
            } else {
                host.lua.pushNil()
            }
            return 1
        }
        lua.rawSet(-2, "readFile")
        lua.push(function: "writeFile") { call in
            let url = URL(fileURLWithPath: try call.string(1))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(try call.string(2).utf8).write(to: url, options: .atomic)
            return 0
        }
        lua.rawSet(-2, "writeFile")
        lua.push(function: "snapshotDir") { [unowned self] _ in
            let folder = url.deletingLastPathComponent().appendingPathComponent("__snapshots__")
            host.lua.push(folder.appendingPathComponent(url.deletingPathExtension().lastPathComponent).path)
            return 1
        }
        lua.rawSet(-2, "snapshotDir")
        lua.push(function: "record") { [unowned self] call in
            let app = try launchedApp(call, 1)
            let folder = url.deletingLastPathComponent()
            let log = call.stringOrNil(2).map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
                ?? nextSessionLog()
            let header = SessionRecorder.Header(app: app.appFile?.path ?? "", now: app.engine.clock.now,
                                                seed: app.options.seed, language: app.options.language)
            do {
                app.driver.recorder = try SessionRecorder(url: log, header: header, clock: app.engine.clock)
            } catch {
                throw LuaRaise("app:record: cannot write \(log.path): \(error.localizedDescription)", withPosition: false)
            }
            host.lua.push(log.path)
            return 1
        }
        lua.rawSet(-2, "record")
        lua.push(function: "check") { [unowned self] call in
            let app = try launchedApp(call, 1)
            if isReleased(app) {
                throw LuaRaise("this app was launched by a test that has ended, and released with it (launch it again "
                    + "in this test, e.g. in before_each)", withPosition: false)
            }
            return 0
        }
        lua.rawSet(-2, "check")
        lua.push(function: "syncClock") { [unowned self] _ in
            syncClock()
            return 0
        }
        lua.rawSet(-2, "syncClock")
        lua.push(options.updateSnapshots)
        lua.rawSet(-2, "update")
        pushWarningFunctions()
    }

    /// Where `app:record()` without a path writes: `<sessions>/<test file>-<n>.session.jsonl`, the test file's
    /// path as the runner shows it with `/` as `-` (`tests-books_test-1.session.jsonl`), `n` counting the logs
    /// of this file. Outside the scratch folder, so the log outlives the run.
    func nextSessionLog() -> URL {
        recordCount += 1
        var name = displayPath.hasSuffix(".lua") ? String(displayPath.dropLast(4)) : displayPath
        name = name.split(separator: "/").filter { !$0.isEmpty && $0 != "." && $0 != ".." }.joined(separator: "-")
        return options.sessions.appendingPathComponent("\(name)-\(recordCount).session.jsonl")
    }

    /// The app behind a native app object argument.
    func launchedApp(_ call: LuaCall, _ index: Int32) throws -> LuaApp {
        guard let handle = host.lua.object(at: index, metatable: OKitTypes.app, as: LuaAppHandle.self), let app = handle.app else {
            throw LuaRaise("expected an app made by launch()")
        }
        return app
    }

    /// JSON text indented two spaces per level, keys in the order written (snapshot files diff well).
    static func indentJSON(_ text: String) -> String {
        var out = ""
        var depth = 0
        var inString = false
        var escaped = false
        let chars = Array(text)
        func newline() { out += "\n" + String(repeating: "  ", count: depth) }
        for (i, c) in chars.enumerated() {
            if inString {
                out.append(c)
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true; out.append(c)
            case "{", "[":
                out.append(c)
                let next = i + 1 < chars.count ? chars[i + 1] : " "
                if next == "}" || next == "]" { continue }
                depth += 1; newline()
            case "}", "]":
                let prev = i > 0 ? chars[i - 1] : " "
                if prev != "{" && prev != "[" { depth -= 1; newline() }
                out.append(c)
            case ",": out.append(c); newline()
            case ":": out += ": "
            case " ", "\n", "\t", "\r": continue
            default: out.append(c)
            }
        }
        return out + "\n"
    }
}
