import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// What a secure backup's password costs the server, and who may make one (a stranger's round five): a header
/// that names its own PBKDF2 round count is refused as damaged before any key is derived (okit writes 600,000 and
/// takes nothing else; a 20,000,000-round upload held the engine's thread for seconds), wrong backup passwords are
/// slowed down by address as logins are (an upload's, a restore prompt's), and with a token creating a backup needs
/// the login as restoring, deleting and uploading do (web.md "Security", backups.md).
@Suite struct BackupGuessesTests {
    typealias Browser = WebAppTests.Browser
    static let password = "s3cret"

    /// The bookshop of WebFilesTests with a secure backup "sec" (password `password`) beside the plain "first".
    static func serve(_ options: ServeOptions = .unhurried) async throws -> (WebApp, URL) {
        let (web, folder) = try await WebFilesTests.serve(options)
        try await web.makeBackup("sec", password: password)
        return (web, folder)
    }

    static func secure(_ folder: URL) throws -> [UInt8] {
        try Array(Data(contentsOf: folder.appendingPathComponent("okit/backup/sec.okbackup")))
    }

    /// The backup with its header's round count (a big-endian u32 at offset 24) and, when asked, a new salt.
    static func withRounds(_ bytes: [UInt8], _ rounds: UInt32, newSalt: Bool = true) -> [UInt8] {
        var b = bytes
        b.replaceSubrange(24..<28, with: [UInt8(rounds >> 24 & 0xFF), UInt8(rounds >> 16 & 0xFF), UInt8(rounds >> 8 & 0xFF), UInt8(rounds & 0xFF)])
        if newSalt { for i in 8..<24 { b[i] = UInt8.random(in: 0...255) } }
        return b
    }

