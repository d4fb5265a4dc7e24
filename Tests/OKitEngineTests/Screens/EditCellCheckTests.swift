import Foundation
import Testing
@testable import OKitEngine

/// `okit-run check` on edit cells a person can set (not `readOnly`, on a screen that can be in edit mode) whose
/// value cannot be set as the control sets it: a field of a type the control writes another kind of value into
/// (screens.md "Cells"), and a value binding the engine refuses to write. Only `check` reports them (thorough): the
/// app runs as before.
@Suite struct EditCellCheckTests {
    /// The problems of a Book detail with these cells (`edit`, `editAlways`: the screen's flags).
    func messages(_ cells: [CellDeclaration], edit: String = "#true", editAlways: String = "#false",
                  extend: (Engine) -> Void = { _ in }) throws -> [String] {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        extend(f.engine)
        let shell = AppShell(engine: f.engine)
        var book = DetailDeclaration(id: "book")
        book.type = "Book"
        book.edit = edit
        book.editAlways = editAlways
        book.sections = [SectionDeclaration(cells: cells)]
        try shell.declare(book)
        try shell.start(home: ["book"])
        return shell.checkReport(thorough: true).issues.filter { $0.screen == "book" }.map { "\($0.property): \($0.message)" }
    }

    func cell(_ kind: String, _ properties: [String: String]) -> CellDeclaration {
        CellDeclaration(kind: kind, properties: ["path": "#Value"].merging(properties) { $1 })
    }

