import Foundation
import OKitTestSupport
import Testing
@testable import OKitEngine
@testable import OKitWeb
@testable import okit_run

/// okit-run's advice is added at the edge (`CommandLineAdvice`): the engine's errors carry a `Remedy` and a
/// message without okit-run's commands and flags; the full message is the one okit-run has always printed.
@Suite struct CommandLineAdviceTests {
    /// Each remedy's full message, byte for byte as the engine worded it before the advice moved to the edge.
    @Test func theFullMessageOfEachRemedyIsTheCommandLinesText() throws {
        var corrupt = StorageError(kind: .corrupt, path: "/d/okit/data/shop.json", message: "unexpected end")
        (corrupt.line, corrupt.column) = (3, 4)
        let journal = StorageError(kind: .corrupt, path: "/d/okit/data/shop.journal", message: "bad record")
        let partial = StorageError(kind: .wrongType, path: "/d/okit/data/photos/a.json", message: "expected an object")
        let elsewhere = StorageError(kind: .corrupt, path: "/tmp/x.json", message: "bad")
        let table: [(any Error, String)] = [
            (corrupt, "/d/okit/data/shop.json:3:4: unexpected end\n  the file is left as it is; fix it, or run okit-run with --recover shop to move it aside and start this model fresh"),
            (journal, "/d/okit/data/shop.journal: bad record\n  the file is left as it is; fix it, or run okit-run with --recover shop to move it aside and start this model fresh"),
            (partial, "/d/okit/data/photos/a.json: expected an object\n  the file is left as it is; fix it, restore a backup (okit-run backup restore NAME), or move it aside to start this partial empty"),
            (elsewhere, "/tmp/x.json: bad\n  the file is left as it is"),
            (StorageError(kind: .io, path: "/d/okit/data/shop.json", message: "the seal does not verify; the file is left as it is",
                          remedy: .passphraseBackupOrAside(model: "shop", path: "/d/okit/data/shop.json")),
             "/d/okit/data/shop.json: the seal does not verify; the file is left as it is\n  set OKIT_PASSPHRASE to the passphrase it was written with, restore a backup (okit-run backup restore NAME), or run okit-run with --recover shop to move it aside and start this model fresh"),
            (StorageError(kind: .io, path: "/d/okit/data/p/a.bin", message: "the seal does not verify; the file is left as it is",
                          remedy: .passphraseBackupOrAside(model: nil, path: "/d/okit/data/p/a.bin")),
             "/d/okit/data/p/a.bin: the seal does not verify; the file is left as it is\n  set OKIT_PASSPHRASE to the passphrase it was written with, restore a backup (okit-run backup restore NAME), or move /d/okit/data/p/a.bin aside"),
            (StorageError(kind: .io, path: "/d/okit/data/shop.json", message: "this model's file could not be read, so it is not written over",
                          remedy: .recover(model: "shop")),
             "/d/okit/data/shop.json: this model's file could not be read, so it is not written over; run okit-run with --recover shop to move it aside"),
            (StorageError(kind: .locked, path: "/d", message: "the data folder is in use by another okit process", remedy: .anotherDataFolder),
             "/d: the data folder is in use by another okit process; quit it first, or use another --data folder"),
            (BackupError.otherApp("b1", made: "com.a", this: "com.b"),
             "backup b1 was made by app \"com.a\", not by this app (\"com.b\"); nothing was changed\n  to restore it anyway: okit-run backup restore --force"),
            (StorageError(kind: .io, path: "PUT http://h/default.json", message: "this model's stored copy could not be read, so it is not written over",
                          remedy: .syncKeepLocal),
             "PUT http://h/default.json: this model's stored copy could not be read, so it is not written over; fix it, or run okit-run sync --keep-local to overwrite it"),
            (StorageError(kind: .io, path: "PUT http://h/default.json",
                          message: "412 Precondition Failed — the server's copy changed; your changes are kept in /d/okit/pending/default.json", remedy: .syncChoose),
             "PUT http://h/default.json: 412 Precondition Failed — the server's copy changed; your changes are kept in /d/okit/pending/default.json; run okit-run sync --keep-local or --take-remote"),
            (KeyChangeError(.damaged, path: "/d/okit/data/shop.json", "/d/okit/data/shop.json: truncated. The passphrase change stopped at this file; no file was re-sealed yet. Move it aside or restore it from a backup",
                            remedy: .finishKeyChange),
             "/d/okit/data/shop.json: truncated. The passphrase change stopped at this file; no file was re-sealed yet. Move it aside or restore it from a backup, then run `okit-run keys passphrase` again (same passphrases) to finish"),
            (KeyChangeError(.noKey, path: "/d/okit/keys", KeyChange.interruptedMessage, remedy: .finishInterruptedKeyChange(noKey: true)),
             "a passphrase change was interrupted: run `okit-run keys passphrase` again with the old and the new passphrase to finish it; no key material here opens it: set OKIT_PASSPHRASE to the old or the new passphrase"),
        ]
        for (error, expected) in table {
            #expect(CommandLineAdvice.message(for: error) == expected)
            #expect(!"\(error)".contains("okit-run"), "the engine's own message has no okit-run words: \(error)")
        }
        #expect(CommandLineAdvice.interruptedKeyChange
                == "a passphrase change was interrupted: run `okit-run keys passphrase` again with the old and the new passphrase to finish it")
    }

    /// Errors the engine really throws: the data folder that is not one, and a passphrase for a key-file folder.
    @Test func realEngineErrorsGetTheirAdvice() throws {
        let empty = try TempFolder()
        do {
            try KeyChange.changePassphrase(dataFolder: empty.url, old: nil, new: "new")
            Issue.record("a change without data succeeded")
        } catch {
            #expect(CommandLineAdvice.message(for: error) == "there is no okit data at \(empty.url.path) (check --data or --app)")
        }
        let folder = try TempFolder()
        _ = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        let keyFile = folder.url.appendingPathComponent("okit/keys/data.key").path
        do {
            _ = try DataKeys.key(dataFolder: folder.url, passphrase: "pass")
            Issue.record("a passphrase was accepted for a key-file folder")
        } catch {
            #expect(CommandLineAdvice.message(for: error) == "\(keyFile): this data's key is the key file \(keyFile), not a passphrase: unset OKIT_PASSPHRASE (or change to a passphrase with okit-run keys passphrase)")
        }
    }

    /// A storage whose owner words its remedies says the advice in `description` too (the texts that reach the
    /// user through `"\(error)"`), the same as the edge's full message; errors without a remedy are unchanged.
    @Test func aWordedErrorSaysTheSameAsTheEdge() {
        let e = StorageError(kind: .io, path: "/d/okit/data/shop.json", message: "this model's file could not be read, so it is not written over",
                             remedy: .recover(model: "shop"))
        let worded = e.worded(CommandLineAdvice.words(for:))
        #expect(worded.description == CommandLineAdvice.message(for: e))
        #expect(CommandLineAdvice.message(for: worded) == CommandLineAdvice.message(for: e))
        #expect(e.worded(nil).description == e.description)
        let plain = StorageError(kind: .io, path: "/p", message: "cannot write")
        #expect(CommandLineAdvice.message(for: plain) == "/p: cannot write")
        struct Other: Error, CustomStringConvertible { var description: String { "other" } }
        #expect(CommandLineAdvice.message(for: Other()) == "other")
    }

    /// A remedy of a storage kind of its own (`.described`) is said as it is, by every front end and without one.
    @Test func aDescribedRemedyIsSaidAsItIs() {
        let e = StorageError(kind: .io, path: "s3://bucket/shop.json", message: "the bucket refused the write",
                             remedy: .described("check the bucket's policy"))
        let expected = "s3://bucket/shop.json: the bucket refused the write; check the bucket's policy"
        #expect(CommandLineAdvice.message(for: e) == expected)
        #expect(BrowserAdvice.message(for: e) == expected)
        #expect(Remedy.message(for: e, wording: nil) == expected)
    }

    /// The web words every remedy for a person in a browser: no okit-run command, flag or environment variable.
    @Test func theWebWordsEveryRemedyWithoutACommandLine() {
        let remedies: [Remedy] = [
            .fixOrRecover(model: "shop"), .fixOrRestorePartial, .passphraseBackupOrAside(model: "shop", path: "/d/x"),
            .recover(model: "shop"), .restoreModelFile(model: "shop"), .anotherDataFolder, .forceRestore, .syncKeepLocal, .syncChoose, .checkDataFolder,
            .finishKeyChange, .finishInterruptedKeyChange(noKey: true), .unsetPassphrase, .convert(model: "shop", to: StorageKind(rawValue: "sqlite")),
            .givePassphrase, .passphraseOrKeyFile, .passphraseIfSealedWithOne, .useKeyFile(keyFile: "/d/okit/keys/data.key"),
            .giveCurrentPassphrase, .restoreKeys, .currentKeyWrong(passphraseGiven: false, interrupted: true), .raiseLimit("maxFileSize"),
            .checkEndpoint, .checkEndpointToken, .checkDatabase, .checkDatabaseLogin, .writableDataFolder(readOnly: true), .writableDataFolder(readOnly: false),
        ]
        for remedy in remedies {
            let words = BrowserAdvice.words(for: remedy)
            #expect(!words.isEmpty, "\(remedy)")
            for cli in ["okit-run", "OKIT_", "--", "keys/data.key"] {
                #expect(!words.contains(cli), "\(remedy): \(words)")
            }
            #expect(CommandLineAdvice.words(for: remedy) != words, "\(remedy)")
        }
        let e = StorageError(kind: .io, path: "/d/okit/data/shop.json", message: "this model's file could not be read, so it is not written over",
                             remedy: .recover(model: "shop"))
        #expect(BrowserAdvice.message(for: e).hasPrefix(e.neutralDescription + "; "))
        #expect(BrowserAdvice.message(for: e.worded(CommandLineAdvice.words(for:))) == BrowserAdvice.message(for: e))
    }
}
