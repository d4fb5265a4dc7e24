import Testing
@testable import OKitEngine

/// Did-you-mean compares short names only (issue 34, item 8): an edit distance costs the product of the lengths, so
/// a megabyte of garbage compared with every known name took seconds per command.
@Suite struct NameSuggestionTests {
    @Test func closeNamesAreSuggested() {
        #expect(NameSuggestion.closest(to: "nmae", in: ["name", "date"]) == "name")
        #expect(NameSuggestion.hint(for: "bok", in: ["book", "books"]) == " (did you mean \"book\"?)")
        #expect(NameSuggestion.closest(to: "zzzz", in: ["name"]) == nil)
    }

    /// A short name is not "close" to an unrelated short name as many edits away as it is long (`nm` → `eq`, which
    /// `check` suggested for a misspelt field); a name whose letters the suggestion keeps in order still is.
    @Test func aShortNameGetsNoUnrelatedSuggestion() {
        #expect(NameSuggestion.closest(to: "nm", in: ["eq", "ax"]) == nil)
        #expect(NameSuggestion.closest(to: "nm", in: ["eq", "name"]) == "name")
        #expect(NameSuggestion.closest(to: "ab", in: ["xy"]) == nil)
        #expect(NameSuggestion.closest(to: "nam", in: ["name", "eq"]) == "name")
    }

    @Test func namesLongerThanTheLimitAreNotCompared() {
        let long = String(repeating: "n", count: NameSuggestion.maxLength) + "ame"
        #expect(NameSuggestion.closest(to: long, in: [long + "x"]) == nil)
        #expect(NameSuggestion.closest(to: "name", in: [long, "nome"]) == "nome", "a long known name is skipped")
        // A megabyte name (unbounded: 10^6 × 4 cells per known name) is answered at once, with nothing.
        #expect(NameSuggestion.closest(to: String(repeating: "é", count: 1_000_000), in: ["name", "date"]) == nil)
        let atLimit = String(repeating: "é", count: NameSuggestion.maxLength)
        #expect(NameSuggestion.comparable(atLimit), "64 characters in 128 bytes are compared")
        #expect(NameSuggestion.closest(to: atLimit, in: [String(atLimit.dropLast()) + "e"]) != nil)
    }
}
