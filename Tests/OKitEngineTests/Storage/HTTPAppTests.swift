import Foundation
import Testing
import OKitTestSupport

/// An app with an HTTP model run by `okit-run` against a real nginx (through a fault proxy): the endpoint from
/// `okit.app`, `okit.model` or `OKIT_ENDPOINT`, a change the server did not take kept pending with a warning at
/// exit and sent by the next run, a network error at load refused with exit 4, and `okit-run sync`.
@Suite struct HTTPAppTests {
    /// A notes app whose model is stored on `endpoint` (given in okit.app or okit.model, or not at all).
    static func app(_ folder: TempFolder, storage: String = "http", appEndpoint: String? = nil, modelEndpoint: String? = nil) throws -> String {
        let app = folder.url.appendingPathComponent("notes/app.lua")
        try FileManager.default.createDirectory(at: app.deletingLastPathComponent(), withIntermediateDirectories: true)
        let model = modelEndpoint.map { ", endpoint = \"\($0)\"" } ?? ""
        try """
        local okit = require "okit"
        \(appEndpoint.map { "okit.app { endpoint = \"\($0)\" }" } ?? "")
        okit.entity("Note", { title = "string" })
        okit.entity("Notes", { notes = "[Note]" })
        notes = okit.model("Notes", { storage = "\(storage)"\(model) })
        """.write(to: app, atomically: true, encoding: .utf8)
        return app.path
    }

    static func run(_ args: [String], env: [String: String] = [:], script: String? = nil, in folder: TempFolder) throws -> ChildResult {
        try OKitRun.run(args, env: env, script: script, in: folder)
    }

