import Testing
@testable import OKitEngine

/// Edge cases: `LocaleDecimalText` reads one number in the locale's separators, and nothing else.
@Suite struct LocaleDecimalTextTests {
    @Test(arguments: [
        ("12345,678", ".", ","),                        // a first group of 5 digits
        ("1234,567,890", ".", ","),
        ("12345.678", ",", "."),
        ("1 2 3", ".", ","),                            // spaces between digits group them, in threes
        ("12 5", ".", ","),
        ("1 234,5 6", ",", "."),                        // a space inside the fraction
        (String(repeating: "9", count: 400), ".", ","), // not a finite double
    ])
    func garbageIsNil(_ text: String, _ decimal: String, _ grouping: String) {
        #expect(LocaleDecimalText.parse(text, decimal: decimal, grouping: grouping) == nil, "\(text)")
    }

    @Test(arguments: [
        ("123,456", ".", ",", 123456.0),
        ("1 234 567,5", ",", "\u{202F}", 1234567.5),
        ("1\u{A0}234,5", ",", ".", 1234.5),
        (" - 12,5 ", ",", ".", -12.5),
        ("1. 234", ",", ".", 1234.0),
        ("12,34,567", ".", ",", 1234567.0),
    ])
    func numbersStillRead(_ text: String, _ decimal: String, _ grouping: String, _ expected: Double) {
        #expect(LocaleDecimalText.parse(text, decimal: decimal, grouping: grouping) == expected, "\(text)")
    }
}
