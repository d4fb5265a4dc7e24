import Foundation

/// Shared models (storage.md "Shared models on PostgreSQL", `SharedModelStorage`): before each command a session applies what other
/// processes stored; after each command that changed a shared model it stores it, so changes are live across
/// processes within a round trip. Conflicts are reported, never lost.
extension AppSession {
    /// The models many processes share (`SharedModelStorage`: kept in PostgreSQL), with their storage.
    var sharedModels: [(Model, SharedModelStorage)] {
        engine.models.compactMap { m in (engine.storage(of: m.name) as? SharedModelStorage).map { (m, $0) } }
    }

    /// Applies other processes' announced changes to every shared model. Returns true when something changed.
    /// A database out of reach leaves the models as they are (the app is offline until it is back).
    @discardableResult
    public func followSharedModels() -> Bool {
        var any = false
        for (m, s) in sharedModels {
            do { if try s.followAnnouncements(m, engine: engine) { any = true } } catch {
                engine.warn("\(error)")
            }
        }
        return any
    }

    /// Runs a command that a front end checked against what its person saw (the web's page version) right after
    /// `followSharedModels`: the command runs on exactly the models that were checked, without following them again
    /// first. A store another process commits after the check is met by this command's store (its row's version
    /// moved) and merged and reported as a conflict; followed between the check and the command, it was written over
    /// unseen and unreported — the command's value went in over a change its person's page never showed (two
    /// people saving one field at once on two `okit-run serve` processes lost one acknowledged save now and then).
    public func runChecked<T>(_ body: () throws -> T) rethrows -> T {
        let outer = followedForCommand
        followedForCommand = true
        defer { followedForCommand = outer }
        return try body()
    }

    /// Stores every shared model that changed (between commands: a timer, the web server's tick). A database out
    /// of reach keeps the changes pending: they are stored by the next command once it is back. Any other failure
    /// is a warning.
    public func storeSharedModels() {
        if let error = storeSharedModelsFailing() { engine.warn("\(error)") }
    }

    /// Stores every shared model that changed; returns the first failure that is not the database being out of
    /// reach with the changes kept pending on disk (a value the database refused: storage.md "Values a database
    /// refuses"; changes in memory only), after every model was tried. After a command it is the command's error,
    /// so that the front end that ran it says which value was refused, or that the change is not kept.
    func storeSharedModelsFailing() -> Error? {
        var first: Error?
        for (m, s) in sharedModels where m.isDirty || s.offline {
            do { try engine.store(m) } catch {
                if first == nil, s.changesInMemoryOnly { first = ChangesNotKept(error: error) }
                if first == nil, !s.offline { first = error }
            }
        }
        return first
    }

    /// True while a shared model's database is out of reach (snapshots carry `app.offline`).
    public var isOffline: Bool { sharedModels.contains { $0.1.offline } }

    /// True while changes of a shared model are in memory only: neither its database nor the disk took them.
    public var hasChangesInMemoryOnly: Bool { sharedModels.contains { $0.1.changesInMemoryOnly } }

    /// Writes a line to the process's log (`SessionOptions.log`), else warns it.
    func log(_ line: LogLine) {
        if let log = options.log { log(line) } else { engine.warn(Remedy.message(for: line, wording: options.remedyWording)) }
    }

    /// Records a conflict: a line in the process's log (else a warning), a line in `<data>/okit/conflicts.jsonl`, and
    /// `conflicts`.
    func record(conflict: ConflictRecord) {
        conflicts.append(conflict)
        log(LogLine(conflict.warning, warning: true))       // the process's log, else a warning
        guard let folder = options.dataFolder.map(DataFolder.init) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder.okit, withIntermediateDirectories: true)
            try AtomicFile.append(folder.conflicts, Array((conflict.jsonLine + "\n").utf8))
        } catch {
            engine.warn("the conflict above could not be written to \(folder.conflicts): \(error)")
        }
    }
}

/// A change of a shared model that neither its database nor the disk took (the database out of reach, the pending
/// file not writable): it shows, but is in memory only, so a front end says it as a store that failed (web.md), not
/// as offline.
public struct ChangesNotKept: RemedyCarrying {
    public let error: any Error
    public var remedy: Remedy? { (error as? any RemedyCarrying)?.remedy }
    public var neutralDescription: String { (error as? any RemedyCarrying)?.neutralDescription ?? "\(error)" }
    public var description: String { "\(error)" }
}

/// Tells the front end that a shared model changed elsewhere (from SwiftNIO's event loop).
final class SharedChangeSignal: @unchecked Sendable {
    // @unchecked Sendable: `handler` is read and written with `lock` held only.
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?

    func set(_ h: (@Sendable () -> Void)?) { lock.lock(); handler = h; lock.unlock() }

    func fire() {
        lock.lock(); let h = handler; lock.unlock()
        h?()
    }
}
