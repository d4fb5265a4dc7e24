import Foundation
import Testing
@testable import OKitEngine

/// The one writer of okit's `.jsonl` records (conflicts and refused values).
struct JSONLineTests {
    @Test func membersAreQuotedOrWrittenAsGivenInOrder() {
        var line = JSONLine()
        line.member("id", text: "a \"b\"\n")
        line.member("value", json: "[1,2]")
        line.member("source", text: nil)
        #expect(line.text == #"{"id":"a \"b\"\n","value":[1,2],"source":null}"#)
    }

    @Test func aLineWithoutMembersIsAnEmptyObject() {
        #expect(JSONLine().text == "{}")
    }

    @Test func aConflictRecordIsOneLineWithItsValuesAsJSON() {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let c = ConflictRecord(time: time, model: "m", type: "Book", id: "b1", field: "name",
                               base: #""x""#, theirs: "null", mine: "3")
        let expected = #"{"time":""# + ISODate.format(time) + #"","model":"m","type":"Book","id":"b1","field":"name","base":"x","theirs":null,"mine":3}"#
        #expect(c.jsonLine == expected)
    }
}