    static func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    @Test func theAppsEndpointStoresAndLoadsThroughNginx() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let nginx = try NginxServer(), folder = try TempFolder()
        let app = try Self.app(folder, appEndpoint: nginx.endpoint.absoluteString)
        let data = folder.url.appendingPathComponent("data").path
        let first = try Self.run([app, "--data", data], script: "notes.notes:append(okit.new('Note', { title = 'On the server' }))", in: folder)
        #expect(first.code == 0, "\(first.err)")
        #expect(Self.text(nginx.file("default.json")).contains("On the server"))
        #expect(!FileManager.default.fileExists(atPath: data + "/okit/data/default.json"), "an http model has no local file")
        // A second machine (another data folder) sees it.
        let other = folder.url.appendingPathComponent("other").path
        let second = try Self.run([app, "--data", other], script: "assert(notes.notes[1].title == 'On the server', 'loaded from nginx')", in: folder)
        #expect(second.code == 0, "\(second.err)")
    }

    @Test func okitEndpointOverridesTheModelsEndpoint() throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let app = try Self.app(folder, modelEndpoint: "http://127.0.0.1:9/nowhere")
        let data = folder.url.appendingPathComponent("data").path
        let r = try Self.run([app, "--data", data], env: ["OKIT_ENDPOINT": nginx.endpoint.absoluteString],
                             script: "notes.notes:append(okit.new('Note', { title = 'Via OKIT_ENDPOINT' }))", in: folder)
        #expect(r.code == 0, "\(r.err)")
        #expect(Self.text(nginx.file("default.json")).contains("Via OKIT_ENDPOINT"))
    }

    @Test func withoutAnEndpointTheModelIsRefusedWithTheWayOut() throws {
        let folder = try TempFolder()
        let app = try Self.app(folder)
        let r = try Self.run([app, "--data", folder.url.appendingPathComponent("data").path], script: "", in: folder)
        #expect(r.code == 3)
        #expect(r.err.contains("no endpoint") && r.err.contains("OKIT_ENDPOINT"), "\(r.err)")
    }

    @Test func aServerErrorAtLoadStopsTheAppWithExit4() throws {
        let proxy = try FaultServer(mode: .status(500)), folder = try TempFolder()
        let app = try Self.app(folder, appEndpoint: proxy.endpoint.absoluteString)
        let data = folder.url.appendingPathComponent("data").path
        let r = try Self.run([app, "--data", data], script: "", in: folder)
        #expect(r.code == 4, "a model is never started fresh because a server failed")
        #expect(r.err.contains("500"), "\(r.err)")
    }

    @Test func aChangeTheServerDidNotTakeIsKeptWithAWarningAndSentByTheNextRun() throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let proxy = try FaultServer(upstream: nginx.port)
        let app = try Self.app(folder, appEndpoint: proxy.endpoint.absoluteString)
        let data = folder.url.appendingPathComponent("data").path
        #expect(try Self.run([app, "--data", data], script: "notes.notes:append(okit.new('Note', { title = 'First' }))", in: folder).code == 0)
        let remote = try #require(nginx.file("default.json"))

        proxy.mode = .writesFail(503)
        let offline = try Self.run([app, "--data", data], script: "notes.notes:append(okit.new('Note', { title = 'Typed offline' }))", in: folder)
        #expect(offline.code == 0, "nothing is lost: the change waits on disk")
        #expect(offline.err.contains("warning: the changes to model \"default\" are not on the server yet"), "\(offline.err)")
        #expect(offline.err.contains(data + "/okit/pending"))
        #expect(nginx.file("default.json") == remote)
        #expect(Self.text(FileManager.default.contents(atPath: data + "/okit/pending/default.json").map { [UInt8]($0) }).contains("Typed offline"))

        proxy.mode = .pass
        let back = try Self.run([app, "--data", data], script: "assert(#notes.notes == 2 and notes.notes[2].title == 'Typed offline')", in: folder)
        #expect(back.code == 0, "\(back.err)")
        #expect(!back.err.contains("warning"), "\(back.err)")
        #expect(Self.text(nginx.file("default.json")).contains("Typed offline"), "the pending change was sent")
        #expect(!FileManager.default.fileExists(atPath: data + "/okit/pending/default.json"))
    }

    /// A conflict (412 from the server), then `okit-run sync` resolves it either way.
    @Test(arguments: [true, false])
    func syncResolvesAConflict(_ keepLocal: Bool) throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let proxy = try FaultServer(upstream: nginx.port)
        let app = try Self.app(folder, appEndpoint: proxy.endpoint.absoluteString)
        let data = folder.url.appendingPathComponent("data").path
        #expect(try Self.run([app, "--data", data], script: "notes.notes:append(okit.new('Note', { title = 'Shared' }))", in: folder).code == 0)
        // Someone else changes the server's copy; our change is refused with 412.
        let other = folder.url.appendingPathComponent("other").path
        #expect(try Self.run([app, "--data", other], script: "notes.notes[1].title = 'Theirs'", in: folder).code == 0)
        proxy.mode = .writesFail(412)
        let refused = try Self.run([app, "--data", data], script: "notes.notes[1].title = 'Mine'", in: folder)
        #expect(refused.code == 0 && refused.err.contains("412"), "\(refused.err)")
        #expect(Self.text(nginx.file("default.json")).contains("Theirs"), "412 never overwrites the server's copy")

        proxy.mode = .pass
        let sync = try Self.run(["sync", keepLocal ? "--keep-local" : "--take-remote", "--app", app, "--data", data], in: folder)
        #expect(sync.code == 0, "\(sync.err)")
        #expect(sync.out.contains("\"default\""), "\(sync.out)")
        let expected = keepLocal ? "Mine" : "Theirs"
        #expect(Self.text(nginx.file("default.json")).contains(expected))
        #expect(!FileManager.default.fileExists(atPath: data + "/okit/pending/default.json"))
        let after = try Self.run([app, "--data", data], script: "assert(notes.notes[1].title == '\(expected)', notes.notes[1].title)", in: folder)
        #expect(after.code == 0, "\(after.err)")
        let again = try Self.run(["sync", "--keep-local", "--app", app, "--data", data], in: folder)
        #expect(again.out.contains("nothing to resolve"))
    }

    @Test func encryptedHttpSendsSealedBodies() throws {
        let nginx = try NginxServer(), folder = try TempFolder()
        let app = try Self.app(folder, storage: "encryptedHttp", appEndpoint: nginx.endpoint.absoluteString)
        let data = folder.url.appendingPathComponent("data").path
        let env = ["OKIT_PASSPHRASE": "correct horse"]
        #expect(try Self.run([app, "--data", data], env: env, script: "notes.notes:append(okit.new('Note', { title = 'Secret' }))", in: folder).code == 0)
        let body = try #require(nginx.file("default.json"))
        #expect(Array(body.prefix(8)) == Array("OKITENC1".utf8))
        #expect(!Self.text(body).contains("Secret"))
        let back = try Self.run([app, "--data", data], env: env, script: "assert(notes.notes[1].title == 'Secret')", in: folder)
        #expect(back.code == 0, "\(back.err)")
    }
}
