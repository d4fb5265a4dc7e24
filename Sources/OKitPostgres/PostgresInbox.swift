import Foundation
import Logging
import OKitEngine
import PostgresNIO

/// The announcements a listening connection received, handed from SwiftNIO's event loop to the engine's thread.
final class PostgresInbox: @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written with `lock` held (the event loop writes,
    // the engine's thread takes); `onArrival` is set once before the listener starts and only read after.
    private let lock = NSLock()
    private var items: [PostgresAnnouncement] = []
    private var lostFlag = false
    /// Notifications on the channel that did not read as announcements since the last `takeUnreadable`: how many,
    /// and the first one's start (what the warning quotes).
    private var unreadable: (count: Int, sample: String)?
    var onArrival: (@Sendable () -> Void)?

    func push(_ a: PostgresAnnouncement) {
        lock.lock(); items.append(a); lock.unlock()
        onArrival?()
    }

    /// A notification on okit's channel that is not an announcement (another program's `NOTIFY okit_changes`, or
    /// a newer okit's payload): kept as a count and a sample, so that the follower catches up and says so.
    func pushUnreadable(_ payload: String) {
        lock.lock()
        if let u = unreadable { unreadable = (u.count + 1, u.sample) } else { unreadable = (1, String(payload.prefix(60))) }
        lock.unlock()
        onArrival?()
    }

    func takeUnreadable() -> (count: Int, sample: String)? {
        lock.lock(); defer { lock.unlock() }
        let out = unreadable
        unreadable = nil
        return out
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
            if let a = PostgresAnnouncement.parse(message.payload) { inbox.push(a) } else { inbox.pushUnreadable(message.payload) }
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
