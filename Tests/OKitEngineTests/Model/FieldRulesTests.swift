import Foundation
import Testing
@testable import OKitEngine

/// Validation (lua-api.md "Validation"): field rules refuse invalid values written by commands, with the rule's
/// message and nothing changed; code writes are not checked; detail cells carry their current `invalid` message.
@Suite struct FieldRulesTests {
    /// A shop of items whose fields carry every kind of rule.
    final class Fixture {
        let schema = Schema()
        let engine: Engine
        let shell: AppShell
        var validateCalls = 0

        init(configure: (inout DetailDeclaration) -> Void = { _ in }) throws {
            let engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 1))
            self.engine = engine
            try schema.entity("Person", fields: [FieldSpec("name", .string)])
            try schema.entity("Item", fields: [
                FieldSpec("name", .string, rules: FieldRules(required: true, maxLength: 10,
                                                             pattern: FieldPattern("^%u") { s in s.first?.isUppercase == true })),
                FieldSpec("price", .double, rules: FieldRules(min: 0, max: 100, messages: [.max: "Too expensive"])),
                FieldSpec("copies", .int, rules: FieldRules(min: 1, label: "Number of copies")),
                FieldSpec("code", .string, optional: true, rules: FieldRules(messages: [.all: "A code is two letters"])),
                FieldSpec("limit", .int, default: .int(5)),
                FieldSpec("stock", .int, rules: FieldRules(validate: { [engine] v, e in
                    // valid when the stock does not exceed the item's limit (reads another field of the entity)
                    (v.intValue ?? 0) <= (try engine.read(e, "limit").intValue ?? 0) ? nil : "Stock must not exceed the limit"
                })),
                FieldSpec("owner", "ref Person", rules: FieldRules(required: true)),
            ])
            try schema.entity("Shop", fields: [FieldSpec("items", "[Item]"), FieldSpec("people", "[Person]")])
            try schema.validate()
            let shop = try engine.register(model: "default", type: "Shop", storage: TransientStorage())
            let item = try engine.make("Item", ["name": .string("Lamp"), "price": .double(10), "copies": .int(1)])
            try engine.insert(.entity(item), into: engine.collection(shop.root, "items"), append: true)
            let ann = try engine.make("Person", ["name": .string("Ann")])
            try engine.insert(.entity(ann), into: engine.collection(shop.root, "people"), append: true)
            shell = AppShell(engine: engine)
            var items = ListDeclaration(id: "items")
            items.type = "Item"
            items.dataPath = "items"; items.cellPath = "name"; items.addName = "name"; items.segue = "item"
            var item2 = DetailDeclaration(id: "item")
            item2.titlePath = "name"
            item2.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "text", properties: ["path": "%Name", "textPath": "name"]),
                CellDeclaration(kind: "text", properties: ["path": "%Price", "textPath": "price"]),
                CellDeclaration(kind: "stepper", properties: ["path": "%Copies", "valuePath": "copies"]),
                CellDeclaration(kind: "text", properties: ["path": "%Stock", "textPath": "stock"]),
                CellDeclaration(kind: "picker", properties: ["path": "%Owner", "dataPath": "/people", "namePath": "name", "selectionPath": "owner"]),
                CellDeclaration(kind: "table", properties: ["path": "%Label", "detailPath": "name"]),
            ])]
            configure(&item2)
            try shell.declare(items)
            try shell.declare(item2)
            try shell.start(home: ["items"])
        }

        var item: Entity { get throws { try #require(engine.get(nil, "/items[0]").entity) } }

        func openItem() throws {
            try shell.tap(row: 1)
            try shell.edit(true)
        }

        func cells() throws -> [String: RowSnapshot] {
            var out: [String: RowSnapshot] = [:]
            for r in try shell.snapshot().screen.sections.flatMap(\.rows) { out[r.id ?? "?"] = r }
            return out
        }

        func refused(_ message: String, _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("expected the refusal \"\(message)\"")
            } catch let e as InvalidValue {
                #expect(e.message == message)
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test func requiredRefusesAnEmptyStringWithTheDefaultMessageAndChangesNothing() throws {
        let f = try Fixture()
        try f.openItem()
        let changes = try f.engine.recordChanges {
            f.refused("Name is required") { try f.shell.set(cell: .key("Name"), value: .string("")) }
        }
        #expect(try f.item["name"]?.description == "Lamp")
        #expect(changes.isEmpty, "nothing changed")
        try f.shell.set(cell: .key("Name"), value: .string("Desk"))
        #expect(try f.item["name"]?.description == "Desk")
    }

    @Test func maxLengthAndPatternRefuseWithTheirDefaultMessages() throws {
        let f = try Fixture()
        try f.openItem()
        f.refused("Name must be at most 10 characters") { try f.shell.set(cell: .key("Name"), value: .string("Chandeliers")) }
        f.refused("Name is not in the expected format") { try f.shell.set(cell: .key("Name"), value: .string("lamp")) }
        try f.shell.set(cell: .key("Name"), value: .string("Chandelier"))
        #expect(try f.item["name"]?.description == "Chandelier", "exactly 10 characters is allowed")
    }

    @Test func minAndMaxRefuseValuesOutsideTheirBoundsAfterCoercion() throws {
        let f = try Fixture()
        try f.openItem()
        f.refused("Price must be at least 0") { try f.shell.set(cell: .key("Price"), value: .string("-1")) }
        f.refused("Too expensive") { try f.shell.set(cell: .key("Price"), value: .string("100.5")) }
        #expect(try f.item["price"]?.doubleValue == 10)
        try f.shell.set(cell: .key("Price"), value: .string("100"))
        #expect(try f.item["price"]?.doubleValue == 100, "bounds are inclusive")
        f.refused("Number of copies must be at least 1") { try f.shell.set(cell: .key("Copies"), value: .int(0)) }
        #expect(try f.item["copies"]?.intValue == 1)
    }

    @Test func aValidateFunctionSeesTheValueAndTheEntity() throws {
        let f = try Fixture()
        try f.openItem()
        f.refused("Stock must not exceed the limit") { try f.shell.set(cell: .key("Stock"), value: .string("6")) }
        try f.shell.set(cell: .key("Stock"), value: .string("5"))
        #expect(try f.item["stock"]?.intValue == 5)
    }

    @Test func aRequiredRefRefusesAnEmptySelectionAndTakesAPickedOne() throws {
        let f = try Fixture()
        try f.openItem()
        #expect(try f.cells()["Owner"]?.invalid == "Owner is required")
        try f.shell.set(cell: .key("Owner"), value: .string("Ann"))
        #expect(try f.cells()["Owner"]?.invalid == nil)
    }

    @Test func writesFromCodeAreNotChecked() throws {
        let f = try Fixture()
        try f.engine.set(try f.item, "name", .string(""))
        try f.engine.set(try f.item, "price", .double(-5))
        try f.engine.set(nil, binding: "/items[0]/copies", .int(0))
        #expect(try f.item["name"]?.description == "" && f.item["price"]?.doubleValue == -5 && f.item["copies"]?.intValue == 0)
        let broken = try f.engine.invalidFields(of: f.item)
        #expect(broken.map(\.field) == ["name", "price", "copies", "owner"])
        #expect(broken.map(\.message) == ["Name is required", "Price must be at least 0", "Number of copies must be at least 1", "Owner is required"])
    }

    @Test func addWithANameChecksTheNameAndThePromptStaysWhenRefused() throws {
        let f = try Fixture()
        f.refused("Name is not in the expected format") { try f.shell.add(text: "desk") }
        #expect(try f.shell.snapshot().screen.sections.flatMap(\.rows).count == 1, "nothing was added")
        try f.shell.add()
        f.refused("Name must be at most 10 characters") { try f.shell.respond("OK", fields: ["Chandeliers"]) }
        #expect(try f.shell.snapshot().alert?.kind == "prompt", "the prompt stays")
        #expect(try f.shell.snapshot().screen.sections.flatMap(\.rows).count == 1)
        try f.shell.respond("OK", fields: ["Desk"])
        #expect(try f.shell.snapshot().alert == nil)
        #expect(try f.shell.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text) == ["Desk", "Lamp"])
    }

    @Test func detailCellsCarryTheirCurrentInvalidMessageAndFollowWrites() throws {
        let f = try Fixture()
        try f.openItem()
        #expect(try f.cells()["Name"]?.invalid == nil)
        #expect(try f.cells()["Label"]?.invalid == nil, "a cell without a value binding has no message")
        let screen = try #require(f.shell.top as? DetailScreen)
        let before = screen.cellComputations
        _ = try f.shell.snapshot()
        #expect(screen.cellComputations == before, "nothing changed, nothing computed")
        try f.engine.set(try f.item, "name", .string(""))        // code may write what a command may not
        let cells = try f.cells()
        #expect(cells["Name"]?.invalid == "Name is required")
        #expect(cells["Price"]?.invalid == nil)
        #expect(screen.cellComputations - before == 2, "the cells that read name (Name, Label) only")
        // A rule reading another field: the cell follows that field too.
        try f.engine.set(try f.item, "stock", .int(5))
        #expect(try f.cells()["Stock"]?.invalid == nil)
        try f.engine.set(try f.item, "limit", .int(4))
        #expect(try f.cells()["Stock"]?.invalid == "Stock must not exceed the limit")
        let json = try f.shell.snapshot().json
        #expect(json.contains("\"control\":{\"value\":\"\",\"enabled\":true},\"invalid\":\"Name is required\"}"))
        #expect(json.contains("\"invalid\":null"))
    }

    /// A cell showing its number through a locale format (`price/currency(#EUR)`) takes the text it shows: the
    /// number read back is what the rules check, and the cell's `invalid` is the price's.
    @Test func aNumberReadBackThroughALocaleFormatIsChecked() throws {
        let f = try Fixture { d in
            d.sections[0].cells[1] = CellDeclaration(kind: "text", properties: ["path": "%Price", "textPath": "price/currency(#EUR)"])
        }
        try f.openItem()
        f.refused("Too expensive") { try f.shell.set(cell: .key("Price"), value: .string("€250.00")) }
        #expect(try f.item["price"]?.doubleValue == 10)
        try f.shell.set(cell: .key("Price"), value: .string("€25.00"))
        #expect(try f.item["price"]?.doubleValue == 25)
        try f.engine.set(try f.item, "price", .double(-1))          // code may write what a command may not
        #expect(try f.cells()["Price"]?.invalid == "Price must be at least 0")
    }

    @Test func labelsAndBoundsReadAsAPersonWritesThem() {
        #expect(FieldRules.label("name") == "Name")
        #expect(FieldRules.label("releaseDate") == "Release date")
        #expect(FieldRules.text(0) == "0" && FieldRules.text(2.5) == "2.5")
    }
}