    /// Uploads `bytes` with `password` as the form's field, as the backups screen's upload form posts it.
    static func upload(_ b: Browser, _ bytes: [UInt8], password: String, filename: String = "mine.okbackup") async -> WebResponse {
        let html = await b.page("/books")
        var request = WebRequest(method: "POST", path: "/backups", form: [("at", "/books"), ("password", password)], sessionCookie: b.cookie)
        request.headerCSRF = Browser.attribute("data-csrf", html)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("okit-upload-test-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: file) }
        try? Data(bytes).write(to: file)
        request.upload = WebUpload(filename: filename, file: file, size: bytes.count)
        return await b.web.handle(request)
    }

    static func kept(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("okit/backup").path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func aHeaderThatChoosesItsOwnRoundCountIsRefusedAsDamaged() async throws {
        let (web, folder) = try await BackupGuessesTests.serve()
        let b = Browser(web)
        let sec = try BackupGuessesTests.secure(folder)
        for rounds: UInt32 in [20_000_000, 19_400_000, 600_001, 100_000] {
            #expect(await BackupGuessesTests.upload(b, BackupGuessesTests.withRounds(sec, rounds), password: "anything").status == 303)
            let page = await b.page("/books")
            #expect(page.contains("The upload was not kept") && page.contains("\(rounds) key derivation rounds")
                    && !page.contains("not the password"), "\(rounds) rounds: damaged, not a wrong password: \(page)")
            // The list says so too, without the password (a file put in the backups folder).
            let header = BackupGuessesTests.withRounds(sec, rounds)
            #expect(BackupStore.secureHeader(header, size: Int64(header.count)).damaged?.contains("key derivation rounds") == true)
        }
        #expect(try BackupGuessesTests.kept(folder) == ["first.okbackup", "sec.okbackup"])
        // The count okit writes is taken: the backup as it was made uploads with its password.
        _ = await BackupGuessesTests.upload(b, sec, password: BackupGuessesTests.password)
        #expect(try BackupGuessesTests.kept(folder) == ["first.okbackup", "mine.okbackup", "sec.okbackup"])
        #expect(BackupStore.secureHeader(sec, size: Int64(sec.count)).damaged == nil)
    }

    @Test func wrongPasswordsOfUploadsAreSlowedDownByAddress() async throws {
        let (web, folder) = try await BackupGuessesTests.serve()
        let frozen = Date()
        await web.setAttemptClock { frozen }      // the wait never runs out, however slow the machine
        let b = Browser(web)
        let sec = try BackupGuessesTests.secure(folder)
        for _ in 0...FailedAttempts.free {
            _ = await BackupGuessesTests.upload(b, sec, password: "guess")
            #expect(await b.page("/books").contains("wrong password"))
        }
        _ = await BackupGuessesTests.upload(b, sec, password: BackupGuessesTests.password)
        let page = await b.page("/books")
        #expect(page.contains("Too many wrong attempts from your address"), "not checked while the address waits: \(page)")
        #expect(try BackupGuessesTests.kept(folder) == ["first.okbackup", "sec.okbackup"])
        // Another address is not slowed down by this one's guesses.
        #expect(await web.failedBackupPasswordWait("192.0.2.7") == nil)
    }

    /// The restore prompt's password is checked on the engine's thread too: its wrong answers count the same way.
    @Test func wrongPasswordsOfARestorePromptAreSlowedDownByAddress() async throws {
        let (web, _) = try await BackupGuessesTests.serve()
        let frozen = Date()
        await web.setAttemptClock { frozen }
        let b = Browser(web)
        let at = "/books/!/backups"
        func restore(_ password: String) async -> String {
            _ = await b.command(from: at, [("command", "tap"), ("row", "sec")])
            _ = await b.command(from: at, [("command", "respond"), ("action", "1")])            // Yes
            _ = await b.command(from: at, [("command", "respond"), ("action", "1"), ("fields", password)])
            let page = await b.page(at)
            _ = await b.command(from: at, [("command", "respond"), ("action", "1")])            // the alert's OK
            return page
        }
        // A restore that worked starts every shell again: the wrong passwords after it are counted all the same.
        _ = await b.command(from: at, [("command", "tap"), ("row", "first")])
        let restored = await b.command(from: at, [("command", "respond"), ("action", "1")])
        #expect(WebAppTests.header(restored, "Location") == "/books", "restored: the app starts again at home")
        for _ in 0...FailedAttempts.free {
            #expect(await restore("guess").contains("not the password of the backup"))
        }
        let slowed = await restore(BackupGuessesTests.password)
        #expect(slowed.contains("Too many wrong attempts from your address"), "\(slowed)")
    }

    @Test func withATokenCreatingABackupNeedsTheLogin() async throws {
        var options = ServeOptions.unhurried
        options.token = "a-long-token"
        let (web, folder) = try await WebFilesTests.serve(options)
        let b = Browser(web)                                    // loopback: the app is used without the login
        let at = "/books/!/backups"
        try #require(await b.page(at).contains("Backups</h1>"))
        _ = await b.command(from: at, [("command", "add"), ("fields", "mine"), ("fields", "pw"), ("fields", "pw")])
        #expect(await b.page(at).contains("log in with the token"))
        _ = await b.command(from: at, [("command", "button"), ("id", "add")])
        #expect(!(await b.page(at)).contains("<dialog"), "the bar's + is refused as well")
        #expect(try BackupGuessesTests.kept(folder) == ["first.okbackup"])
        let login = String(decoding: await b.get("/login").body, as: UTF8.self)
        _ = await b.post("/login", [("csrf", Browser.attribute("name=\"csrf\" value", login)), ("token", "a-long-token")])
        _ = await b.command(from: at, [("command", "add"), ("fields", "mine")])
        #expect(try BackupGuessesTests.kept(folder) == ["first.okbackup", "mine.okbackup"], "logged in: created")
    }
}

extension WebApp {
    func makeBackup(_ name: String, password: String?) throws {
        try hosted?.session.createBackup(name: name, password: password)
    }

    func failedBackupPasswordWait(_ address: String) -> Int? { failedBackupPasswords.wait(address) }
}
