import Foundation
import Testing
@testable import OKitEngine

/// OKit localizes the add prompt's interpolated texts (`"New \(typeName)".localized`, `"Enter \(addName) for this
/// \(typeName)".localized`), so an OKit app's strings have the keys `"New Pet"` and `"Enter name for this Pet"`:
/// such a key wins over okit's built-in words (found by an OKit porter; lua-api.md "Built-in words").
@Suite struct AddPromptKeysTests {
    @Test func anOKitAppsWholeTextKeysNameTheAddPrompt() throws {
        let german = try BuiltInWordsTests.clinic(language: "de", strings: ["New Pet": "Neues Tier", "Enter name for this Pet": "Wie heißt das Tier?"])
        try german.shell.add()
        let alert = try #require(try german.shell.snapshot().alert)
        #expect(alert.title == "Neues Tier" && alert.message == "Wie heißt das Tier?", "\(alert)")
        let english = try BuiltInWordsTests.clinic(language: "en", strings: ["New Pet": "Add a pet"])
        try english.shell.add()
        let prompt = try #require(try english.shell.snapshot().alert)
        #expect(prompt.title == "Add a pet" && prompt.message == "Enter name for this Pet", "\(prompt)")
        let plain = try BuiltInWordsTests.clinic(language: "de", strings: ["Pet": "Tier"])
        try plain.shell.add()
        #expect(try plain.shell.snapshot().alert?.title == "Neu: Tier", "without such a key okit's own words, as before")
    }
}
