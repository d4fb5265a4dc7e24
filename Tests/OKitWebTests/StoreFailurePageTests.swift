import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb
import OKitTestSupport

/// A store that fails after a command from the browser (web.md "Durable per command"): the person is told on the
/// page, in the app's language, that the change shows but is not kept; the change stays in memory and the next store
/// that works keeps it. A German plant app's failing store showed its row as if stored.
@Suite struct StoreFailurePageTests {
    static func serve(_ folder: TempFolder) async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            try engine.schema.entity("Plant", fields: [FieldSpec("name", .string)])
            try engine.schema.entity("Garden", fields: [try FieldSpec("plants", "[Plant]")])
            try engine.schema.validate()
            let files = try FileStorage(dataFolder: folder.url)
            let garden = try engine.register(model: "default", type: "Garden", storage: files) { root in
                for name in ["Basilikum", "Minze"] {
                    try engine.insert(.entity(engine.make("Plant", ["name": .string(name)])), into: engine.collection(root, "plants"), append: true)
                }
            }
            try engine.store(garden)
            engine.locale.language = "de"
            var plants = ListDeclaration(id: "plants")
            plants.type = "Plant"
            plants.dataPath = "plants"; plants.cellPath = "name"; plants.titlePath = "#Pflanzen"; plants.segue = "plant"
            var plant = DetailDeclaration(id: "plant")
            plant.titlePath = "name"
            plant.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", properties: ["path": "#Name", "textPath": "name"])])]
            try session.shell.declare(plants)
            try session.shell.declare(plant)
            try session.start(home: ["plants"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func aFailedStoreIsSaidOnThePageAndTheNextStoreThatWorksKeepsTheChange() async throws {
        let folder = try TempFolder()
        let web = try await Self.serve(folder)
        let b = WebAppTests.Browser(web)
        let detail = try #require(WebAppTests.header(await b.command(from: "/plants", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "1"), ("value", "Thai-Basilikum")])
        #expect(!(await b.page(detail)).contains("okit-error"), "a store that works says nothing")

        // The model's file and journal become folders (as root, permissions stop nothing): every store fails.
        let file = folder.file("default.json"), journal = folder.file("default.journal")
        let stored = try Data(contentsOf: file)
        let fm = FileManager.default
        try fm.removeItem(at: file)
        try? fm.removeItem(at: journal)
        try fm.createDirectory(at: file, withIntermediateDirectories: false)
        try fm.createDirectory(at: journal, withIntermediateDirectories: false)
        _ = await b.command(from: detail, [("command", "set"), ("cell", "1"), ("value", "Zitronenbasilikum")])
        let page = await b.page(detail)
        #expect(page.contains("class=\"okit-error\"") && page.contains("Ihre Änderung konnte nicht gespeichert werden ("),
                "the failed store, in German: \(page)")
        #expect(page.contains("ist aber noch nicht gesichert"), "\(page)")
        #expect(page.contains("Zitronenbasilikum"), "the change shows")

        // The folder is repaired: the next store keeps the change that was not stored.
        try fm.removeItem(at: file)
        try fm.removeItem(at: journal)
        try stored.write(to: file)
        if case .failure(let error) = await web.storeAtExit() { Issue.record("the store at exit failed: \(error)") }
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"Zitronenbasilikum\""))
    }
}
