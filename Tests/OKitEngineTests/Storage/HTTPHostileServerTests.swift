import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
import OKitLua
@testable import okit_run     // CommandLineAdvice: okit-run's words for what a person reads

/// Issue 13, hole 11: a 302 from the endpoint to another origin was followed with `Authorization: Bearer`, and
/// the model loaded from that answer; a 1 GB answer cost 2 GB of memory before the deadline stopped it. Now a
/// 3xx is an error naming the URL and the status (the token never leaves the endpoint), and a body over the
/// limit is refused while it arrives.
@Suite struct HTTPHostileServerTests {
    @Test func aRedirectIsAnErrorAndTheTokenNeverLeavesTheEndpoint() throws {
        let elsewhere = try FaultServer(mode: .status(200))
        let endpoint = try FaultServer(mode: .redirect("http://127.0.0.1:\(elsewhere.port)/steal/default.json"))
        let f = try ShopFixture()
        let folder = try TempFolder()
        let storage = HTTPStorage(endpoint: endpoint.endpoint, dataFolder: folder.url, encrypted: false, key: nil,
                                  token: "s3cret-token", timeout: 5)
        do {
            _ = try f.engine.register(model: "default", type: "Shop", storage: storage)
            Issue.record("a model loaded through a redirect")
        } catch {
            let message = "\(error)"
            #expect(message.contains("302") && message.contains(endpoint.endpoint.absoluteString), "\(message)")
            #expect(message.contains("does not follow redirects"), "\(message)")
        }
        #expect(endpoint.requests.first?.headers["authorization"] == "Bearer s3cret-token", "the endpoint got the token")
        #expect(elsewhere.requests.isEmpty, "the other origin never saw a request: \(elsewhere.requests.map(\.headers))")
    }

    @Test func aHugeAnswerIsRefusedWhileItArrives() throws {
        let server = try FaultServer(mode: .endless(bytes: 64 << 20))
        let client = HTTPClient(timeout: 20, maxBody: 1 << 20)
        do {
            _ = try client.send(HTTPRequest(method: "GET", url: server.endpoint.appendingPathComponent("default.json")))
            Issue.record("a body over the limit was accepted")
        } catch {
            #expect(!error.timedOut, "stopped by the size limit, not by the deadline: \(error)")
            // The limit's setting is named in the front end's words (okit-run: its environment variable).
            #expect(error.reason.contains("larger than 1 MiB") && CommandLineAdvice.message(for: error).contains("OKIT_HTTP_MAX_BODY"), "\(error)")
        }
    }

    @Test func theBodyLimitDefaultsTo256MiB() {
        #expect(HTTPClient(timeout: 1).maxBody == (ProcessInfo.processInfo.environment["OKIT_HTTP_MAX_BODY"] == nil ? 256 << 20 : HTTPClient.defaultMaxBody))
    }
}
