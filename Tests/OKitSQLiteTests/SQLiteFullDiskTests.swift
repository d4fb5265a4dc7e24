import Foundation
import GRDB
import Testing
@testable import OKitEngine
@testable import OKitSQLite

/// storage.md "SQLite models": on a full disk SQLite says only "disk I/O error" (it cannot make its `-shm`); the
/// message names the cause — no space left — and what to do, not a broken disk or database.
@Suite struct SQLiteFullDiskTests {
    let path = "/data/okit/data/catalog.sqlite"

    @Test func anIOErrorOnAFullDiskSaysNoSpaceLeft() {
        let e = SQLiteDamage.error(DatabaseError(resultCode: .SQLITE_IOERR), doing: "open", path: path, isFull: { _ in true })
        #expect(e.kind == .io)
        #expect(e.description.contains("cannot open the database: no space left on the disk (SQLite needs room for its -wal and -shm files); free some space"))
        #expect(!e.description.contains("disk I/O error"))
        #expect(e.remedy == nil)   // nothing is damaged: no --recover
    }

    @Test func anIOErrorWithRoomLeftStaysSQLitesWords() {
        let e = SQLiteDamage.error(DatabaseError(resultCode: .SQLITE_IOERR), doing: "open", path: path, isFull: { _ in false })
        #expect(e.description.contains("disk I/O error"))
        #expect(!e.description.contains("no space"))
    }

    @Test func sqliteFullIsAFullDiskWhateverTheFreeSpace() {
        let text = SQLiteDamage.reason(DatabaseError(resultCode: .SQLITE_FULL), path: path, isFull: { _ in false })
        #expect(text.hasPrefix("no space left on the disk"))
    }

    @Test func theFreeSpaceIsReadOnTheFolderThatHoldsTheDatabase() {
        var asked: [String] = []
        _ = SQLiteDamage.reason(DatabaseError(resultCode: .SQLITE_IOERR), path: path, isFull: { asked.append($0); return false })
        #expect(asked == ["/data/okit/data"])
        // A path that does not exist yet is measured on its nearest existing folder.
        #expect(DiskSpace.available(at: NSTemporaryDirectory() + "/no-such-folder-\(UUID().uuidString)/x.sqlite") != nil)
    }
}
