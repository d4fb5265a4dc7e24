import Foundation
import Testing
@testable import OKitEngine

/// Detail cells as OKit's cells behave (okit-behaviour.md §5.9) and the fixes of screens.md "Detail".
@Suite struct DetailCellBehaviourTests {
    func screen(_ cells: [CellDeclaration], configure: (inout DetailDeclaration) -> Void = { _ in }) throws -> (ShopFixture, DetailScreen) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        var d = DetailDeclaration(id: "book")
        d.titlePath = "name"
        d.sections = [SectionDeclaration(cells: cells)]
        configure(&d)
        return (f, try DetailScreen(engine: f.engine, declaration: d, context: f.book(0)))
    }

    func rows(_ s: DetailScreen) throws -> [RowSnapshot] { try s.snapshot().sections.flatMap(\.rows) }

    @Test func readOnlyCellsRefuseValuesAndShowADisabledControl() throws {
        let (f, s) = try screen([CellDeclaration(kind: "text", properties: ["path": "%Name", "textPath": "name", "readOnly": "#true"])])
        try s.setEditing(true)
        #expect(throws: DetailError.self) { try s.set(cell: .key("Name"), value: .string("X")) }
        #expect(f.book(0)["name"]?.description == "Dune")
        #expect(try rows(s)[0].control?.enabled == false)
    }

    @Test func controlInDisplayFalseHidesTheControlOutsideEditMode() throws {
        let (_, s) = try screen([CellDeclaration(kind: "switch", properties: ["path": "%Marked", "onPath": "marked", "controlInDisplay": "#false"])])
        #expect(try rows(s)[0].control == nil)
        try s.setEditing(true)
        #expect(try rows(s)[0].control?.value == .bool(false))
    }

    @Test func secureTextNeverShowsItsValue() throws {
        let (_, s) = try screen([CellDeclaration(kind: "text", properties: ["path": "%Secret", "textPath": "name", "secure": "#true", "placeholder": "%Password"])])
        let c = try #require(try rows(s)[0].control)
        #expect(c.secure && c.value == .null && c.placeholder == "Password")
    }

    @Test func segmentsTakeATitleOrAnIndexAndStoreTheFieldsType() throws {
        let (f, s) = try screen([CellDeclaration(kind: "segment", properties: ["path": "%Type", "segmentsPath": "#Non-Fiction,#Fiction,#Other", "selectIndexPath": "type"])])
        try s.setEditing(true)
        try s.set(cell: .key("Type"), value: .string("Other"))
        #expect(f.book(0)["type"]?.description == "2", "a string field keeps a string")
        try s.set(cell: .key("Type"), value: .int(1))
        let c = try #require(try rows(s)[0].control)
        #expect(c.index == 1 && c.segments == ["Non-Fiction", "Fiction", "Other"])
        #expect(throws: ShellError.self) { try s.set(cell: .key("Type"), value: .string("Poetry")) }
        #expect(throws: ShellError.self) { try s.set(cell: .key("Type"), value: .int(3)) }
        #expect(f.book(0)["type"]?.description == "1", "nothing changed")
    }

    @Test func datesAreClampedToTheirRangeAndAcceptOffsets() throws {
        let (f, s) = try screen([CellDeclaration(kind: "date", properties: [
            "path": "%Date", "datePath": "date", "minDatePath": "#2020-01-01T00:00:00Z", "maxDatePath": "#2020-12-31T00:00:00+0100",
        ])])
        try s.setEditing(true)
        try s.set(cell: .key("Date"), value: .string("2019-06-01T00:00:00Z"))
        #expect(ISODate.format(try #require(f.book(0)["date"].flatMap { if case .date(let d) = $0 { d } else { nil } }), fractional: false) == "2020-01-01T00:00:00Z")
        try s.set(cell: .key("Date"), value: .string("2030-01-01T00:00:00-05:00"))
        let c = try #require(try rows(s)[0].control)
        #expect(c.value == .string("2020-12-30T23:00:00Z") && c.min == .string("2020-01-01T00:00:00Z"))
        #expect(throws: (any Error).self) { try s.set(cell: .key("Date"), value: .string("someday")) }
    }

    @Test func pickersTakeANameAnIdOrAPositionAndSetTheRefKey() throws {
        let (f, s) = try screen([CellDeclaration(kind: "picker", properties: ["path": "%Author", "dataPath": "/books[1]/authors", "namePath": "name", "selectionPath": "author"])])
        try s.setEditing(true)
        try s.set(cell: .key("Author"), value: .int(1))
        let emmas = try #require(f.engine.get(f.book(1), "authors[0]").entity)
        #expect(try f.engine.get(f.book(0), "author/refKey").displayString == emmas.id)
        let c = try #require(try rows(s)[0].control)
        #expect(c.options == ["Author of Emma"] && c.selected == 1 && c.value == .string(emmas.id ?? ""))
        #expect(throws: ShellError.self) { try s.set(cell: .key("Author"), value: .string("Nobody")) }
        #expect(throws: ShellError.self) { try s.set(cell: .key("Author"), value: .int(2)) }
    }

    @Test func slidersClampToTheirDefaultRange() throws {
        let (f, s) = try screen([CellDeclaration(kind: "slider", properties: ["path": "%Price", "valuePath": "price"])])
        try s.setEditing(true)
        try s.set(cell: .key("Price"), value: .double(3.5))
        #expect(f.book(0)["price"]?.doubleValue == 1, "#0 … #1 by default")
        try s.set(cell: .key("Price"), value: .double(-2))
        #expect(f.book(0)["price"]?.doubleValue == 0)
        #expect(throws: (any Error).self) { try s.set(cell: .key("Price"), value: .string("cheap")) }
    }

    @Test func selectNextRowRevealsTheProxyRowWithItsSelectHeight() throws {
        let (_, s) = try screen([
            CellDeclaration(kind: "table", properties: ["path": "%Release", "selectNextRow": "#1"]),
            CellDeclaration(kind: "date", properties: ["path": "%Picker", "datePath": "date", "heightDisplay": "#0", "heightEdit": "#0"]),
        ])
        #expect(try rows(s).map(\.text) == ["Release"], "the proxy row is hidden at height 0")
        try s.tap(.key("Release"))
        let shown = try rows(s)
        #expect(shown.map(\.text) == ["Release", "Picker"] && shown[1].selected == true, "heightSelect #216 applies while selected")
        try s.tap(.key("Release"))
        #expect(try rows(s).map(\.text) == ["Release"], "a second tap unselects")
    }

    @Test func editModeClearsTheSelection() throws {
        let (_, s) = try screen([
            CellDeclaration(kind: "table", properties: ["path": "%Release", "selectNextRow": "#1"]),
            CellDeclaration(kind: "date", properties: ["path": "%Picker", "datePath": "date", "heightDisplay": "#0", "heightEdit": "#0"]),
        ])
        try s.tap(.key("Release"))
        try s.setEditing(true)
        #expect(s.selectedCell == nil)
    }

    @Test func eachCellHasItsOwnTapAndAccessoryActions() throws {
        var log: [String] = []
        let (f, s) = try screen([
            CellDeclaration(kind: "table", properties: ["path": "%A"], actions: ["tap": .function { e, _ in log.append("tap \(e?["name"]?.description ?? "")") },
                                                                                 "tapEdit": .binding("setAsMarked()")]),
            CellDeclaration(kind: "table", properties: ["path": "%B", "accyText": "#Go"], actions: ["accyTap": .function { _, _ in log.append("accy B") },
                                                                                                       "accyEditTap": .function { _, _ in log.append("accyEdit B") }]),
        ])
        try s.tap(.key("A"))
        try s.accessory(.key("B"))
        #expect(log == ["tap Dune", "accy B"])
        try s.setEditing(true)
        try s.tap(.key("A"))
        try s.accessory(.key("B"))
        #expect(log == ["tap Dune", "accy B", "accyEdit B"] && f.book(0)["marked"]?.truthy == true, "tapEdit ran the binding")
        #expect(throws: DetailError.self) { try s.accessory(.key("A")) }
        #expect(throws: ShellError.self) { try s.tap(.key("B")) }
    }

    /// OKit §5.3: a false section flag gives the header and footer height 0 and no title; the section's cells show
    /// per their own `showDisplay`/`showEdit`. A non-empty part of `sectionsShowDisplay` wins over the section's own.
    @Test func sectionFlagsHideHeadersAndFootersNotCellsAndMultipartPropertiesWin() throws {
        let (f, s) = try screen([CellDeclaration(kind: "table", properties: ["path": "%A"])]) { d in
            d.sections.append(SectionDeclaration(header: "#Own", showDisplay: "marked", cells: [CellDeclaration(kind: "table", properties: ["path": "%B"])]))
            d.sectionHeaders = "#First,"
            d.sectionFooters = ",#Second footer"
        }
        var snap = try s.snapshot()
        try #require(snap.sections.count == 2)
        #expect(snap.sections[0].header == "First")
        #expect(snap.sections[1].header == nil && snap.sections[1].footer == nil && snap.sections[1].rows.map(\.text) == ["B"],
                "the section's flag is false: its cell shows, without header and footer")
        try f.engine.set(f.book(0), "marked", .bool(true))
        snap = try s.snapshot()
        try #require(snap.sections.count == 2)
        #expect(snap.sections[1].header == "Own" && snap.sections[1].footer == "Second footer",
                "an empty part leaves the section's own header")
        // A part that evaluates to nil gives no header (OKit's `getString(part)`), not the section's own.
        var nilPart = s.declaration
        nilPart.sectionHeaders = "#First,comment"
        let withNil = try DetailScreen(engine: f.engine, declaration: nilPart, context: f.book(0)).snapshot()
        #expect(withNil.sections[1].header == nil, "\(String(describing: withNil.sections[1].header))")
        var d = s.declaration
        d.sectionsShowDisplay = "#false,#false"
        snap = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0)).snapshot()
        #expect(snap.sections.map(\.header) == [nil, nil] && snap.sections.flatMap(\.rows).map(\.text) == ["A", "B"],
                "a part wins over the section's own flag; the cells stay")
        d.sectionsShowDisplay = ",#true"
        try f.engine.set(f.book(0), "marked", .bool(false))
        snap = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0)).snapshot()
        #expect(snap.sections.map(\.header) == ["First", "Own"], "a true part wins over the section's false flag")
        try s.setEditing(true)
        #expect(try s.snapshot().sections[1].header == "Own", "in edit mode the section's showEdit (unset) applies")
    }

    /// OKit §5.2: `accyShow` false takes the accessory view (the `accyText`/`accyIcon` button) away; the cell's
    /// accessory type (`accyPath`) still shows — in a detail as in a list's row.
    @Test func accyShowFalseHidesTheButtonNotTheAccessoryType() throws {
        let cell = CellDeclaration(kind: "table", properties: ["path": "name", "accyPath": "#3", "accyText": "#Mark", "accyShow": "!marked"],
                                   actions: ["accyTap": .binding("setAsMarked()")])
        let (f, s) = try screen([cell])
        #expect(try rows(s)[0].accessory == AccessorySnapshot(kind: "button", text: "Mark", enabled: true))
        try s.accessory(.key("Dune"))
        #expect(f.book(0)["marked"]?.truthy == true)
        #expect(try rows(s)[0].accessory == AccessorySnapshot(kind: "checkmark", text: nil, enabled: true), "the checkmark stays")
        #expect(throws: DetailError.self) { try s.accessory(.key("Dune")) }
        var list = ListDeclaration(id: "books")
        list.dataPath = "books"
        list.cell = CellDeclaration(kind: "table", properties: ["path": "name", "accyPath": "#3"])
        list.actions.accyText = "#Mark"
        list.actions.accyShow = "!marked"
        list.actions.accyTap = .binding("setAsMarked()")
        let rowsOfList = try ListScreen(engine: f.engine, declaration: list, context: f.root).snapshot().sections.flatMap(\.rows)
        let detailAccessory = try rows(s)[0].accessory
        #expect(rowsOfList[0].accessory == detailAccessory, "the list's row shows what the detail's cell shows")
        let plain = CellDeclaration(kind: "table", properties: ["path": "%Plain", "accyShow": "#false"], actions: ["accyTap": .binding("setAsMarked()")])
        #expect(try screen([plain]).1.snapshot().sections[0].rows[0].accessory == nil, "no accyPath: nothing shows")
    }

    @Test func aCellsContextPathMovesItsBindings() throws {
        let (_, s) = try screen([CellDeclaration(kind: "table", properties: ["path": "name", "contextPath": "authors[0]"])])
        #expect(try rows(s)[0].text == "Author of Dune")
    }

    @Test func cellsOfKindsWithoutValuesRefuseSet() throws {
        let (_, s) = try screen([CellDeclaration(kind: "progress", properties: ["path": "%Read", "valuePath": "price"])])
        try s.setEditing(true)
        #expect(throws: DetailError.self) { try s.set(cell: .key("Read"), value: .double(0.5)) }
        #expect(try rows(s)[0].control?.value == .double(10.5))
    }
}
