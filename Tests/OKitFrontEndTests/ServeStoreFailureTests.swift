import Foundation
import OKitTestSupport
import Testing

/// `okit-run serve` whose store fails (web.md, cli.md "Exit codes"): the page says so in the app's language, and a
/// stop signal that cannot store the state says it was NOT stored and exits 4. A German plant app's server printed
/// "stored the state and stopped (signal 15)" after its store was refused, and everything typed was gone.
@Suite(.serialized) struct ServeStoreFailureTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Plant", { name = "string" })
    okit.entity("Garden", { plants = "[Plant]" })
    okit.model("Garden", { seed = function(root) root.plants:append(okit.new("Plant", { name = "Basilikum" })) end })
    okit.list("plants", { type = "Plant", dataPath = "plants", titlePath = "#Pflanzen", cell = { path = "name" }, segue = "plant" })
    okit.detail("plant", { titlePath = "name", sections = { { okit.cell.text { path = "#Name", textPath = "name" } } } })
    okit.app { id = "garden", home = "plants" }
    """

    @Test func aStoreThatFailsIsSaidOnThePageAndAtTheStop() throws {
        let folder = try TempFolder()
        let appFile = folder.url.appendingPathComponent("app.lua")
        try Self.app.write(to: appFile, atomically: true, encoding: .utf8)
        let data = folder.url.appendingPathComponent("data")
        let child = try ChildProcess.start(OKitRun.binary.path, ["serve", appFile.path, "--data", data.path, "--port", "0", "--lang", "de"],
                                           stderr: .stdout)
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let port = try #require(ServeProcessTests.port(child), "no serving line: \(child.outputSoFar)")
        let list = try HTTPExchange.request(port, "GET /plants")
        let cookie = try #require(list.cookie)
        let plant = try #require(list.body.firstMatch(of: /href="(\/plants\/plant~[^"]+)"/).map { String($0.1) })
        #expect(try HTTPExchange.command(port, cookie: cookie, at: plant, ["command": "edit", "on": "true"]) == 303)
        #expect(try HTTPExchange.command(port, cookie: cookie, at: plant, ["command": "set", "cell": "1", "value": "Minze"]) == 303)
        let models = data.appendingPathComponent("okit/data")
        #expect(try String(contentsOf: models.appendingPathComponent("default.json"), encoding: .utf8).contains("\"Minze\""))

        // The model's file and journal become folders (the tests run as root: permissions stop nothing).
        let fm = FileManager.default
        for name in ["default.json", "default.journal"] {
            try? fm.removeItem(at: models.appendingPathComponent(name))
            try fm.createDirectory(at: models.appendingPathComponent(name), withIntermediateDirectories: false)
        }
        #expect(try HTTPExchange.command(port, cookie: cookie, at: plant, ["command": "set", "cell": "1", "value": "Salbei"]) == 303)
        let page = try HTTPExchange.request(port, "GET \(plant)", cookie: cookie).body
        #expect(page.contains("Ihre Änderung konnte nicht gespeichert werden ("), "\(page)")

        child.signal(SIGTERM)
        let ended = child.wait(timeout: 60)
        #expect(ended.code == 4, "\(ended.out)")
        #expect(ended.out.contains("WITHOUT storing the state"), "\(ended.out)")
        #expect(!ended.out.contains("stored the state and stopped"), "\(ended.out)")
    }

    /// A real full disk: the page says why in the app's language and names no file of the server; the log names
    /// the model's file. A command that changed nothing (the model's first state failing to store again) puts no
    /// notice on the page. A tester read a server path and English inside German after merely opening a prompt.
    @Test(.enabled(if: SmallDisk.isAvailable, Comment(rawValue: SmallDisk.unavailable)))
    func aFullDiskIsSaidInTheAppsLanguageWithoutAServerPath() throws {
        let disk = try SmallDisk()
        let appFile = disk.url.appendingPathComponent("app.lua")
        try Self.app.write(to: appFile, atomically: true, encoding: .utf8)
        let child = try ChildProcess.start(OKitRun.binary.path, ["serve", appFile.path, "--data", disk.url.appendingPathComponent("d").path,
                                                                 "--port", "0", "--lang", "de"], stderr: .stdout)
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        let port = try #require(ServeProcessTests.port(child), "no serving line: \(child.outputSoFar)")
        let list = try HTTPExchange.request(port, "GET /plants")
        let cookie = try #require(list.cookie)
        let plant = try #require(list.body.firstMatch(of: /href="(\/plants\/plant~[^"]+)"/).map { String($0.1) })
        disk.fill()
        #expect(try HTTPExchange.command(port, cookie: cookie, at: plant, ["command": "edit", "on": "true"]) == 303)
        let unchanged = try HTTPExchange.request(port, "GET \(plant)", cookie: cookie).body
        #expect(!unchanged.contains("Ihre Änderung"), "\(unchanged)")
        #expect(try HTTPExchange.command(port, cookie: cookie, at: plant, ["command": "set", "cell": "1", "value": "Minze"]) == 303)
        let page = try HTTPExchange.request(port, "GET \(plant)", cookie: cookie).body
        #expect(page.contains("Ihre Änderung konnte nicht gespeichert werden (kein Platz mehr auf dem Datenträger des Servers); "), "\(page)")
        #expect(!page.contains(disk.url.path) && !page.contains(".tmp") && !page.contains("space left"), "\(page)")
        child.signal(SIGTERM)
        let ended = child.wait(timeout: 60)
        #expect(ended.code == 4, "\(ended.out)")
        #expect(ended.out.contains("okit-run serve: warning: the state is not stored: \(disk.url.path)/d/okit/data/default.json: cannot write: no space left on the disk"), "\(ended.out)")
    }

    /// SIGHUP (the terminal `okit-run serve` was started from closed) stores and stops as SIGINT and SIGTERM do,
    /// 128 + 1; it used to end the server at once.
    @Test func theTerminalClosingStoresAndStops() throws {
        let folder = try TempFolder()
        let appFile = folder.url.appendingPathComponent("app.lua")
        try Self.app.write(to: appFile, atomically: true, encoding: .utf8)
        let child = try ChildProcess.start(OKitRun.binary.path, ["serve", appFile.path, "--data", folder.url.appendingPathComponent("data").path,
                                                                 "--port", "0"], stderr: .stdout)
        defer { child.signal(SIGKILL); _ = child.wait(timeout: 10) }
        _ = try #require(ServeProcessTests.port(child), "no serving line: \(child.outputSoFar)")
        child.signal(SIGHUP)
        let ended = child.wait(timeout: 60)
        #expect(ended.signal == nil && ended.code == 128 + SIGHUP, "\(ended.out)")
        #expect(ended.out.contains("stored the state and stopped (signal 1)"), "\(ended.out)")
    }
}
