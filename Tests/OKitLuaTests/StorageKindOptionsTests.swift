import Foundation
import OKitBackends
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Storage kinds declare the model options they read (issue 35): a kind registered from Swift gets its own option
/// from an app file, every declared option of the chosen kind reaches `StorageRequest.options`, and an option no
/// registered kind reads stops the app at load with the closest known name.
@Suite struct StorageKindOptionsTests {
    /// The requests a test kind was asked for.
    final class Requests {
        var options: [[String: Value]] = []
        var buckets: [String?] = []
    }

    static func launch(_ source: String, requests: Requests) throws -> LuaApp {
        let t = try TempApp(["app.lua": source])
        return try t.launch { o in
            o.storageKinds.register(StorageKind(rawValue: "s3"), options: ["bucket"]) { r in
                requests.options.append(r.options)
                requests.buckets.append(try r.option("bucket", expected: "a bucket name", example: "shop-data"))
                return TransientStorage()
            }
        }
    }

    @Test func aKindsOwnOptionReachesItsFactoryAndAnotherKindsIsRefused() throws {
        let requests = Requests()
        _ = try Self.launch("""
        okit.entity("Shop", { name = "string" })
        shop = okit.model("Shop", { storage = "s3", bucket = "shop-data" })
        """, requests: requests)
        #expect(requests.options.map { $0.keys.sorted() } == [["bucket"]])
        #expect(requests.buckets == ["shop-data"])
        // endpoint is the http kinds' option, not s3's: refused, never dropped without a word (OptionNotReadTests).
        let refused = Requests()
        #expect(throws: (any Error).self) {
            _ = try Self.launch("""
            okit.entity("Shop", { name = "string" })
            shop = okit.model("Shop", { storage = "s3", bucket = "shop-data", endpoint = "http://127.0.0.1:1/okit" })
            """, requests: refused)
        }
        #expect(refused.options.isEmpty)
    }

    @Test func theAppGivesTheDefaultOfAKindsOption() throws {
        let requests = Requests()
        _ = try Self.launch("""
        okit.app { bucket = "app-bucket" }
        okit.entity("Shop", { name = "string" })
        shop = okit.model("Shop", { storage = "s3" })
        """, requests: requests)
        #expect(requests.buckets == ["app-bucket"])
    }

    @Test func anOptionNoKindReadsIsALoadErrorWithTheClosestName() throws {
        let t = try TempApp(["app.lua": """
        okit.entity("Shop", { name = "string" })
        shop = okit.model("Shop", { storage = "s3", buckt = "shop-data" })
        """])
        do {
            _ = try t.launch { o in o.storageKinds.register(StorageKind(rawValue: "s3"), options: ["bucket"]) { _ in TransientStorage() } }
            Issue.record("an unknown option loaded")
        } catch let e as AppLoadError {
            #expect(e.message.hasPrefix("app.lua:2:45: okit.model(\"Shop\"): unknown option \"buckt\" (did you mean \"bucket\"?); it takes name, storage, seed, "), "\(e.message)")
            #expect(e.message.hasSuffix(", bucket"), "\(e.message)")
        }
    }

    @Test func theBuiltInKindsDeclareTheirOptionsAndAReplacedKindKeepsThem() {
        var r = StorageRegistry.builtIn
        #expect(r.options(of: .file) == [])
        #expect(r.options(of: .http) == ["endpoint"])
        #expect(r.options(of: .encryptedHttp) == ["endpoint"])
        #expect(r.options(of: StorageKind(rawValue: "sqlite")) == ["encrypted"])
        #expect(r.options(of: StorageKind(rawValue: "postgres")) == ["database", "encrypted"])
        #expect(r.allOptions == ["endpoint", "encrypted", "database"])
        r.register(StorageKind(rawValue: "postgres")) { _ in TransientStorage() }   // the call without options, as okit-run check does
        #expect(r.options(of: StorageKind(rawValue: "postgres")) == ["database", "encrypted"])
        r.register(StorageKind(rawValue: "new")) { _ in TransientStorage() }
        #expect(r.options(of: StorageKind(rawValue: "new")) == [])
    }
}
