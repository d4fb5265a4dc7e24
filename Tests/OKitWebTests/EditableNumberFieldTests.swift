import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A German page's text field of a double shows the number as the server reads it back: `1,125` (it showed `1.125`,
/// and a person who changed the last digit to `1.126` stored 1126).
@Suite struct EditableNumberFieldTests {
    static func serve() async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load {
            let session = AppSession()
            let engine = session.engine
            engine.locale = AppLocale(language: "de", region: "", timeZone: "UTC")
            try engine.schema.entity("Plant", fields: [FieldSpec("name", .string), FieldSpec("size", .double)])
            try engine.schema.entity("Garden", fields: [try FieldSpec("plants", "[Plant]")])
            try engine.schema.validate()
            let garden = try engine.register(model: "default", type: "Garden", storage: TransientStorage())
            let fern = try engine.make("Plant", ["name": .string("Farn"), "size": .double(1.125)])
            try engine.insert(.entity(fern), into: engine.collection(garden.root, "plants"))
            var plants = ListDeclaration(id: "plants")
            plants.type = "Plant"
            plants.dataPath = "plants"; plants.cellPath = "name"; plants.titlePath = "#Pflanzen"; plants.segue = "plant"
            var plant = DetailDeclaration(id: "plant")
            plant.titlePath = "name"
            plant.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", properties: ["path": "#Größe", "id": "size", "textPath": "size"])])]
            try session.shell.declare(plants)
            try session.shell.declare(plant)
            try session.start(home: ["plants"], menu: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return web
    }

    @Test func theFieldShowsWhatItReadsBack() async throws {
        let b = WebAppTests.Browser(try await Self.serve())
        let tap = await b.command(from: "/plants", [("command", "tap"), ("row", "1")])
        let detail = try #require(WebAppTests.header(tap, "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        let page = await b.page(detail)
        #expect(page.contains("value=\"1,125\""), "\(page)")
        let set = await b.command(from: detail, [("command", "set"), ("cell", "Größe"), ("value", "1,126")])
        let after = await b.page(detail)
        #expect(after.contains("value=\"1,126\""), "\(set.status) \(after)")
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Größe"), ("value", "1.250")])
        #expect(await b.page(detail).contains("value=\"1250\""), "German grouping, as the field said it reads")
    }
}
