import Foundation
import Testing
@testable import OKitEngine

/// Detail cells on text fields, converted as Action Data converts them (issue 36 item 12;
/// reference/action-data-binding.txt): a text picker over `optionValues`, a segment selected `byTitle`, an image
/// held as base64 text, a switch on a text of `yes`/`no` words.
@Suite struct ActionDataConversionTests {
    let setup = DetailCellBehaviourTests()

    func cell(_ kind: String, _ properties: [String: String]) -> CellDeclaration {
        CellDeclaration(kind: kind, properties: properties)
    }

    // MARK: Text picker

    @Test func aTextPickerOffersItsTextsAndStoresTheChosenOne() throws {
        let (f, s) = try setup.screen([cell("picker", ["path": "%Kind", "optionValues": "Dog, Cat,Bird", "selectionPath": "comment"])])
        try s.setEditing(true)
        var c = try #require(try setup.rows(s)[0].control)
        #expect(c.options == ["Dog", "Cat", "Bird"] && c.selected == nil && c.value == .null)
        try s.set(cell: .key("Kind"), value: .string("Cat"))
        #expect(f.book(0)["comment"]?.description == "Cat")
        let row = try setup.rows(s)[0]
        c = try #require(row.control)
        #expect(c.selected == 2 && c.value == .string("Cat") && row.detail == "Cat")
        try s.set(cell: .key("Kind"), value: .int(3))
        #expect(f.book(0)["comment"]?.description == "Bird")
        #expect(throws: ShellError.self) { try s.set(cell: .key("Kind"), value: .string("Fish")) }
        #expect(throws: ShellError.self) { try s.set(cell: .key("Kind"), value: .int(4)) }
        #expect(f.book(0)["comment"]?.description == "Bird", "nothing changed")
    }

    @Test func plainTextsShowInTheAppsLanguageAndAreStoredAsWritten() throws {
        let (f, s) = try setup.screen([cell("picker", ["path": "%Kind", "optionValues": "Dog,Cat", "selectionPath": "comment"])])
        f.engine.strings.add(language: "de", strings: ["Dog": "Hund", "Cat": "Katze"])
        f.engine.locale.language = "de"
        try s.setEditing(true)
        #expect(try setup.rows(s)[0].control?.options == ["Hund", "Katze"])
        try s.set(cell: .key("Kind"), value: .string("Katze"))
        #expect(f.book(0)["comment"]?.description == "Cat")
        #expect(try setup.rows(s)[0].detail == "Katze")
    }

    @Test func plainTextsMayHoldSpacesAndDashes() throws {
        let (f, s) = try setup.screen([cell("picker", ["path": "%Kind", "optionValues": "Golden Retriever, Cat-Dog", "selectionPath": "comment"])])
        try s.setEditing(true)
        #expect(try setup.rows(s)[0].control?.options == ["Golden Retriever", "Cat-Dog"])
        try s.set(cell: .key("Kind"), value: .string("Golden Retriever"))
        #expect(f.book(0)["comment"]?.description == "Golden Retriever")
    }

    @Test func boundOptionValuesAreReadLikeSegments() throws {
        let (f, s) = try setup.screen([cell("picker", ["path": "%Kind", "optionValues": "#Dog,name", "selectionPath": "comment"])])
        try s.setEditing(true)
        #expect(try setup.rows(s)[0].control?.options == ["Dog", "Dune"])
        try s.set(cell: .key("Kind"), value: .string("Dune"))
        #expect(f.book(0)["comment"]?.description == "Dune")
    }

    @Test func aTextNotAmongTheOptionsIsShownAsItIs() throws {
        let (f, s) = try setup.screen([cell("picker", ["path": "%Kind", "optionValues": "Dog,Cat", "selectionPath": "comment"])])
        try f.engine.set(f.book(0), "comment", .string("Horse"))
        let row = try setup.rows(s)[0]
        #expect(row.control?.selected == nil && row.control?.value == .string("Horse") && row.detail == "Horse")
    }

    // MARK: Segment by title

