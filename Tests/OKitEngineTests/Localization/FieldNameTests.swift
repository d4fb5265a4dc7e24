import Testing
@testable import OKitEngine

/// A field is named one way in the add prompt's message, its placeholder and a refusal (the tester's labels app:
/// `ShelfCode`, `shelfCode` and `Shelf code` in one prompt): its `label`, else its name in the app's strings, else
/// the label derived from its name (`shelfCode` → `Shelf code`) looked up in the strings — inside the prompt's
/// sentence a derived one starts in lower case, as OKit's `Enter name for this Book`. The type is looked up too.
@Suite struct FieldNameTests {
    static func library(language: String, strings: [String: String] = [:], label: String? = nil) throws -> AppSession {
        let session = AppSession()
        let engine = session.engine
        try engine.schema.entity("Book", fields: [FieldSpec("shelfCode", .string, rules: FieldRules(required: true, label: label)),
                                                  FieldSpec("pageCount", .int, rules: FieldRules(min: 1))])
        try engine.schema.entity("Library", fields: [try FieldSpec("books", "[Book]")])
        try engine.schema.validate()
        _ = try engine.register(model: "default", type: "Library", storage: TransientStorage())
        engine.strings.add(language: language, strings: strings)
        engine.locale.language = language
        var books = ListDeclaration(id: "books")
        books.type = "Book"
        books.dataPath = "books"; books.cellPath = "shelfCode"; books.addName = "shelfCode"
        try session.shell.declare(books)
        try session.start(home: ["books"], menu: nil)
        return session
    }

    /// The prompt's message and placeholder, and the message of a blank name.
    static func prompt(_ session: AppSession) throws -> (message: String?, placeholder: String?, refusal: String) {
        try session.shell.add()
        let alert = try #require(try session.shell.snapshot().alert)
        try session.shell.respond("Cancel")
        var refusal = ""
        do { try session.shell.add(text: " ") } catch { refusal = "\(error)" }
        return (alert.message, alert.fields.first?.placeholder, refusal)
    }

    static let spanish = ["Enter %@ for this %@": "Escribe %1$@ para este %2$@", "%@ is required": "%@ es obligatorio",
                          "%@ must be at least %@": "%@ debe ser al menos %@"]

    @Test func aFieldWithoutALabelIsNamedByTheLabelItsNameGives() throws {
        let p = try Self.prompt(try Self.library(language: "es", strings: Self.spanish))
        #expect(p.message == "Escribe shelf code para este Book")
        #expect(p.placeholder == "Shelf code")
        #expect(p.refusal == "Shelf code es obligatorio")
        let en = try Self.prompt(try Self.library(language: "en"))
        #expect(en.message == "Enter shelf code for this Book" && en.placeholder == "Shelf code" && en.refusal == "Shelf code is required")
    }

    @Test func theAppsStringsNameTheFieldAndTheTypeEverywhere() throws {
        let strings = Self.spanish.merging(["Shelf code": "Signatura", "Book": "Libro"]) { $1 }
        let p = try Self.prompt(try Self.library(language: "es", strings: strings))
        #expect(p.message == "Escribe Signatura para este Libro")
        #expect(p.placeholder == "Signatura" && p.refusal == "Signatura es obligatorio")
        // The field's own name as the key, as OKit looks up addName, names it in the rule's message too.
        let byName = try Self.prompt(try Self.library(language: "es", strings: Self.spanish.merging(["shelfCode": "Código"]) { $1 }))
        #expect(byName.message == "Escribe Código para este Book" && byName.placeholder == "Código" && byName.refusal == "Código es obligatorio")
    }

    @Test func aLabelIsTheNameEverywhere() throws {
        let strings = Self.spanish.merging(["Code": "Código de estante"]) { $1 }
        let p = try Self.prompt(try Self.library(language: "es", strings: strings, label: "Code"))
        #expect(p.message == "Escribe Código de estante para este Book")
        #expect(p.placeholder == "Código de estante" && p.refusal == "Código de estante es obligatorio")
    }

    @Test func everyRuleMessageUsesTheSameName() throws {
        let session = try Self.library(language: "es", strings: Self.spanish.merging(["pageCount": "Páginas"]) { $1 })
        let book = try session.engine.make("Book", ["shelfCode": .string("A1"), "pageCount": .int(3)])
        #expect(try session.engine.invalidMessage(book, "pageCount", .int(0)) == "Páginas debe ser al menos 1")
        #expect(try session.engine.invalidMessage(book, "shelfCode", .string("")) == "Shelf code es obligatorio")
    }
}
