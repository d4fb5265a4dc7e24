import Foundation
import Testing
@testable import OKitEngine

/// Writing through a mask (bindings.md "Writing through a mask", issue 36 item 3): the text a person types into a
/// cell shown through `mask(…)` is stored as the characters the mask's placeholders take, or refused, never
/// answered ok with nothing changed.
@Suite struct MaskWriteBackTests {
    let f: ShopFixture
    static let phone = "name/mask('(###) ###-####')"

    init() throws { f = try .withDune() }

    func name() -> Value { f.book(0)["name"] ?? .null }

    @Test(arguments: ["111-222-3333", "(111) 222-3333", "1112223333", "111.222.3333", " 111 222 3333 ", "(111)222-3333"])
    func aPhoneTypedAnyWayIsStoredAsItsDigits(_ typed: String) throws {
        try f.engine.set(f.book(0), binding: Self.phone, .string(typed))
        #expect(name().description == "1112223333", "\(typed)")
        #expect(try f.engine.text(f.book(0), Self.phone) == "(111) 222-3333")
    }

    @Test(arguments: [
        ("111-abc-3333", "\"111-abc-3333\" does not fit the mask (###) ###-####: \"a\" is where the mask takes a digit"),
        ("111-222-33334", "\"111-222-33334\" does not fit the mask (###) ###-####: \"4\" is more than the mask takes"),
        ("+1 111 222 3333", "\"+1 111 222 3333\" does not fit the mask (###) ###-####: \"3\" is more than the mask takes"),
    ])
    func textThatDoesNotFitIsRefusedAndNothingChanges(_ typed: String, _ reason: String) throws {
        do {
            try f.engine.set(f.book(0), binding: Self.phone, .string(typed))
            Issue.record("\(typed) was taken")
        } catch let error as BindingWriteError {
            #expect(error.description == "binding \"\(Self.phone)\": \(reason)")
        }
        #expect(name().description == "Dune")
    }

    @Test func letterPlaceholdersKeepTheCaseTheyShow() throws {
        try f.engine.set(f.book(0), binding: "name/mask('XX-000')", .string("ab-123"))
        #expect(name().description == "AB123")
        #expect(try f.engine.text(f.book(0), "name/mask('XX-000')") == "AB-123")
        #expect(throws: BindingWriteError.self) { try f.engine.set(f.book(0), binding: "name/mask('XX-000')", .string("1b-123")) }
        try f.engine.set(f.book(0), binding: "name/mask('__-__')", .string("a--b"))
        #expect(name().description == "a-b", "an any-character placeholder takes a character the mask shows literally")
    }

    @Test func aPartlyTypedValueIsKeptAsFarAsItGoes() throws {
        try f.engine.set(f.book(0), binding: Self.phone, .string("(111) 2"))
        #expect(name().description == "1112")
        try f.engine.set(f.book(0), binding: Self.phone, .string(""))
        #expect(name().description == "")
    }

    @Test func aNilFieldIsWrittenThroughTheMask() throws {
        try f.engine.set(f.book(0), binding: "comment/mask('###-###')", .string("123 456"))
        #expect(f.book(0)["comment"]?.description == "123456")
    }

    @Test func aLuaExtensionReplacingMaskHasNoInverse() throws {
        #expect(f.engine.extensions.parser(type: "string", name: "mask") != nil)
        f.engine.extensions.register("string", "mask") { v, _, _ in v }
        #expect(f.engine.extensions.parser(type: "string", name: "mask") == nil)
        #expect(!f.engine.isReadBackFormat(.call(name: "mask", args: [], index: nil, column: 0)))
    }

    @Test func theDetailCellTakesWhatItShows() throws {
        let target = try f.engine.writeTarget(f.book(0), binding: Self.phone, mode: .query)
        #expect(target?.1 == "name", "rules and validation govern the field before the mask")
        try f.engine.commandSet(f.book(0), binding: Self.phone, .string("808 555 1212"))
        #expect(try f.engine.text(f.book(0), Self.phone) == "(808) 555-1212")
    }
}