    /// The pairings screens.md accepts are not named: a date on an ISO text, a switch on a number or a text of
    /// yes/no words, a stepper or slider on a text (Action Data keeps numbers as text), a picker on an id text.
    @Test func pairingsTheDocsAcceptAreNotProblems() throws {
        #expect(try messages([cell("date", ["datePath": "name"]), cell("switch", ["onPath": "price"]),
                              cell("switch", ["onPath": "comment"]), cell("stepper", ["valuePath": "name"]),
                              cell("slider", ["valuePath": "comment"]),
                              cell("picker", ["dataPath": "/authors", "namePath": "name", "selectionPath": "name"]),
                              cell("segment", ["segmentsPath": "#A,#B", "selectIndexPath": "type"])]) == [])
    }

    /// Only a cell a person can set is named: not one `readOnly` by a constant, hidden in edit mode, or on a screen
    /// never in edit mode; a bound `readOnly` may be off, and `editAlways` is edit mode.
    @Test func onlyACellAPersonCanSetIsNamed() throws {
        let probe = ["textPath": "formatMarked"]
        #expect(try messages([cell("text", probe)]).count == 1)
        #expect(try messages([cell("text", probe.merging(["readOnly": "#true"]) { $1 })]) == [], "shown, never set")
        #expect(try messages([cell("text", probe.merging(["showEdit": "#false"]) { $1 }),
                              cell("text", probe.merging(["heightEdit": "#0"]) { $1 })]) == [], "hidden in edit mode")
        #expect(try messages([cell("text", probe)], edit: "#false") == [], "no edit mode")
        #expect(try messages([cell("text", probe)], edit: "#false", editAlways: "#true").count == 1)
        #expect(try messages([cell("text", probe.merging(["readOnly": "marked"]) { $1 })]).count == 1, "set while not marked")
    }

    @Test func aPickerOverEntitiesNeedsARefToThem() throws {
        let other = try messages([cell("picker", ["dataPath": "/genres", "selectionPath": "author"])])
        #expect(other == ["cell Value.selectionPath: a picker over \"/genres\" sets a ref to the chosen Genre and needs a ref Genre "
                          + "field: \"author\" on Book is a ref to Author, and a Genre's id in it points at nothing; write "
                          + "selectionPath = \"genre\", or make the cell readOnly = \"#true\""])
        #expect(try messages([cell("picker", ["dataPath": "/authors", "selectionPath": "author"])]) == [])
    }

    @Test func aTextPickerTakesANumberFieldWhenEveryOptionIsANumber() throws {
        #expect(try messages([cell("picker", ["optionValues": "1,2,5", "selectionPath": "copies"])]) == [])
        let words = try messages([cell("picker", ["optionValues": "Dog,Cat", "selectionPath": "copies"])])
        #expect(words == ["cell Value.selectionPath: a picker over optionValues stores the chosen text: it needs a string (or a "
                          + "number, when every option is one); \"copies\" on Book is a number"])
    }

    @Test func aComputedFieldWithoutASetterCannotBeWritten() throws {
        #expect(try messages([cell("text", ["textPath": "formatMarked"])]) == [
            "cell Value.textPath: a text cell writes the value set into textPath, and the write fails: Book.formatMarked is "
                + "computed and has no setter; bind textPath to a stored field (or a computed one with a setter), or make the cell "
                + "readOnly = \"#true\"",
        ])
        #expect(try messages([cell("text", ["textPath": "priceWithTax"])]) == [], "it has a setter")
        #expect(try messages([cell("text", ["textPath": "formatMarked", "readOnly": "#yes"])]) == [])
        #expect(try messages([cell("text", ["textPath": "formatMarked"])], edit: "#no") == [])
    }

    @Test func aFunctionOfAValueCannotBeWritten() throws {
        #expect(try messages([cell("text", ["textPath": "copies/format('%d')"])]) == [
            "cell Value.textPath: a text cell writes the value set into textPath, and the write fails: cannot write through "
                + "\"format()\" of a number value: it computes a value and takes none; write textPath = \"copies\" (the field "
                + "itself), or make the cell readOnly = \"#true\"",
        ])
        let bare = try messages([cell("text", ["textPath": "name/upper"])])
        #expect(bare.count == 1 && bare[0].contains("the write fails: cannot write \"upper\" through a string value; write textPath = \"name\""))
        // A locale format and a mask are read back: the field before them is written.
        #expect(try messages([cell("text", ["textPath": "price/currency(#EUR)"]), cell("text", ["textPath": "name/mask('###')"])]) == [])
        // A Lua extension of a value may take the value.
        #expect(try messages([cell("text", ["textPath": "name/upper()"])]) { e in
            e.extensions.register("string", "upper") { v, _, _ in v }
        } == [])
    }

    @Test func aBuiltInFunctionGivenMoreArgumentsThanItTakesIsNamed() throws {
        let extra = try messages([cell("text", ["textPath": "date/formatDate(#x)"])])
        #expect(extra.count == 1 && extra[0].contains("cannot write through \"formatDate()\" of a date value: it computes a value "
                                                     + "and takes none (and formatDate takes no argument: the last one given is ignored)"))
        // On a collection or an entity the write calls it with the value as one more: it writes nothing.
        #expect(try messages([cell("text", ["textPath": "tags/join(', ')"])]) == [
            "cell Value.textPath: a text cell writes the value set into textPath, and the write fails: a write calls \"join()\" "
                + "with the value as one argument more (2 in all), but okit's join takes 1 argument and writes nothing; bind "
                + "textPath to a stored field (or a computed one with a setter), or make the cell readOnly = \"#true\"",
        ])
        let any = try messages([cell("switch", ["onPath": "authors/isEmpty()"])])
        #expect(any.count == 1 && any[0].contains("but okit's isEmpty takes no argument and writes nothing"))
        #expect(try messages([cell("text", ["textPath": "label()"])]) == [], "a method of the entity may take the value")
    }

    @Test func whatNoWriteReachesIsNamed() throws {
        for (text, reason) in [("authors.@count", "an aggregate cannot be written"), ("!marked", "a negated path (!) cannot be written"),
                               ("=price * 2", "only a single path can be written"), ("label", "\"label\" is a method of Book, not a field")] {
            let kind = text == "!marked" ? "switch" : "text"
            let found = try messages([cell(kind, [kind == "switch" ? "onPath" : "textPath": text])])
            #expect(found.count == 1 && found[0].contains("the write fails: \(reason)"), "\(text): \(found)")
        }
    }

    @Test func displayUsesAreNotProblems() throws {
        #expect(try messages([
            CellDeclaration(kind: "table", properties: ["path": "name/upper", "detailPath": "date/formatDate(#x)"]),
            cell("progress", ["valuePath": "name"]),
            cell("text", ["textPath": "formatMarked", "readOnly": "#true"]),
            cell("switch", ["onPath": "!marked", "readOnly": "#true"]),
        ]) == [])
    }

    @Test func aListRowCellIsSetInTheListsEditMode() throws {
        func found(edit: String) throws -> [String] {
            let f = try ShopFixture()
            try f.start(books: ["Dune"])
            let shell = AppShell(engine: f.engine)
            var books = ListDeclaration(id: "books")
            books.dataPath = "books"
            books.edit = edit
            books.cell = CellDeclaration(kind: "text", properties: ["path": "name", "textPath": "formatMarked"])
            try shell.declare(books)
            try shell.start(home: ["books"])
            return shell.checkReport(entryPoints: AppEntryPoints(home: ["books"]), thorough: true).issues.map(\.property)
        }
        #expect(try found(edit: "#true") == ["cell.textPath"])
        #expect(try found(edit: "#false") == [])
    }

    @Test func theAppsOwnCheckLeavesThemToCheck() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let shell = AppShell(engine: f.engine)
        var book = DetailDeclaration(id: "book")
        book.type = "Book"
        book.sections = [SectionDeclaration(cells: [cell("date", ["datePath": "name"]), cell("text", ["textPath": "formatMarked"])])]
        try shell.declare(book)
        try shell.start(home: ["book"])
        #expect(shell.check().isEmpty, "the app runs; okit-run check names them")
    }

    @Test func everyBuiltInFunctionHasItsNumberOfArguments() throws {
        let engine = try ShopFixture().engine
        for type in ["number", "string", "date", "collection", "any"] {
            let registered = Set(engine.extensions.namesRegistered(at: type))
            #expect(registered == Set(BindingChecker.builtinParameterCounts[type]?.keys.map { $0 } ?? []), "\(type)")
        }
    }
}
