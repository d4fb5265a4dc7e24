import Foundation
import OKitBackends
import OKitTestSupport
import Testing
@testable import OKitEngine
@testable import OKitLua

/// A model's option its storage kind does not read stops the app, naming who reads it (nothing typed is dropped
/// without a word): `encrypted = true` on a file model would otherwise leave the data unsealed.
@Suite struct OptionNotReadTests {
    func failure(_ options: String) throws -> String {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Shop", { name = "string" })
        shop = okit.model("Shop", \(options))
        okit.detail("home", {})
        okit.app { home = "home" }
        """])
        do { _ = try t.launch { $0.storageKinds = .builtIn }; return "" } catch { return "\(error)" }
    }

    @Test func anOptionTheKindDoesNotReadIsRefused() throws {
        let sealed = try failure("{ encrypted = true }")
        #expect(sealed.contains("app.lua:3:") && sealed.contains("okit.model(\"Shop\"): storage \"file\" does not take encrypted (use storage = \"encrypted\" for sealed JSON files)"), "\(sealed)")
        let database = try failure("{ storage = \"sqlite\", database = \"postgres://okit@db/shop\" }")
        #expect(database.contains("storage \"sqlite\" does not take database (it is read by storage \"postgres\")"), "\(database)")
    }

    @Test func whatTheKindReadsOrAsksNothingIsTaken() throws {
        #expect(try failure("{ encrypted = false }").isEmpty)
        #expect(try failure("{ storage = \"sqlite\", encrypted = false }").isEmpty)
    }
}
