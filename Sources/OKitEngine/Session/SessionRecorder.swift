import Foundation

/// Writes a session's commands as JSON lines (testing.md "record/replay"): a header line naming the app, the
/// clock's start and the seed, then one `{"cmd":…}` line per command as the JSON-lines protocol takes it. When the
/// app runs on the system clock, the time that passed between commands is written as an `advance` command, so a
/// replay on the virtual clock sees the same times. `okit-run replay LOG` runs the commands again.
public final class SessionRecorder {
    /// The header's fields.
    public struct Header: Sendable, Equatable {
        public var app: String
        public var now: Date
        public var seed: UInt64
        public var language: String?

        public init(app: String, now: Date, seed: UInt64, language: String? = nil) {
            self.app = app
            self.now = now
            self.seed = seed
            self.language = language
        }
    }

    private let handle: FileHandle
    private let clock: AppClock
    private var last: Date
    public let url: URL

    /// Creates (or truncates) the log and writes its header.
    public init(url: URL, header: Header, clock: AppClock) throws {
        self.url = url
        self.clock = clock
        last = clock.now
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
        var line = "{\"okit\":\"session\",\"app\":" + SessionRecorder.json(.string(header.app))
        line += ",\"now\":" + SessionRecorder.json(.string(ISODate.format(header.now, fractional: false)))
        line += ",\"seed\":\(header.seed)"
        if let l = header.language { line += ",\"lang\":" + SessionRecorder.json(.string(l)) }
        write(line + "}")
    }

    deinit { try? handle.close() }

    /// Records a command before it runs (a command that fails is recorded too: it fails again on replay).
    public func record(_ name: String, _ args: [String: Value]) {
        let elapsed = clock.now.timeIntervalSince(last)
        if elapsed > 0 { write("{\"cmd\":\"advance\",\"seconds\":\(Value.displayDouble(elapsed))}") }
        var line = "{\"cmd\":" + SessionRecorder.json(.string(name))
        for key in args.keys.sorted() {
            line += "," + SessionRecorder.json(.string(key)) + ":" + SessionRecorder.json(args[key] ?? .null)
        }
        write(line + "}")
    }

    /// Records a line the front end answered without running a command (a blank or malformed line, an unknown
    /// command, a refused argument) as `{"unread":"…"}` with its answer's error — not the line itself, which may
    /// hold a secret typed into a misspelled command — so a replay answers the same error in its place and the
    /// answers of session and replay line up one to one.
    public func recordUnread(_ error: String) {
        write("{\"unread\":" + JSONText.quoted(error) + "}")
    }

    /// The error a replay answers for a `{"unread":"…"}` line; nil for any other line.
    public static func unread(_ line: String) -> String? {
        guard line.hasPrefix("{\"unread\":"), let tree = JSONTree.parse(Array(line.utf8)),
              case .object(let members) = tree, members.count == 1 else { return nil }
        return tree["unread"]?.string
    }

    /// Notes the clock after a command (its own `advance` is not written twice).
    public func settle() { last = clock.now }

    private func write(_ line: String) {
        handle.write(Data((line + "\n").utf8))
    }

    /// A command argument as JSON: numbers, strings, booleans, dates as ISO 8601, lists as arrays, entities by id.
    static func json(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? Value.displayDouble(d) : "null"
        case .string(let s): return s == Driver.secretPlaceholder ? "{\"secret\":true}" : JSONText.quoted(s)
        case .date(let d): return json(.string(ISODate.format(d)))
        case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .entity(let e): return e.id.map { json(.string($0)) } ?? "null"
        default: return v.displayString.map { json(.string($0)) } ?? "null"
        }
    }

    /// Reads a log's header line.
    public static func header(of line: String) -> Header? {
        let bytes = Array(line.utf8)
        guard let o = JSONTree.parse(bytes, nonFiniteWords: false),
              o["okit"]?.string == "session", let app = o["app"]?.string,
              let nowText = o["now"]?.string, let now = ISODate.parse(nowText) else { return nil }
        // The seed is a UInt64 (beyond Int.max a tree would round it): read from its text.
        let seed = JSONTree.rawMember("seed", of: bytes).map(seedValue) ?? 0
        return Header(app: app, now: now, seed: seed, language: o["lang"]?.string)
    }

    /// A seed's number: a UInt64, a negative integer as its bit pattern, a number with a fraction truncated;
    /// anything else 0.
    static func seedValue(_ text: String) -> UInt64 {
        if let n = UInt64(text) { return n }
        if let n = Int64(text) { return UInt64(bitPattern: n) }
        if let d = Double(text), d.isFinite, d > -1, d < 18_446_744_073_709_551_616 { return UInt64(d) }
        return 0
    }
}
