import Foundation
import OKitBackends
import Testing
import OKitEngine
import OKitLua

/// The command input, fuzzed (quality.md "Reliability promises" 6): thousands of JSON-lines commands from a fixed
/// seed — every command name, arguments of every JSON type with extreme numbers, empty, huge and unicode strings,
/// nested arrays, missing and extra arguments — run against the bookshop in-process. Each command succeeds or
/// fails with a short message (one or two lines); the app answers `screen` afterwards and stores at the end.
@Suite struct CommandFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func randomCommandsFailWithShortMessagesAndNeverCrash() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-command-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var o = LuaAppOptions()
        o.storageKinds = .builtIn
        o.dataFolder = folder
        o.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        o.passphrase = nil
        o.print = { _ in }
        let app = try LuaApp(options: o)
        try app.load(appFile: Self.root.appendingPathComponent("examples/bookshop/app.lua"))

        // OKIT_FUZZ_SEED and OKIT_FUZZ_COUNT run other and longer sessions (outside scripts/test).
        let env = ProcessInfo.processInfo.environment
        var gen = CommandGenerator(seed: env["OKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x0C0F_FEE5)
        let count = env["OKIT_FUZZ_COUNT"].flatMap { Int($0) } ?? 3000
        var failures: [String] = []
        func check(_ error: Error, _ line: String) {
            let message = "\(error)"
            let lines = message.split(separator: "\n", omittingEmptySubsequences: false).count
            if message.isEmpty || message.count > 320 || lines > 2 {
                let shown = (line.prefix(80) + " → " + message.prefix(160)).replacingOccurrences(of: "\n", with: "⏎")
                failures.append("(\(message.count) characters, \(lines) lines) \(shown)")
            }
        }
        // OKIT_FUZZ_TRACE=1 prints each line before it runs (to find the input of a crash).
        let trace = env["OKIT_FUZZ_TRACE"] != nil
        var tour: [String] = []
        for step in 0..<count {
            // Every 150 commands, a tour of a book's edit cells: home, the first book, edit mode, then values.
            if step % 150 == 75 {
                tour = [#"{"cmd":"respond","action":"2"}"#, #"{"cmd":"authenticate","ok":true}"#, #"{"cmd":"close"}"#,
                        #"{"cmd":"close"}"#, #"{"cmd":"tab","id":"books"}"#, #"{"cmd":"back"}"#, #"{"cmd":"back"}"#,
                        #"{"cmd":"back"}"#, #"{"cmd":"tap","row":1}"#, #"{"cmd":"edit","on":true}"#]
                    + (0..<30).map { _ in gen.setLine() }
            }
            // While an alert waits, most commands are refused: answer it often.
            let line = !tour.isEmpty ? tour.removeFirst()
                : app.shell.pendingAlert != nil && gen.below(2) == 0 ? gen.respondLine() : gen.line()
            if trace { FileHandle.standardError.write(Data((line.prefix(300) + "\n").utf8)) }
            guard let data = line.data(using: .utf8),
                  let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  let cmd = object["cmd"] as? String else { continue }
            // As the JSON-lines driver: the command, then the snapshot with the line's offset and limit.
            let started = Date()
            do {
                try run(app.driver, cmd, object)
                _ = try app.shell.snapshot(offset: object["offset"] as? Int ?? 0, limit: object["limit"] as? Int ?? 200)
                if trace { FileHandle.standardError.write(Data("  ok\n".utf8)) }
            } catch {
                check(error, line)
                if trace { FileHandle.standardError.write(Data("  error: \("\(error)".prefix(200))\n".utf8)) }
            }
            if trace, Date().timeIntervalSince(started) > 0.05 {
                FileHandle.standardError.write(Data("  slow: \(Int(Date().timeIntervalSince(started) * 1000)) ms\n".utf8))
            }
        }
        if !failures.isEmpty {
            Issue.record("\(failures.count) messages too long or multi-line:\n\(failures.prefix(10).joined(separator: "\n"))")
        }
        // The session goes on: the app answers screen and stores.
        if app.shell.pendingAlert != nil { _ = try? app.driver.run("respond", ["action": .string("2")]) }
        if app.shell.covered { _ = try? app.driver.run("authenticate", ["ok": .bool(true)]) }
        try app.driver.run("screen", [:])
        _ = try app.shell.snapshot(offset: 0, limit: 200)
        try app.storeState()
    }

    /// The JSON-lines driver's conversion (okit-run's DriverCommands): fields become named arguments.
    func run(_ driver: Driver, _ cmd: String, _ o: [String: Any]) throws {
        var args: [String: Value] = [:]
        for (k, v) in o where k != "cmd" { args[k] = value(v) }
        try driver.run(cmd, args)
    }

    func value(_ v: Any?) -> Value {
        switch v {
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 9e15 ? .int(Int(d)) : .double(d)
        case let s as String: return .string(s)
        case let a as [Any]: return .list(a.map { value($0) })
        case let o as [String: Any] where (o["secret"] as? Bool) == true: return .string(Driver.secretPlaceholder)
        default: return .null
        }
    }
}

/// Random command lines (JSON text), biased toward the bookshop's real screens, rows, cells and buttons so that
/// the session reaches detail screens, edit mode, alerts and prompts.
struct CommandGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let names = Driver.commands.map(\.name)
    static let words = ["books", "book", "dates", "date", "bookAuthors", "leadAuthor", "authors", "group", "menu",
                        "settings", "backups", "Dune", "Emma", "Frank Herbert", "name", "formatMarked", "Release Date",
                        "Type", "Genre", "Comment", "Price", "Copies", "Read", "Authors", "Lead Author", "Dates", "Date",
                        "Dark Theme", "Encryption", "Protection", "Timeout", "edit", "add", "help", "clear", "close",
                        "refresh", "Mark", "Add Cover", "Remove Cover", "Add Date", "Settings", "Backups", "Home",
                        "OK", "Cancel", "Yes", "No", "Fantasy", "Fiction", "1 minute", "1", "2", "0", "-1", "All",
                        "2020-01-02T00:00:00Z", "0000-01-01", "9999-12-31T23:59:60.999999999-23:59", "true", "off",
                        "books[0]", "/books", "directory>/authors", "#true", "name/initial", "((((", "@count"]
    static let numbers = ["0", "1", "2", "3", "4", "5", "-1", "-0.0", "0.5", "2.0", "1e308", "-1e308", "1e300", "1e-300",
                          "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615",
                          "9007199254740993", "4611686018427387904", "1e19", "-1e19", "123456789012345678901234567890",
                          "3.141592653589793", "86400", "31536000", "1e15", "-2147483649"]

    mutating func below(_ n: Int) -> Int { random.below(n) }
    mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }

    /// A JSON string literal.
    static func quoted(_ s: String) -> String { JSONText.quoted(s) }

    mutating func string() -> String {
        switch below(10) {
        case 0: return ""
        case 1: return String(repeating: pick(["a", "é", "😀", "\u{0}", "\n", "%"]), count: 1 + below(70_000))
        case 2: return pick(["Dü\u{0301}ne", "📚 \u{202E}kcab", "\u{FEFF}Emma", "line\nbreak", "tab\there", "\\\"", "null"])
        case 3: return String((0..<(1 + below(12))).map { _ in Character(Unicode.Scalar(UInt8(32 + below(95)))) })
        default: return pick(Self.words)
        }
    }

    mutating func json(depth: Int = 0) -> String {
        switch below(depth > 2 ? 4 : 7) {
        case 0: return pick(Self.numbers)
        case 1: return Self.quoted(string())
        case 2: return pick(["true", "false", "null"])
        case 3: return String(below(6))
        case 4: return "[" + (0..<below(4)).map { _ in json(depth: depth + 1) }.joined(separator: ",") + "]"
        case 5: return "{" + (0..<below(3)).map { _ in Self.quoted(pick(["secret", "a", "row"])) + ":" + json(depth: depth + 1) }
            .joined(separator: ",") + "}"
        default: return "[" + pick(Self.numbers) + "," + pick(Self.numbers) + "]"
        }
    }

    /// A value for an argument, usually a plausible one.
    mutating func argument(_ key: String) -> String {
        if below(3) == 0 { return json() }
        switch key {
        case "row", "from", "to", "cell":
            switch below(4) {
            case 0: return String(1 + below(5))
            case 1: return "[\(1 + below(3)),\(1 + below(4))]"
            default: return Self.quoted(pick(Self.words))
            }
        case "offset", "limit": return below(2) == 0 ? pick(Self.numbers) : String(below(300))
        case "seconds": return pick(["1", "60", "90", "0.5", "-1", "1e308", "1e300", "9223372036854775807", "86400", "-0.0"])
        case "on", "ok": return pick(["true", "false", "1", "0", "null"])
        case "fields": return "[" + (0..<below(4)).map { _ in Self.quoted(below(2) == 0 ? "secret" : string()) }.joined(separator: ",") + "]"
        case "action": return Self.quoted(pick(["OK", "Cancel", "Yes", "No", "1", "2", "3", "0", "-9223372036854775808"]))
        case "value": return below(2) == 0 ? pick(Self.numbers + ["true", "false"]) : Self.quoted(string())
        default: return Self.quoted(below(4) == 0 ? string() : pick(Self.words))
        }
    }

    /// A value for an edit cell of the book screen.
    mutating func setLine() -> String {
        let cell = pick(["name", "formatMarked", "Release Date", "Type", "Genre", "Comment", "Price", "Copies", "Read",
                         "Authors", "1", "4", "[2,1]", "[2,2]"])
        let value = below(3) == 0 ? json() : pick(Self.numbers + ["true", "\"off\"", "\"Fiction\"", "\"SCIFI\"",
            "\"2020-02-30\"", "\"0000-01-01T00:00:00Z\"", "\"9999-12-31T23:59:59-23:59\"", "\"2019-05-01T10:00:00+0200\""])
        return "{\"cmd\":\"set\",\"cell\":" + (cell.hasPrefix("[") || Int(cell) != nil ? cell : Self.quoted(cell)) + ",\"value\":" + value + "}"
    }

    /// An answer to the waiting alert, with fields for prompts.
    mutating func respondLine() -> String {
        "{\"cmd\":\"respond\",\"action\":\(argument("action")),\"fields\":" + pick(["[]", "[\"Ursula\"]", "[\"Nightly\",\"pw\",\"pw\"]",
            "[\"x\",\"a\",\"b\"]", argument("fields")]) + "}"
    }

    /// One command line: a known command (or an unknown name), with its arguments, some missing, some extra.
    mutating func line() -> String {
        let name = below(40) == 0 ? string() : pick(Self.names)
        let known = Driver.commands.first { $0.name == name }?.arguments ?? []
        var fields = ["\"cmd\":" + Self.quoted(name)]
        for key in known where below(6) != 0 { fields.append(Self.quoted(key) + ":" + argument(key)) }
        if below(8) == 0 { fields.append(Self.quoted(pick(["offset", "limit", "extra", "row", "cmd2"])) + ":" + argument("offset")) }
        if name == "screen" || below(10) == 0 {
            fields.append("\"offset\":" + argument("offset"))
            fields.append("\"limit\":" + argument("limit"))
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
