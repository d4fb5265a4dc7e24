import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A web date field in the app's time zone (a German app in Europe/Berlin): the page showed `27.11.26, 14:30` but the
/// field held `2026-11-27T13:30` (UTC), and `14:30` sent back was stored as 14:30Z (shown 15:30). The field shows
/// and sends the wall-clock time of the zone the app shows dates in, in winter and in summer time.
@Suite struct DateFieldTimeZoneTests {
    static let winter = Date(timeIntervalSince1970: 1_795_786_200)   // 2026-11-27T13:30:00Z, 14:30 in Berlin (+1)
    static let summer = Date(timeIntervalSince1970: 1_782_909_000)   // 2026-07-01T12:30:00Z, 14:30 in Berlin (+2)

    static func serve(_ date: Date) async throws -> WebApp {
        let web = WebApp(options: .unhurried)
        try await web.load { WebHostedApp(session: try session(date), owner: nil) }
        return web
    }

    /// A German app in Europe/Berlin with a plant watered at `date`, on its list.
    static func session(_ date: Date) throws -> AppSession {
        let session = AppSession()
        let engine = session.engine
        engine.locale = AppLocale(language: "de", region: "DE", timeZone: "Europe/Berlin")
        try engine.schema.entity("Plant", fields: [FieldSpec("name", .string), FieldSpec("watered", .date)])
        try engine.schema.entity("Garden", fields: [try FieldSpec("plants", "[Plant]")])
        try engine.schema.validate()
        let garden = try engine.register(model: "default", type: "Garden", storage: TransientStorage())
        let plant = try engine.make("Plant", ["name": .string("Monstera"), "watered": .date(date)])
        try engine.insert(.entity(plant), into: engine.collection(garden.root, "plants"))
        var plants = ListDeclaration(id: "plants")
        plants.type = "Plant"
        plants.dataPath = "plants"; plants.cellPath = "name"; plants.titlePath = "%Plants"; plants.segue = "plant"
        var detail = DetailDeclaration(id: "plant")
        detail.titlePath = "name"
        detail.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "date", properties: ["path": "%Watered", "datePath": "watered"])])]
        try session.shell.declare(plants)
        try session.shell.declare(detail)
        try session.start(home: ["plants"], menu: nil)
        return session
    }

    @Test(arguments: [(winter, "2026-11-27"), (summer, "2026-07-01")])
    func theFieldShowsAndSendsTheWallClockOfTheAppsTimeZone(_ date: Date, _ day: String) async throws {
        let b = WebAppTests.Browser(try await Self.serve(date))
        let detail = try #require(WebAppTests.header(await b.command(from: "/plants", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        let page = await b.page(detail)
        #expect(page.contains(", 14:30</span>") && page.contains("name=\"value\" value=\"\(day)T14:30\">"),
                "the field shows 14:30, as the detail does: \(page)")
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Watered"), ("value", "\(day)T16:45")])
        let after = await b.page(detail)
        #expect(after.contains(", 16:45</span>") && after.contains("name=\"value\" value=\"\(day)T16:45\">"),
                "16:45 sent is 16:45 in Berlin, shown so: \(after)")
    }

    /// The web's field and a command (the terminal's `set Watered 2026-12-24T00:00`, JSON lines' value) read a date
    /// without a zone alike: as the app's wall clock (DateCellWallClockTests has the engine's side).
    @Test func theFieldAndACommandReadADateWithoutAZoneAlike() async throws {
        let b = WebAppTests.Browser(try await Self.serve(Self.winter))
        let detail = try #require(WebAppTests.header(await b.command(from: "/plants", [("command", "tap"), ("row", "1")]), "Location"))
        _ = await b.command(from: detail, [("command", "edit"), ("on", "true")])
        _ = await b.command(from: detail, [("command", "set"), ("cell", "Watered"), ("value", "2026-12-24T00:00")])
        let page = await b.page(detail)
        #expect(page.contains("name=\"value\" value=\"2026-12-24T00:00\">"), "midnight in Berlin: \(page)")
        for typed in ["2026-12-24T00:00", "2026-12-24"] {
            let session = try Self.session(Self.winter)
            try session.driver.run("tap", ["row": .int(1)])
            try session.driver.run("edit", ["on": .bool(true)])
            try session.driver.run("set", ["cell": .string("Watered"), "value": .string(typed)])
            let control = try session.shell.snapshot().screen.sections.flatMap(\.rows).first?.control
            #expect(control?.value == .string("2026-12-23T23:00:00Z"), "\(typed): midnight in Berlin, as the field")
        }
    }

    @Test func theFieldShowsTheWallClockAcrossTheChangesOfTheClocks() {
        let berlin = "Europe/Berlin"
        #expect(WallClock.local(.string("2026-10-25T00:30:00Z"), timeZone: berlin) == "2026-10-25T02:30", "summer time's last hour")
        #expect(WallClock.local(.string("2026-10-25T01:30:00Z"), timeZone: berlin) == "2026-10-25T02:30", "winter time's first")
    }

    /// The field counts the proleptic Gregorian calendar, as HTML and the model files do (a stranger's round six:
    /// `1000-06-01` showed as `1000-05-26`, Foundation's Julian count before 1582, and moved six days at every save).
    @Test func theFieldShowsADateBefore1582AsStored() {
        #expect(WallClock.local(.string("1000-06-01T00:00:00Z"), timeZone: "UTC") == "1000-06-01T00:00")
        #expect(WallClock.local(.string("0001-01-01T09:30:00Z"), timeZone: "UTC") == "0001-01-01T09:30")
        #expect(WallClock.local(.string("0000-06-01T00:00:00Z"), timeZone: "UTC") == nil, "HTML's field has no year 0")
        #expect(WallClock.local(.string("1582-10-04T12:00:00Z"), timeZone: "America/New_York") == "1582-10-04T07:03",
                "local mean time before zones: -4:56:02")
    }
}
