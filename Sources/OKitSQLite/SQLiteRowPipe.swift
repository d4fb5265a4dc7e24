import Foundation
import GRDB
import GRDBSQLite
import OKitEngine

/// The rows of a large load read on a second thread: that thread steps the tables' statements and copies each
/// row's columns into batches (`RelationalRowBatch`), while the loading thread makes the entities from the batches
/// it is handed. SQLite's own work (a fifth of a load of 310,000 rows) then runs beside okit's.
///
/// Only column values cross threads, as bytes and numbers: every entity is made on the loading thread. The
/// loading thread does not use the connection while the other steps its statements, and waits for it to stop
/// (`finish`) before it does again, also when it stops early (a value of the wrong type).
final class SQLiteRowPipe: @unchecked Sendable {
    // @unchecked Sendable: `filled`, `free`, `done`, `stop` and `failure` are read and written with `lock` held
    // only; a batch belongs to one thread at a time (taken out of `free` by the stepping thread, out of
    // `filled` by the loading thread); `statements` are stepped by the stepping thread only, between `start` and
    // the end of `finish`, while the loading thread leaves the connection alone.
    private let lock = NSCondition()
    private var filled: [RelationalRowBatch] = []
    private var free: [RelationalRowBatch] = []
    private var done = false
    private var stop = false
    private var failure: (code: Int32, message: String, sql: String)?
    private let statements: [(table: Int, statement: OpaquePointer, columns: Int, sql: String)]
    private let connection: OpaquePointer?
    private var thread: Thread?

    /// Rows per batch, and batches in flight (the stepping thread waits when all are filled).
    static let batchRows = 2_048
    static let batches = 4

    init(statements: [(table: Int, statement: OpaquePointer, columns: Int, sql: String)], connection: OpaquePointer?) {
        self.statements = statements
        self.connection = connection
        for _ in 0..<Self.batches { free.append(RelationalRowBatch()) }
    }

    /// Starts stepping on a second thread.
    func start() {
        let t = Thread { [self] in self.run() }
        t.stackSize = 1 << 20
        thread = t
        t.start()
    }

    private func run() {
        for s in statements {
            while true {
                guard let b = take(table: s.table, columns: s.columns) else { markDone(nil); return }
                let code = b.fill(s.statement, rows: Self.batchRows)
                hand(b)
                if code == SQLITE_DONE { break }
                if code != SQLITE_ROW {
                    markDone((code, connection.map { String(cString: sqlite3_errmsg($0)) } ?? "", s.sql))
                    return
                }
            }
        }
        markDone(nil)
    }

    private func take(table: Int, columns: Int) -> RelationalRowBatch? {
        lock.lock()
        defer { lock.unlock() }
        while free.isEmpty && !stop { lock.wait() }
        if stop { return nil }
        let b = free.removeLast()
        b.reset(table: table, columns: columns)
        return b
    }

    private func hand(_ b: RelationalRowBatch) {
        lock.lock()
        if b.rows > 0 { filled.append(b) } else { free.append(b) }
        lock.broadcast()
        lock.unlock()
    }

    private func markDone(_ f: (Int32, String, String)?) {
        lock.lock()
        if let f { failure = (f.0, f.1, f.2) }
        done = true
        lock.broadcast()
        lock.unlock()
    }

    /// The next batch in read order (nil: every row was read); throws what stepping met.
    func next() throws -> RelationalRowBatch? {
        lock.lock()
        defer { lock.unlock() }
        while filled.isEmpty && !done { lock.wait() }
        if !filled.isEmpty { return filled.removeFirst() }
        if let f = failure { throw DatabaseError(resultCode: ResultCode(rawValue: f.code), message: f.message, sql: f.sql) }
        return nil
    }

    /// Gives a batch read back for filling.
    func recycle(_ b: RelationalRowBatch) {
        lock.lock()
        free.append(b)
        lock.broadcast()
        lock.unlock()
    }

    /// Stops the stepping (if it still runs) and waits until it has: the connection is the loading thread's
    /// again.
    func finish() {
        lock.lock()
        stop = true
        lock.broadcast()
        while !done { lock.wait() }
        lock.unlock()
    }
}

extension RelationalRowBatch {
    /// Steps the statement and copies its rows until there are `limit`; returns the last step's code
    /// (`SQLITE_ROW`: the batch is full, more rows may follow). The arrays are filled as locals: appending to a
    /// class's arrays checked each access for exclusivity at run time.
    func fill(_ st: OpaquePointer, rows limit: Int) -> Int32 {
        var kinds = self.kinds, numbers = self.numbers, ranges = self.ranges, bytes = self.bytes
        self.kinds = []; self.numbers = []; self.ranges = []; self.bytes = []
        defer { self.kinds = kinds; self.numbers = numbers; self.ranges = ranges; self.bytes = bytes }
        let n = Int32(columns)
        var code = SQLITE_ROW
        while rows < limit {
            code = sqlite3_step(st)
            guard code == SQLITE_ROW else { return code }
            for k in 0..<n {
                // `SQLiteStatementColumns.column`'s reading, written out: through it, with its bytes' range kept
                // for every column, the stepping thread fell behind the loading one (4–7 ms a load, alternated).
                guard let v = sqlite3_column_value(st, k) else { kinds.append(.null); numbers.append(0); ranges.append((0, 0)); continue }
                let type = sqlite3_value_type(v)
                switch type {
                case SQLITE_INTEGER:
                    kinds.append(.integer); numbers.append(UInt64(bitPattern: sqlite3_value_int64(v))); ranges.append((0, 0))
                case SQLITE_FLOAT:
                    kinds.append(.real); numbers.append(sqlite3_value_double(v).bitPattern); ranges.append((0, 0))
                case SQLITE_TEXT, SQLITE_BLOB:
                    let p: UnsafeRawPointer? = type == SQLITE_TEXT ? sqlite3_value_text(v).map { UnsafeRawPointer($0) } : sqlite3_value_blob(v)
                    let count = p == nil ? 0 : Int(sqlite3_value_bytes(v))
                    kinds.append(type == SQLITE_TEXT ? .text : .blob)
                    numbers.append(0)
                    ranges.append((Int32(bytes.count), Int32(count)))
                    if let p, count > 0 { bytes.append(contentsOf: UnsafeRawBufferPointer(start: p, count: count)) }
                default:
                    kinds.append(.null); numbers.append(0); ranges.append((0, 0))
                }
            }
            rows += 1
        }
        return code
    }
}
