import Foundation
import Logging
import OKitEngine
import PostgresNIO

/// What `NOTIFY okit_changes` announced (storage.md "Shared models on PostgreSQL"): a model's new version and the
/// keys of the rows its store wrote or deleted (nil: too many for a notification; read everything newer), and the
/// tables they are in (nil: unknown, every table of the model is read; announcements of earlier versions).
struct PostgresAnnouncement: Sendable, Equatable {
    let model: String
    let version: Int64
    let from: String
    let keys: [String]?
    var tables: [String]? = nil

    static let channel = "okit_changes"
    /// PostgreSQL's limit is 8000 bytes; a longer list becomes "read what is newer".
    static let maxPayload = 7000

    func payload() -> String {
        var w = JSONWriter(capacity: 256)
        w.out.append(0x7B)
        w.string("model"); w.out.append(0x3A); w.string(model); w.out.append(0x2C)
        w.string("version"); w.out.append(0x3A); w.int(Int(version)); w.out.append(0x2C)
        w.string("from"); w.out.append(0x3A); w.string(from); w.out.append(0x2C)
        w.string("keys"); w.out.append(0x3A)
        if let keys {
            w.out.append(0x5B)
            for (i, k) in keys.enumerated() { if i > 0 { w.out.append(0x2C) }; w.string(k) }
            w.out.append(0x5D)
        } else {
            w.out.append(contentsOf: "null".utf8)
        }
        if let tables, keys != nil {
            w.out.append(0x2C); w.string("tables"); w.out.append(0x3A); w.out.append(0x5B)
            for (i, t) in tables.enumerated() { if i > 0 { w.out.append(0x2C) }; w.string(t) }
            w.out.append(0x5D)
        }
        w.out.append(0x7D)
        let text = String(decoding: w.out.buffer, as: UTF8.self)
        if text.utf8.count > Self.maxPayload, keys != nil {
            return PostgresAnnouncement(model: model, version: version, from: from, keys: nil).payload()
        }
        return text
    }

    static func parse(_ text: String) -> PostgresAnnouncement? {
        guard let data = text.data(using: .utf8),
              let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let model = o["model"] as? String, let version = (o["version"] as? NSNumber)?.int64Value else { return nil }
        return PostgresAnnouncement(model: model, version: version, from: o["from"] as? String ?? "",
                                    keys: o["keys"] as? [String], tables: o["tables"] as? [String])
    }
}

/// The announcements a listening connection received, handed from SwiftNIO's event loop to the engine's thread.
final class PostgresInbox: @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written with `lock` held (the event loop writes,
    // the engine's thread takes); `onArrival` is set once before the listener starts and only read after.
    private let lock = NSLock()
    private var items: [PostgresAnnouncement] = []
    private var lostFlag = false
    var onArrival: (@Sendable () -> Void)?

    func push(_ a: PostgresAnnouncement) {
        lock.lock(); items.append(a); lock.unlock()
        onArrival?()
    }

    func take() -> [PostgresAnnouncement] {
        lock.lock(); defer { lock.unlock() }
        let out = items
        items.removeAll()
        return out
    }

    /// The listening connection closed: announcements may have been missed.
    func markLost() {
        lock.lock(); lostFlag = true; lock.unlock()
        onArrival?()
    }

    var lost: Bool { lock.lock(); defer { lock.unlock() }; return lostFlag }

    func clearLost() { lock.lock(); lostFlag = false; lock.unlock() }
}

/// The connection that LISTENs for a database's announcements.
final class PostgresListener {
    let settings: PostgresSettings
    let inbox: PostgresInbox
    private var connection: PostgresConnection?

    init(settings: PostgresSettings, inbox: PostgresInbox) {
        self.settings = settings
        self.inbox = inbox
    }

    var isListening: Bool { connection.map { !$0.isClosed } ?? false }

    deinit { stop() }

    /// Connects and LISTENs (again, after a lost connection).
    func start() throws {
        if isListening { return }
        let c = try PostgresLink.connect(settings).wait()
        let inbox = self.inbox
        c.addListener(channel: PostgresAnnouncement.channel) { _, message in
            if let a = PostgresAnnouncement.parse(message.payload) { inbox.push(a) }
        }
        _ = try c.query(PostgresQuery(unsafeSQL: "LISTEN \(PostgresAnnouncement.channel)"),
                        logger: PostgresLink.logger).wait()
        c.closeFuture.whenComplete { _ in inbox.markLost() }
        connection = c
        inbox.clearLost()
    }

    /// One round trip on the listening connection: PostgreSQL sends a listener every announcement committed before
    /// it answers a statement, and SwiftNIO hands them to the inbox before the answer, so once this returns the
    /// inbox holds every store committed before it was called.
    func sync() throws {
        guard let c = connection else { return }
        _ = try c.query(PostgresQuery(unsafeSQL: "SELECT 1"), logger: PostgresLink.logger).wait()
    }

    func stop() {
        if let c = connection { _ = try? c.close().wait() }
        connection = nil
    }
}
