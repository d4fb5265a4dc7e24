import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// `okit-run --recover MODEL` moves an exit patch's intent (`<model>.patch`, left by a crash while quitting) aside
/// with the model file it was made for, as it moves the journal: nothing of the old model is left to be applied to
/// the fresh one, and nothing is deleted.
@Suite struct RecoveryPatchIntentTests {
    @Test func recoverMovesAnExitPatchIntentAsideWithTheModel() throws {
        let folder = try TempFolder()
        try folder.write("default.json", #"{"books":[{"id":"B1","price":"x"}]}"#)
        try folder.write("default.journal", "OKJ1 0\n")
        try folder.write("default.patch", "OKP1 00000000 0\n")
        let moved = try FileStorage.recover(dataFolder: folder.url, model: "default", now: Date(timeIntervalSince1970: 1_556_704_800))
        #expect(moved.map { ($0 as NSString).lastPathComponent } == [
            "default.json.corrupt-20190501T100000Z", "default.journal.corrupt-20190501T100000Z",
            "default.patch.corrupt-20190501T100000Z",
        ])
        #expect(folder.read("default.patch") == nil)
        #expect(folder.read("default.patch.corrupt-20190501T100000Z") == "OKP1 00000000 0\n")
    }
}