    @Test func aSegmentByTitleSelectsAndStoresTheTitle() throws {
        let (f, s) = try setup.screen([cell("segment", ["path": "%Size", "segmentsPath": "#Small,#Large", "selectIndexPath": "comment",
                                                        "byTitle": "#true"])])
        try f.engine.set(f.book(0), "comment", .string("Large"))
        try s.setEditing(true)
        #expect(try setup.rows(s)[0].control?.index == 1)
        try s.set(cell: .key("Size"), value: .int(0))
        #expect(f.book(0)["comment"]?.description == "Small")
        try s.set(cell: .key("Size"), value: .string("Large"))
        #expect(f.book(0)["comment"]?.description == "Large")
        #expect(try setup.rows(s)[0].control?.value == .string("Large"))
        #expect(throws: ShellError.self) { try s.set(cell: .key("Size"), value: .int(2)) }
        try f.engine.set(f.book(0), "comment", .string("Medium"))
        #expect(try setup.rows(s)[0].control?.index == nil)
    }

    // MARK: Base64 image

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 60)

    @Test func anImageHeldAsBase64IsDecoded() throws {
        let (f, s) = try setup.screen([cell("image", ["path": "%Photo", "imagePath": "comment"]),
                                       cell("table", ["path": "%Icon", "imagePath": "comment"])])
        let text = Data(Self.png).base64EncodedString()
        try f.engine.set(f.book(0), "comment", .string(text))
        var rows = try setup.rows(s)
        #expect(rows[0].control?.value == .string("image/png, 68 bytes"))
        #expect(rows[1].image == "image/png, 68 bytes")
        #expect(try Base64Image.bytes(of: .string(text)) == Self.png)
        try f.engine.set(f.book(0), "comment", .string("data:image/png;base64," + text))
        rows = try setup.rows(s)
        #expect(rows[0].control?.value == .string("image/png, 68 bytes"))
        try f.engine.set(f.book(0), "comment", .string("Person"))
        #expect(try setup.rows(s)[0].control?.value == .string("Person"), "a short text is an image's name")
        #expect(f.engine.warnings.isEmpty)
    }

    @Test func base64OfNoImageShowsNothingAndWarns() throws {
        let (f, s) = try setup.screen([cell("image", ["path": "%Photo", "imagePath": "comment"])])
        try f.engine.set(f.book(0), "comment", .string("data:image/png;base64,@@not base64@@"))
        #expect(try setup.rows(s)[0].control?.value == .null)
        #expect(f.engine.warnings.contains { $0.contains("cell \"Photo\"") && $0.contains("not valid base64") })
        try f.engine.set(f.book(0), "comment", .string(String(repeating: "QUJD", count: 20)))
        #expect(try setup.rows(s)[0].control?.value == .null)
        #expect(f.engine.warnings.contains { $0.contains("no image format") })
        #expect(throws: Base64ImageError.self) { try Base64Image.bytes(of: .string("data:text/plain,hello")) }
    }

    // MARK: Switch on a text

    @Test func aSwitchReadsTheWordsOfATextField() throws {
        let (f, s) = try setup.screen([cell("switch", ["path": "%Signed", "onPath": "comment"])])
        for (text, on) in [("yes", true), ("YES", true), ("1", true), ("true", true), ("On", true), ("no", false), ("nope", false), ("", false)] {
            try f.engine.set(f.book(0), "comment", .string(text))
            #expect(try setup.rows(s)[0].control?.value == .bool(on), "\(text)")
        }
    }

    @Test func aSwitchWritesTheFieldsOwnWords() throws {
        let (f, s) = try setup.screen([cell("switch", ["path": "%Signed", "onPath": "comment"])])
        try s.setEditing(true)
        for (before, on, after) in [("no", true, "yes"), ("Yes", false, "No"), ("0", true, "1"), ("off", true, "on"),
                                    ("FALSE", true, "TRUE"), ("maybe", true, "true")] {
            try f.engine.set(f.book(0), "comment", .string(before))
            try s.set(cell: .key("Signed"), value: .bool(on))
            #expect(f.book(0)["comment"]?.description == after, "\(before)")
        }
        try f.engine.set(f.book(0), "comment", .null)
        try s.set(cell: .key("Signed"), value: .bool(true))
        #expect(f.book(0)["comment"]?.description == "true", "an empty text field gets Action Data's words")
    }
}
