import Foundation
import OKitEngine
import OKitLua

/// libFuzzer's entry point (`swift build -sanitize=fuzzer`): one input through the target `OKIT_FUZZ` names —
/// `json` (a model file), `binding` (a binding text), `backup` (an .okbackup archive) or `command` (JSON-lines
/// commands to the bookshop). Every input must end in a value or an error: a crash, a hang or unbounded memory
/// is what libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch FuzzTargets.target {
    case "binding": FuzzTargets.binding(bytes)
    case "backup": FuzzTargets.backup(bytes)
    case "command": FuzzTargets.command(bytes)
    default: FuzzTargets.json(bytes)
    }
    return 0
}

enum FuzzTargets {
    static let target = ProcessInfo.processInfo.environment["OKIT_FUZZ"] ?? "json"
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("okit-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    // libFuzzer calls the entry point from one thread (it runs inputs one after another unless told to fork
    // workers, which are processes), so the schema and the app below are only ever touched by that thread.

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
    static func json(_ bytes: [UInt8]) {
        let folder = scratch.appendingPathComponent("json")
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("okit/data"), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("okit/data/default.json").path, contents: Data(bytes))
        guard let storage = try? FileStorage(dataFolder: folder) else { return }
        defer { storage.close() }
        let engine = Engine(schema: schema)
        if let model = try? engine.register(model: "default", type: "Shop", storage: storage) {
            _ = engine.json(of: model)
        }
    }

    /// A binding text: compiled, and evaluated on an empty shop when it compiles.
    static func binding(_ bytes: [UInt8]) {
        let engine = Engine(schema: schema)
        guard let model = try? engine.register(model: "default", type: "Shop", storage: TransientStorage()) else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        if let b = try? engine.compile(text) { _ = try? engine.evaluate(b, model.root) }
    }

    /// An archive: restored into an empty data folder (refusals are fine).
    static func backup(_ bytes: [UInt8]) {
        let folder = scratch.appendingPathComponent("backup")
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("okit/data"), withIntermediateDirectories: true)
        let archive = scratch.appendingPathComponent("input.okbackup")
        FileManager.default.createFile(atPath: archive.path, contents: Data(bytes))
        let store = BackupStore(dataFolder: folder)
        _ = try? store.restore(archive.path, password: "pw", key: { _ in nil })
    }

    /// JSON-lines commands, one per line, to the bookshop (in-process).
    nonisolated(unsafe) static let app: LuaApp? = {
        var options = LuaAppOptions()
        options.dataFolder = scratch.appendingPathComponent("app")
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.print = { _ in }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        guard let app = try? LuaApp(options: options) else { return nil }
        try? app.load(appFile: root.appendingPathComponent("examples/bookshop/app.lua"))
        return app
    }()

    static func command(_ bytes: [UInt8]) {
        guard let app else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(20) {
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let name = object["cmd"] as? String else { continue }
            var args: [String: Value] = [:]
            for (k, v) in object where k != "cmd" { args[k] = value(v) }
            _ = try? app.driver.run(name, args)
            _ = try? app.shell.snapshot(offset: 0, limit: 50)
        }
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
