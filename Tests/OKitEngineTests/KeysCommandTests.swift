import Foundation
import Testing
@testable import OKitEngine

/// `okit-run keys passphrase` on an app's data folder, and an app started while a change is unfinished.
@Suite struct KeysCommandTests {
    /// A notes app with an encrypted model, one note stored with the passphrase "old".
    func sealedApp() throws -> (TempFolder, app: String, data: String) {
        let folder = try TempFolder()
        let app = try HTTPAppTests.app(folder, storage: "encrypted")
        let data = folder.url.appendingPathComponent("data").path
        let r = try OKitRunProcess.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "old"],
                                       script: "notes.notes:append(okit.new('Note', { title = 'Sealed note' }))", in: folder)
        #expect(r.code == 0, "\(r.err)")
        return (folder, app, data)
    }

    @Test func thePassphraseChangesAndOnlyTheNewOneOpensTheData() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRunProcess.binary.path))
        let (folder, app, data) = try sealedApp()
        let change = try OKitRunProcess.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: "old\nnew\n", in: folder)
        #expect(change.code == 0, "\(change.err)")
        #expect(change.out.contains("re-sealed"), "\(change.out)")
        let check = "assert(notes.notes[1].title == 'Sealed note')"
        let withNew = try OKitRunProcess.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "new"], script: check, in: folder)
        #expect(withNew.code == 0, "\(withNew.err)")
        let withOld = try OKitRunProcess.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "old"], script: check, in: folder)
        #expect(withOld.code == 4, "the old passphrase no longer opens the data")
    }

    @Test func aWrongOldPassphraseChangesNothing() throws {
        let (folder, app, data) = try sealedApp()
        let file = data + "/okit/data/default.json"
        let before = FileManager.default.contents(atPath: file)
        let change = try OKitRunProcess.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: "wrong\nnew\n", in: folder)
        #expect(change.code != 0)
        #expect(change.err.contains("okit-run keys passphrase:"), "\(change.err)")
        #expect(FileManager.default.contents(atPath: file) == before, "the file is byte-identical")
    }

    @Test func anAppStartedDuringAnUnfinishedChangeReadsItsDataAndSaysHowToFinish() throws {
        let (folder, app, data) = try sealedApp()
        _ = try KeyChange.change(dataFolder: URL(fileURLWithPath: data), old: "old", new: "new", progress: nil, crash: .afterFiles(0))
        let check = "assert(notes.notes[1].title == 'Sealed note')"
        for passphrase in ["old", "new"] {
            let r = try OKitRunProcess.run([app, "--data", data], env: ["OKIT_PASSPHRASE": passphrase], script: check, in: folder)
            #expect(r.code == 0, "\(passphrase): \(r.err)")
            #expect(r.err.contains(KeyChange.interruptedMessage))
        }
        let finish = try OKitRunProcess.run(["keys", "passphrase", "--app", app, "--data", data, "--old-stdin", "--new-stdin"],
                                            stdin: "old\nnew\n", in: folder)
        #expect(finish.code == 0, "\(finish.err)")
        let r = try OKitRunProcess.run([app, "--data", data], env: ["OKIT_PASSPHRASE": "new"], script: check, in: folder)
        #expect(r.code == 0 && !r.err.contains("interrupted"), "\(r.err)")
    }
}
