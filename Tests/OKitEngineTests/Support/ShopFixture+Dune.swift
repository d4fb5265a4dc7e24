@testable import OKitEngine

/// The shop with one book, Dune, whose price the locale read-back tests write through a format and read back
/// (LocaleParseBackTests, LocaleParseBackRefusalTests).
extension ShopFixture {
    static func withDune() throws -> ShopFixture {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        return f
    }

    /// The stored price of the book at `i`.
    func price(_ i: Int = 0) -> Value { book(i)["price"] ?? .null }
}
