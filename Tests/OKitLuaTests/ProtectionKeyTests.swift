import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Protection and keys (storage.md "Protection"): the key of encrypted models is dropped when the protection
/// timeout passes on the app clock, and comes back only by authenticating — with the app's `authenticate`
/// function, the passphrase, or `app:authenticate(true)` in tests.
@Suite struct ProtectionKeyTests {
    static func app(timeout: Int, authenticate: String = "") -> String {
        """
        local okit = require "okit"
        okit.entity("Vault", { secret = "string", protection = { "bool", default = true }, minutes = { "int", default = \(timeout) } })
        vault = okit.model("Vault", { storage = "encrypted" })
        okit.list("home", { dataPath = "secret", titlePath = "#Vault" })
        okit.app { home = "home", protection = "protection", protectionTimeout = "minutes" \(authenticate) }
        """
    }

    func sealedBytes(_ t: TempApp) throws -> Data { try Data(contentsOf: t.data.appendingPathComponent("okit/data/default.json")) }

    @Test func theKeyIsDroppedWhenTheTimeoutPassesAndComesBackByAuthenticating() throws {
        let t = try TempApp(["app.lua": Self.app(timeout: 1)])
        let app = try t.launch()
        let storage = try #require(app.session.fileStorage)
        try app.run("vault.secret = 'one'")
        try app.session.background(app.shell)
        try app.session.advance(seconds: 59)
        #expect(!storage.keysDropped, "within the timeout the key stays")
        try app.session.advance(seconds: 2)
        #expect(storage.keysDropped)
        let before = try sealedBytes(t)
        try app.run("vault.secret = 'two'")
        #expect(throws: StorageError.self) { try app.session.store() }
        #expect(try sealedBytes(t) == before, "nothing is written, least of all in plain")
        try app.session.authenticate(app.shell, true)
        #expect(!storage.keysDropped)
        try app.session.store()
        #expect(try sealedBytes(t) != before)
        #expect(SealedFile.isSealed([UInt8](try sealedBytes(t))))
    }

    @Test func aTimeoutOfZeroDropsTheKeyAtOnceAndForegroundDoesNotUncover() throws {
        let t = try TempApp(["app.lua": Self.app(timeout: 0)])
        let app = try t.launch()
        try app.session.background(app.shell)
        #expect(try #require(app.session.fileStorage).keysDropped)
        try app.session.foreground(app.shell)
        #expect(app.shell.covered)
    }

    @Test func comingBackInTimeKeepsTheKey() throws {
        let t = try TempApp(["app.lua": Self.app(timeout: 5)])
        let app = try t.launch()
        try app.session.background(app.shell)
        try app.session.advance(seconds: 60)
        try app.session.foreground(app.shell)
        #expect(!app.shell.covered)
        try app.session.advance(seconds: 600)      // the cancelled timer never fires
        #expect(try #require(app.session.fileStorage).keysDropped == false)
    }

    @Test func thePassphraseMustGiveTheSameKey() throws {
        let t = try TempApp(["app.lua": Self.app(timeout: 1)])
        let app = try t.launch { $0.passphrase = "open sesame" }
        try app.session.background(app.shell)
        try app.session.advance(seconds: 120)
        #expect(throws: ShellError.self) { try app.session.authenticate(app.shell, passphrase: "wrong") }
        #expect(app.shell.covered && app.session.fileStorage?.keysDropped == true)
        #expect(throws: ShellError.self) { try app.session.authenticate(app.shell, passphrase: nil) }
        try app.driver.run("authenticate", ["passphrase": .string("open sesame")])
        #expect(!app.shell.covered && app.session.fileStorage?.keysDropped == false)
    }

    @Test func theAppsAuthenticateFunctionDecides() throws {
        let t = try TempApp(["app.lua": Self.app(timeout: 5, authenticate: ", authenticate = function() return ALLOW == true end")])
        let app = try t.launch { $0.passphrase = "ignored when the app decides" }
        #expect(!app.session.authenticatesByPassphrase)
        try app.session.background(app.shell)
        try app.session.advance(seconds: 600)
        try app.session.foreground(app.shell)
        #expect(throws: ShellError.self) { try app.session.authenticate(app.shell, passphrase: nil) }
        #expect(app.shell.covered)
        try app.run("ALLOW = true")
        try app.session.authenticate(app.shell, passphrase: nil)
        #expect(!app.shell.covered)
    }

    /// A flow test's `app:authenticate(true)` answers for the device's check, and the app's function still decides;
    /// without an answer nothing is taken as a success.
    @Test func aFlowTestsAuthenticateAsksTheAppsFunctionToo() throws {
        let t = try TempApp(["app.lua": Self.app(timeout: 0, authenticate: ", authenticate = function() return ALLOW == true end")])
        let app = try t.launch()
        app.installAppGlobal()
        try app.session.background(app.shell)
        #expect(app.shell.covered)
        try app.run("""
            local ok, err = pcall(function() return app:authenticate(true) end)
            assert(not ok and err:find("authentication failed", 1, true), err)
            ok, err = pcall(function() return app:authenticate() end)
            assert(not ok and err:find("authenticate needs ok", 1, true), err)
            ALLOW = true
            assert(not app:authenticate(true).app.covered)
            """)
    }

    @Test func badAuthenticateAndAutosaveDeclarationsAreRefused() throws {
        for (decl, message) in [(", authenticate = 'yes'", "authenticate must be a function"), (", autosave = -1", "autosave must be a number")] {
            let t = try TempApp(["app.lua": Self.app(timeout: 5, authenticate: decl)])
            do { _ = try t.launch(); Issue.record("no error for \(decl)") } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }
}
