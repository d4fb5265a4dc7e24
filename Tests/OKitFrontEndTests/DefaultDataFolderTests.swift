import Foundation
import Testing
import OKitTestSupport
@testable import okit_run

/// Where okit-run keeps an app's data without `--data` (storage.md "The data folder"): under `$HOME`, not the
/// account's home from the password database; a relative XDG_DATA_HOME ignored; a HOME that is not a folder refused.
@Suite struct DefaultDataFolderTests {
    let app = URL(fileURLWithPath: "/apps/todo/app.lua")

    func resolve(_ env: [String: String]) throws -> (URL, [String]) {
        var warnings: [String] = []
        let url = try DefaultDataFolder.resolve(for: app, environment: env) { warnings.append($0) }
        return (url, warnings)
    }

    @Test func theDataFolderIsUnderHome() throws {
        let home = try TempFolder()
        let (url, warnings) = try resolve(["HOME": home.path])
        #expect(url.path == home.path + "/.local/share/okit/todo")
        #expect(warnings.isEmpty)
    }

    @Test func anAbsoluteXDGDataHomeComesFirst() throws {
        let home = try TempFolder()
        let (url, _) = try resolve(["HOME": home.path, "XDG_DATA_HOME": "/srv/data"])
        #expect(url.path == "/srv/data/okit/todo")
    }

    @Test func aRelativeXDGDataHomeIsIgnoredWithAWarning() throws {
        let home = try TempFolder()
        let (url, warnings) = try resolve(["HOME": home.path, "XDG_DATA_HOME": "relative/dir"])
        #expect(url.path == home.path + "/.local/share/okit/todo")
        #expect(warnings == ["okit-run: warning: XDG_DATA_HOME is not an absolute path (relative/dir); it is ignored, as the XDG spec says: the data folder is under HOME"])
    }

    @Test func aHomeThatIsNotAFolderIsRefused() throws {
        do {
            _ = try resolve(["HOME": "/nonexistent/home"])
            Issue.record("a missing HOME was used")
        } catch let f as RunFailure {
            #expect(f.code == 4)
            #expect(f.message == "okit-run: HOME is /nonexistent/home, which is not a folder, so the default data folder /nonexistent/home/.local/share/okit/todo cannot be made; set HOME to your home folder, or give the data folder with --data DIR")
        }
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/home"))
        // An absolute XDG_DATA_HOME does not need HOME.
        let (url, _) = try resolve(["HOME": "/nonexistent/home", "XDG_DATA_HOME": "/srv/data"])
        #expect(url.path == "/srv/data/okit/todo")
    }

    @Test func withoutHomeTheAccountsHomeIsUsed() throws {
        let (url, _) = try resolve([:])
        #expect(url.path == FileManager.default.homeDirectoryForCurrentUser.path + "/.local/share/okit/todo")
    }
}
