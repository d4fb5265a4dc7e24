import Foundation
import Testing
@testable import OKitEngine

/// `Hex.encode` (one spelling for key ids, signatures, cookies and fingerprints) and the quoting of SQL names.
@Suite struct HexTests {
    @Test func everyByteIsTwoLowerCaseDigitsAsPrintfWritesThem() {
        let all = (0...255).map { UInt8($0) }
        #expect(Hex.encode(all) == all.map { String(format: "%02x", $0) }.joined())
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.encode([0x00, 0x0a, 0xff]) == "000aff")
    }

    @Test func aDigestIsEncodedAsItsBytes() {
        let bytes: [UInt8] = [0xde, 0xad, 0xbe, 0xef]
        #expect(Hex.encode(bytes[...]) == "deadbeef")
        #expect(Hex.encode(Data(bytes)) == "deadbeef")
    }

    @Test func anSQLNameIsQuotedAndItsQuotesDoubled() {
        #expect(RelationalTable.quoted("Book") == "\"Book\"")
        #expect(RelationalTable.quoted("a\"b") == "\"a\"\"b\"")
        #expect(RelationalTable.quoted("\"") == "\"\"\"\"")
        #expect(RelationalTable.quoted("") == "\"\"")
    }
}
