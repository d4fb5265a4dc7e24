import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// What a new user writing a Spanish app met: the built-in settings' timeouts were English, a mask's refusal was
/// English and named the binding, and a number written to a masked text skipped the mask.
@Suite struct PersonsLanguageRefusalTests {
    static let app = """
    local okit = require "okit"
    okit.locale { language = "es" }
    okit.entity("Socio", { nombre = "string", telefono = "string?", amigo = "ref Socio" })
    okit.entity("Club", { socios = "[Socio]" })
    club = okit.model("Club", { seed = function(root) root.socios:append(okit.new("Socio", { nombre = "Ana" })) end })
    settings = okit.model(okit.Settings, { name = "settings" })
    okit.list("socios", { dataPath = "socios", cell = { path = "nombre" }, segue = "socio" })
    okit.detail("socio", { titlePath = "nombre", sections = { {
      okit.cell.text { path = "#Teléfono", id = "tel", textPath = "telefono/mask('### ### ###')" },
      okit.cell.picker { path = "#Amigo", id = "amigo", selectionPath = "amigo", dataPath = "/socios", namePath = "nombre" } } } })
    okit.app { home = "socios" }
    """

    @Test func theBuiltInSettingsTimeoutsAreInTheAppsLanguage() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        let names = try app.lua.evaluate("local n = {} for _, t in ipairs(settings.timeouts) do n[#n + 1] = t.name end return table.concat(n, '|')")
        #expect(names == .string("Inmediatamente|1 minuto|5 minutos|10 minutos"))
    }

    @Test func aMaskRefusesInThePersonsLanguageAndANumberGoesThroughIt() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        try app.driver.run("tap", ["row": .int(1)])
        try app.driver.run("edit", ["on": .bool(true)])
        do { try app.driver.run("set", ["cell": .string("tel"), "value": .string("600-111-2223")]); Issue.record("taken") } catch {
            #expect("\(error)" == "Telefono: «600-111-2223» no encaja en ### ### ###: «3» sobra", "\(error)")
        }
        // A number is its digits, read through the mask: too many are refused, not stored whole.
        do { try app.driver.run("set", ["cell": .string("tel"), "value": .int(6001112223)]); Issue.record("taken") } catch {
            #expect("\(error)".contains("«6001112223» no encaja en ### ### ###"), "\(error)")
        }
        try app.driver.run("set", ["cell": .string("tel"), "value": .int(600111222)])
        #expect(try app.lua.evaluate("return club.socios[1].telefono") == .string("600111222"))
        do { try app.driver.run("set", ["cell": .string("tel"), "value": .string("60a")]); Issue.record("taken") } catch {
            #expect("\(error)".contains("«a» está donde va un dígito"), "\(error)")
        }
    }

    /// JSON's null given a ref picker (which a person cannot empty) is refused as an empty choice, not as code's `nil`.
    @Test func aNullGivenARefPickerIsAnEmptyChoiceInTheRefusal() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        try app.driver.run("tap", ["row": .int(1)])
        try app.driver.run("edit", ["on": .bool(true)])
        do { try app.driver.run("set", ["cell": .string("amigo"), "value": .null]); Issue.record("taken") } catch {
            #expect("\(error)".hasPrefix("«Amigo» no tiene la opción «» (opciones: 1 «Ana»"), "\(error)")
        }
    }
}

