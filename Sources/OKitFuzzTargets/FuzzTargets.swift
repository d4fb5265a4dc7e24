import Foundation
import OKitEngine
import OKitLua

/// okit's fuzz targets: one input through one of okit's readers — `json` (a model file), `binding` (a binding
/// text), `backup` (an .okbackup archive) or `command` (JSON-lines commands to the bookshop). Every input must end
/// in a value or an error: a crash, a hang or unbounded memory is what libFuzzer reports.
///
/// Two callers: `Fuzz/`'s libFuzzer entry point (`scripts/fuzz`, coverage-guided runs) and FuzzCorpusTests, which
/// replays every input of `Fuzz/corpus/` (so `scripts/sanitize` runs the corpora under the sanitizers with the
/// Swift tests, without a build of its own).
public enum FuzzTargets {
    /// The target's names, as `OKIT_FUZZ` and `Fuzz/corpus/<name>/` spell them.
    public static let names = ["json", "binding", "backup", "command"]

    /// One input through the target `name` names (`json` for any other name, as libFuzzer's entry point does);
    /// true when the input was taken (read, compiled, restored; for `command`, the bookshop ran its lines), false
    /// when it was refused — both are fine, as long as it ends.
    @discardableResult
    public static func run(_ name: String, _ bytes: [UInt8]) -> Bool {
        switch name {
        case "binding": binding(bytes)
        case "backup": backup(bytes)
        case "command": command(bytes)
        default: json(bytes)
        }
    }

    /// okit's source folder (the bookshop of the `command` target is read from it).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where the targets write (a model file, a restored backup, the bookshop's data): `okit-fuzz-PID` in the
    /// temporary folder.
    public static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("okit-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    // libFuzzer calls the entry point from one thread (it runs inputs one after another unless told to fork
    // workers, which are processes), and FuzzCorpusTests replays its inputs one after another from one test
    // function, so the schema and the app below are only ever touched by one thread at a time.

    /// A shop schema: books with authors, dates, prices, refs and an image field.
    nonisolated(unsafe) static let schema: Schema = {
        let s = Schema()
        try? s.entity("Author", fields: [FieldSpec("name", .string)])
        try? s.entity("Book", fields: [
            FieldSpec("name", .string), FieldSpec("date", .date), FieldSpec("price", .double), FieldSpec("copies", .int),
            FieldSpec("marked", .bool), (try? FieldSpec("authors", "[Author]")) ?? FieldSpec("a", .string),
            (try? FieldSpec("lead", "ref Author")) ?? FieldSpec("b", .string), (try? FieldSpec("cover", "image?")) ?? FieldSpec("c", .string),
        ])
        try? s.entity("Shop", fields: [(try? FieldSpec("books", "[Book]")) ?? FieldSpec("d", .string),
                                       (try? FieldSpec("authors", "[Author]")) ?? FieldSpec("e", .string)])
        try? s.validate()
        return s
    }()

    /// A model file: read into a fresh engine (errors are fine), written back when it read.
    @discardableResult
    public static func json(_ bytes: [UInt8]) -> Bool {
        let folder = scratch.appendingPathComponent("json")
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("okit/data"), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("okit/data/default.json").path, contents: Data(bytes))
        guard let storage = try? FileStorage(dataFolder: folder) else { return false }
        defer { storage.close() }
        let engine = Engine(schema: schema)
        guard let model = try? engine.register(model: "default", type: "Shop", storage: storage) else { return false }
        _ = engine.json(of: model)
        return true
    }

    /// A binding text: compiled, and evaluated on an empty shop when it compiles.
    @discardableResult
    public static func binding(_ bytes: [UInt8]) -> Bool {
        let engine = Engine(schema: schema)
        guard let model = try? engine.register(model: "default", type: "Shop", storage: TransientStorage()) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let b = try? engine.compile(text) else { return false }
        _ = try? engine.evaluate(b, model.root)
        return true
    }

    /// An archive: restored into an empty data folder (refusals are fine).
    @discardableResult
    public static func backup(_ bytes: [UInt8]) -> Bool {
        let folder = scratch.appendingPathComponent("backup")
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("okit/data"), withIntermediateDirectories: true)
        let archive = scratch.appendingPathComponent("input.okbackup")
        FileManager.default.createFile(atPath: archive.path, contents: Data(bytes))
        let store = BackupStore(dataFolder: folder)
        return (try? store.restore(archive.path, password: "pw", key: { _ in nil })) != nil
    }

    /// JSON-lines commands, one per line, to the bookshop (in-process).
    nonisolated(unsafe) static let app: LuaApp? = {
        var options = LuaAppOptions()
        options.dataFolder = scratch.appendingPathComponent("app")
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.print = { _ in }
        guard let app = try? LuaApp(options: options) else { return nil }
        try? app.load(appFile: root.appendingPathComponent("examples/bookshop/app.lua"))
        return app
    }()

    @discardableResult
    public static func command(_ bytes: [UInt8]) -> Bool {
        guard let app else { return false }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(20) {
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let name = object["cmd"] as? String else { continue }
            var args: [String: Value] = [:]
            for (k, v) in object where k != "cmd" { args[k] = value(v) }
            _ = try? app.driver.run(name, args)
            _ = try? app.shell.snapshot(offset: 0, limit: 50)
        }
        return true
    }

    static func value(_ v: Any) -> Value {
        switch v {
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            return n.doubleValue == n.doubleValue.rounded() && abs(n.doubleValue) < 9e15 ? .int(Int(n.doubleValue)) : .double(n.doubleValue)
        case let s as String: return .string(s)
        case let a as [Any]: return .list(a.map(value))
        default: return .null
        }
    }
}
