import Foundation
@testable import OKitLua
import Testing

/// What a tester's app did without a word from `okit-run check`: edit cells whose value bindings the engine refuses
/// to write (a computed field without a setter, a function of a value), named at the binding's line and column; the
/// app itself still loads and runs. The pairings screens.md accepts (a date on an ISO text, …) stay unnamed.
@Suite struct CheckEditCellsTests {
    static let vet = """
    local okit = require "okit"
    okit.entity("Tutor", { nome = "string" })
    okit.entity("Pet", { nome = { "string", required = true }, especie = "string", peso = "double", nascimento = "date", tutor = "ref Tutor" })
    okit.entity("Clinica", { tutores = "[Tutor]", pets = "[Pet]" })
    clinica = okit.model("Clinica")
    okit.list("pets", { dataPath = "pets", cell = { path = "nome" }, segue = "pet" })
    okit.detail("pet", { titlePath = "nome", sections = { {
      okit.cell.date    { path = "#Nascimento", datePath = "nome" },
      okit.cell.switch  { path = "#Castrado", onPath = "peso" },
      okit.cell.picker  { path = "#Tutor", dataPath = "/tutores", namePath = "nome", selectionPath = "especie" },
      okit.cell.stepper { path = "#Idade", valuePath = "especie" },
    } } })
    okit.app { id = "vet", home = "pets" }
    """

    /// The vet app's cells are pairings screens.md accepts (a date on an ISO text, a switch on a number, a picker on
    /// an id text, a stepper on a text — Action Data keeps numbers as text): not named, as cli.md's table says.
    @Test func pairingsTheDocsAcceptAreNotNamed() throws {
        let result = try CheckFindingsTests.check(Self.vet)
        #expect(result.problems == [], "\(result.problems)")
    }

    static let item = """
    local okit = require "okit"
    okit.entity("Item", { name = "string", qty = "int", when = "date",
      upper = okit.computed(function(s) return s.name:upper() end) })
    okit.model("Item")
    okit.detail("item", { titlePath = "name", sections = { {
      okit.cell.text  { path = "#Up", textPath = "upper" },
      okit.cell.text  { path = "#Qty", textPath = "qty/format('%d')" },
      okit.cell.text  { path = "#When", textPath = "when/formatDate(#x)" },
      okit.cell.table { path = "#Shown", detailPath = "when/formatDate(#x)" },
    } } })
    okit.app { home = "item" }
    """

    @Test func aValueBindingTheEngineRefusesToWriteIsNamedAtItsStep() throws {
        let result = try CheckFindingsTests.check(Self.item)
        #expect(result.problems == [
            "app.lua:6:47: screen item, property cell Up.textPath: a text cell writes the value set into textPath, and the "
                + "write fails: Item.upper is computed and has no setter; bind textPath to a stored field (or a computed one "
                + "with a setter), or make the cell readOnly = \"#true\"",
            // At the function, with the field it reads.
            "app.lua:7:52: screen item, property cell Qty.textPath: a text cell writes the value set into textPath, and the "
                + "write fails: cannot write through \"format()\" of a number value: it computes a value and takes none; write "
                + "textPath = \"qty\" (the field itself), or make the cell readOnly = \"#true\"",
            "app.lua:8:54: screen item, property cell When.textPath: a text cell writes the value set into textPath, and the "
                + "write fails: cannot write through \"formatDate()\" of a date value: it computes a value and takes none (and "
                + "formatDate takes no argument: the last one given is ignored); write textPath = \"when\" (the field itself), or "
                + "make the cell readOnly = \"#true\"",
        ], "\(result.problems)")
    }

    /// The same cells written as the docs say: no complaint.
    @Test func cellsThatFitTheirFieldsAreClean() throws {
        let app = """
        local okit = require "okit"
        okit.entity("Tutor", { nome = "string" })
        okit.entity("Pet", { nome = "string", especie = "string", peso = "double", idade = "int", nascimento = "date",
          castrado = "bool", vacinado = "string", tutor = "ref Tutor", preco = "double", fone = "string",
          maiusculo = okit.computed(function(s) return s.nome:upper() end),
          dobro = okit.computed(function(s) return s.peso * 2 end, function(s, v) s.peso = v / 2 end) })
        okit.extension("string", "guardar", function(s, v) end)
        okit.entity("Clinica", { tutores = "[Tutor]", pets = "[Pet]" })
        okit.model("Clinica")
        okit.list("pets", { dataPath = "pets", cell = okit.cell.switch { path = "nome", onPath = "castrado" }, segue = "pet" })
        okit.detail("pet", { titlePath = "nome", sections = { {
          okit.cell.date    { path = "#Nascimento", datePath = "nascimento" },
          okit.cell.switch  { path = "#Castrado", onPath = "castrado" },
          okit.cell.switch  { path = "#Vacinado", onPath = "vacinado" },
          okit.cell.picker  { path = "#Tutor", dataPath = "/tutores", namePath = "nome", selectionPath = "tutor" },
          okit.cell.picker  { path = "#Especie", optionValues = "Cão,Gato", selectionPath = "especie" },
          okit.cell.picker  { path = "#Anos", optionValues = "1,2,3", selectionPath = "idade" },
          okit.cell.stepper { path = "#Idade", valuePath = "idade" },
          okit.cell.slider  { path = "#Peso", valuePath = "peso" },
          okit.cell.segment { path = "#Tipo", segmentsPath = "#A,#B", selectIndexPath = "especie" },
          okit.cell.text    { path = "#Preco", textPath = "preco/currency(#BRL)" },
          okit.cell.text    { path = "#Fone", textPath = "fone/mask('(##) ####-####')" },
          okit.cell.text    { path = "#Dobro", textPath = "dobro" },
          okit.cell.text    { path = "#Guardar", textPath = "nome/guardar()" },
          okit.cell.text    { path = "#Maiusculo", textPath = "maiusculo", readOnly = "#true" },
          okit.cell.date    { path = "#Texto", datePath = "nome", readOnly = "#true" },
          okit.cell.table   { path = "nome/upper", detailPath = "nascimento/formatDate(#x)" },
        } } })
        okit.detail("resumo", { type = "Pet", edit = "#false", sections = { {
          okit.cell.text { path = "#Maiusculo", textPath = "maiusculo" },
          okit.cell.stepper { path = "#Especie", valuePath = "especie" },
        } } })
        okit.app { home = "pets" }
        """
        let result = try CheckFindingsTests.check(app)
        #expect(result.problems == [], "\(result.problems)")
    }

    /// The app runs as before: its own check when it loads does not stop it for them.
    @Test func theAppStillLoads() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, source) in [("vet.lua", Self.vet), ("item.lua", Self.item)] {
            let file = dir.appendingPathComponent(name)
            try source.write(to: file, atomically: true, encoding: .utf8)
            var options = LuaAppOptions()
            options.dataFolder = dir.appendingPathComponent("data-\(name)")
            options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
            options.print = { _ in }
            let app = try LuaApp(options: options)
            try app.load(appFile: file)
            #expect(app.checkApp(ignoredNames: false).problems == [], "\(name)")
        }
    }
}
