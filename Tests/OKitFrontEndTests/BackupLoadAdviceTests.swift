import Foundation
import Testing
@testable import okit_run

/// `okit-run backup` when the app's data does not load: the advice fits the command and the cause — a full disk is
/// named and never sends the user to move a good model aside with `--recover`; only a restore gets that way past a
/// model that does not load.
@Suite struct BackupLoadAdviceTests {
    let sqliteFull = "app.lua:119: okit.model(\"Catalog\"): /d/okit/data/catalog.sqlite: cannot open the database: no space left on the disk (SQLite needs room for its -wal and -shm files); free some space (SQLite 4874)"
    let damaged = "app.lua:12: okit.model(\"Shop\"): /d/okit/data/default.json:1:11: unexpected end of input\n  the file is left as it is"

    func advice(_ message: String, _ command: String, full: Bool = false) -> String {
        AppOptions.loadAdvice(message, command: command, diskFull: full, app: "app.lua", folder: "/d")
    }

    @Test func aFullDiskIsNamedAndNeverGetsRecoverAdvice() {
        for command in ["create", "restore", "delete"] {
            #expect(advice(sqliteFull, command, full: true) == "", "the message says what to do already")
            let io = advice("app.lua:3: /d/okit/lock: cannot open the lock file: No space left on device", command)
            #expect(io == "\n  the disk of /d is full (nothing is damaged): free some space, then run the \(command) again")
            // SQLite's own words for a full disk (an I/O error) with the disk found full.
            let measured = advice("…catalog.sqlite: cannot open the database: disk I/O error (SQLite 10)", command, full: true)
            #expect(measured.contains("is full (nothing is damaged)") && !measured.contains("--recover"))
        }
    }

    @Test func onlyARestoreIsToldToMoveADamagedModelAside() {
        #expect(advice(damaged, "restore").contains("first move the model \"default\" aside with okit-run app.lua --data /d --recover default (nothing is deleted; a restore keeps what was moved aside), then run the restore again"))
        let two = "app.lua:3: /d/okit/data/a.journal: record 2 fails its CRC\napp.lua:4: /d/okit/data/b.sqlite: not a database"
        #expect(advice(two, "restore").contains("move the damaged model aside with okit-run app.lua --data /d --recover a --recover b (nothing"))
        #expect(advice("app.lua:3: cannot read", "restore").contains("--recover MODEL"), "no model named: the placeholder")
        #expect(advice(damaged, "create") == "")
        #expect(advice(damaged, "delete") == "")
        #expect(advice("okit-run backup: /d is in use by another process", "restore") == "")
    }
}
