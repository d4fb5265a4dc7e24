import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// `okit-run keys passphrase` on an app's data folder, and an app started while a change is unfinished.
@Suite struct KeysCommandTests {
    /// A notes app with an encrypted model, one note stored with the passphrase "old".
    func sealedApp() throws -> (TempFolder, app: String, data: String) {
        let folder = try TempFolder()
        let app = try HTTPAppTests.app(folder, storage: "encrypted")
        let data = folder.url.appendingPathComponent("data").path
        let r = try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "old"],
                                       script: "notes.notes:append(okit.new('Note', { title = 'Sealed note' }))", in: folder)
        #expect(r.code == 0, "\(r.err)")
        return (folder, app, data)
    }

    @Test func thePassphraseChangesAndOnlyTheNewOneOpensTheData() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let (folder, app, data) = try sealedApp()
        let change = try OKitRun.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: .text("old\nnew\n"), in: folder)
        #expect(change.code == 0, "\(change.err)")
        #expect(change.out.contains("re-sealed"), "\(change.out)")
        let check = "assert(notes.notes[1].title == 'Sealed note')"
        let withNew = try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "new"], script: check, in: folder)
        #expect(withNew.code == 0, "\(withNew.err)")
        let withOld = try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "old"], script: check, in: folder)
        #expect(withOld.code == 4, "the old passphrase no longer opens the data")
    }

    @Test func aWrongOldPassphraseChangesNothing() throws {
        let (folder, app, data) = try sealedApp()
        let file = data + "/okit/data/default.json"
        let before = FileManager.default.contents(atPath: file)
        let change = try OKitRun.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: .text("wrong\nnew\n"), in: folder)
        #expect(change.code != 0)
        #expect(change.err.contains("okit-run keys passphrase:"), "\(change.err)")
        #expect(FileManager.default.contents(atPath: file) == before, "the file is byte-identical")
    }

    @Test func anAppStartedDuringAnUnfinishedChangeReadsItsDataAndSaysHowToFinish() throws {
        let (folder, app, data) = try sealedApp()
        _ = try KeyChange.change(dataFolder: URL(fileURLWithPath: data), old: "old", new: "new", progress: nil, crash: .afterFiles(0))
        let check = "assert(notes.notes[1].title == 'Sealed note')"
        for passphrase in ["old", "new"] {
            let r = try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": passphrase], script: check, in: folder)
            #expect(r.code == 0, "\(passphrase): \(r.err)")
            #expect(r.err.contains("a passphrase change was interrupted: run `okit-run keys passphrase` again with the old and the new passphrase to finish it"))
        }
        let finish = try OKitRun.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: .text("old\nnew\n"), in: folder)
        #expect(finish.code == 0, "\(finish.err)")
        let r = try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "new"], script: check, in: folder)
        #expect(r.code == 0 && !r.err.contains("interrupted"), "\(r.err)")
    }

    /// What was sealed before a change and lives outside the data folder still opens with the new passphrase.
    @Test func aServersCopySealedBeforeTheChangeOpensAndIsResealed() throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let app = try HTTPAppTests.app(folder, storage: "encryptedHttp", appEndpoint: nginx.endpoint.absoluteString)
        let data = folder.url.appendingPathComponent("data").path
        let add = "notes.notes:append(okit.new('Note', { title = 'On the server' }))"
        #expect(try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "old"], script: add, in: folder).code == 0)
        let before = try #require(nginx.file("default.json"))
        let change = try OKitRun.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: .text("old\nnew\n"), in: folder)
        #expect(change.code == 0, "\(change.err)")
        #expect(nginx.file("default.json") == before, "the server's copy is not touched by the change")
        let check = "assert(notes.notes[1].title == 'On the server')"
        let r = try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "new"], script: check, in: folder)
        #expect(r.code == 0, "\(r.err)")
        let after = try #require(nginx.file("default.json"))
        #expect(Array(after[8..<16]) != Array(before[8..<16]), "written again, sealed with the new key (another key id)")
        // Without the retired keys the new passphrase alone opens it now.
        try FileManager.default.removeItem(atPath: data + "/okit/keys/retired")
        let again = try OKitRun.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "new"], script: check, in: folder)
        #expect(again.code == 0, "\(again.err)")
    }

    @Test func aBackupMadeBeforeTheChangeRestoresAfterIt() throws {
        let (folder, app, data) = try sealedApp()
        let old = ["OKIT_PASSPHRASE": "old"], new = ["OKIT_PASSPHRASE": "new"]
        #expect(try OKitRun.run(["backup", "create", "before", "--app", app, "--data", data], env: old, in: folder).code == 0)
        #expect(try OKitRun.run([app, "--data", data], env: old, script: "notes.notes[1].title = 'Changed later'", in: folder).code == 0)
        let change = try OKitRun.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: .text("old\nnew\n"), in: folder)
        #expect(change.code == 0, "\(change.err)")
        let restore = try OKitRun.run(["backup", "restore", "before", "--app", app, "--data", data], env: new, in: folder)
        #expect(restore.code == 0, "\(restore.err)")
        let r = try OKitRun.run([app, "--data", data], env: new, script: "assert(notes.notes[1].title == 'Sealed note', notes.notes[1].title)", in: folder)
        #expect(r.code == 0, "\(r.err)")
    }

    @Test func theOldPassphraseDoesNotOpenTheRetiredKeys() throws {
        let (folder, app, data) = try sealedApp()
        let change = try OKitRun.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: .text("old\nnew\n"), in: folder)
        #expect(change.code == 0, "\(change.err)")
        let url = URL(fileURLWithPath: data)
        let oldKeys = try KeyChange.keys(dataFolder: url, passphrase: "old")
        let newKeys = try KeyChange.keys(dataFolder: url, passphrase: "new")
        #expect(newKeys.count == 2, "the new key and the retired one")
        #expect(oldKeys.count == 1, "the old passphrase gives one key of its own and nothing from keys/retired")
        #expect(!newKeys.map(SealedFile.keyId).contains(SealedFile.keyId(oldKeys[0])), "and it is neither the new key nor the retired one")
        let mode = try FileManager.default.attributesOfItem(atPath: data + "/okit/keys/retired")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
