import Foundation
import Testing
@testable import OKitEngine

@Suite struct JSONWriterTests {
    let f: ReaderFixture
    init() throws { f = try ReaderFixture() }

    func text(_ e: Entity) -> String { String(decoding: JSONWriter.entityJSON(e), as: UTF8.self) }

    /// A book with one field set, written, then read back.
    func roundTrip(_ field: String, _ v: Value) throws -> (json: String, back: Value) {
        let book = try f.engine.make("Book", ["id": .string("B")])
        try f.engine.set(book, field, v)
        let json = text(book)
        let back = try f.read(#"{"books":["# + json + "]}").book(0)[field]!
        return (json, back)
    }

    @Test func documentsAreCompactWithTheHeaderFirstAndUnknownFieldsLast() throws {
        let r = try f.read(#"""
        { "okit" : {"version":1, "type":"Lib", "future": [1, 2]}, "zeta" : {"a": [1, 2]},
          "name": "L", "id": "R", "books": [ {"id": "B", "name": "D", "new": true, "count": 2} ] }
        """#)
        var w = JSONWriter()
        w.document(r.root, type: "Lib", version: 2, generation: 5, headerExtras: r.headerExtras)
        let out = String(decoding: w.bytes, as: UTF8.self)
        #expect(out.hasPrefix(#"{"okit":{"version":2,"type":"Lib","gen":5,"future":[1, 2]},"id":"R","name":"L","books":[{"id":"B","name":"D","count":2,"#))
        #expect(out.hasSuffix(#""new":true}],"zeta":{"a": [1, 2]}}"#), "unknown fields verbatim, after the known ones")
        #expect(!out.contains("\n"))
        // What is written reads back to the same document.
        let again = try f.read(out)
        var w2 = JSONWriter()
        w2.document(again.root, type: "Lib", version: 2, generation: 5, headerExtras: again.headerExtras)
        #expect(w2.bytes == w.bytes)
    }

    @Test func fieldsGoInSlotOrderAndNilsAreOmitted() throws {
        let book = try f.engine.make("Book", ["id": .string("B"), "name": .string("D"), "date": .date(Date(timeIntervalSince1970: 0))])
        #expect(text(book) == #"{"id":"B","name":"D","count":0,"price":0.0,"marked":false,"date":"1970-01-01T00:00:00Z","kind":"paper","author":{"id":"#
            + "\"\(book["author"]!.entity!.id!)\"" + #"},"authors":[],"tags":[],"favs":[],"scores":{}}"#)
    }

    @Test func aNilOverANonNilDefaultIsWrittenAsNull() throws {
        let (json, back) = try roundTrip("kind", .null)
        #expect(json.contains(#""kind":null"#))
        #expect(back.isNull, "reads back as nil, not as the default")
        let (json2, back2) = try roundTrip("note", .null)
        #expect(!json2.contains("note") && back2.isNull)
    }

    @Test func doublesAreShortestRoundTrip() throws {
        let cases: [(Double, String)] = [(0.1, "0.1"), (12, "12.0"), (-3, "-3.0"), (0, "0.0"), (1e300, "1e+300"),
                                         (5e-324, "5e-324"), (0.30000000000000004, "0.30000000000000004"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
                                         (123456.789, "123456.789"), (.greatestFiniteMagnitude, "1.7976931348623157e+308")]
        for (d, expected) in cases {
            let (json, back) = try roundTrip("price", .double(d))
            #expect(json.contains(#""price":\#(expected),"#), "\(d)")
            guard case .double(let b) = back else { Issue.record("\(d) read back as \(back)"); continue }
            #expect(b.bitPattern == d.bitPattern, "\(d)")
        }
        var w = JSONWriter()
        w.value(.double(-0.0))
        #expect(String(decoding: w.bytes, as: UTF8.self) == "-0.0")
        guard case .double(let negativeZero) = try f.field("price", "-0.0") else { Issue.record("-0.0"); return }
        #expect(negativeZero.sign == .minus)
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let (_, back) = try roundTrip("price", .double(d))
            guard case .double(let b) = back else { Issue.record("\(d)"); continue }
            #expect(b.bitPattern == d.bitPattern, "\(d)")
        }
    }

    /// Decimals of up to six fraction digits take a path that writes them without a String: what it writes is
    /// what `description` writes, and reads back to the same bits.
    @Test func fewDecimalsAreWrittenAsDescriptionWrites() throws {
        var rng = SplitMix64(seed: 11)
        var cases: [Double] = [0.001, 0.5, 73.1, 2.66, 999_999_999.5, 0.000999, 1e9 + 0.5, 0.1 + 0.2, -42.84, 1.000001, 123.456789]
        for _ in 0..<20_000 {
            let digits = Int(rng.next() % 7)
            let scale = [1.0, 10, 100, 1_000, 10_000, 100_000, 1_000_000][digits]
            let whole = Double(rng.next() % 2_000_000_000) / 2
            let d = (whole * scale + Double(rng.next() % UInt64(scale))) / scale
            cases.append(rng.next() % 2 == 0 ? d : -d)
        }
        for d in cases where d != d.rounded() {
            var w = JSONWriter()
            w.value(.double(d))
            let json = String(decoding: w.bytes, as: UTF8.self)
            #expect(json == d.description, "\(d)")
            #expect(Double(json)?.bitPattern == d.bitPattern, "\(d)")
        }
    }

    @Test func intsRoundTrip() throws {
        for v in [0, 7, -1, 10, 1_000_000_007, Int.max, Int.min, Int.min + 1, -9_007_199_254_740_993] {
            let (json, back) = try roundTrip("count", .int(v))
            #expect(json.contains(#""count":\#(v),"#))
            #expect(back.isSame(as: .int(v)))
        }
    }

    @Test func stringsAreEscapedAndNonASCIIStaysRaw() throws {
        let s = "q\"b\\s/\n\r\t\u{1}\u{1F}é✓😀\u{2028}end"
        let (json, back) = try roundTrip("name", .string(s))
        #expect(json.contains(#""name":"q\"b\\s/\n\r\t\u0001\u001fé✓😀"# + "\u{2028}end\""))
        #expect(back.isSame(as: .string(s)))
    }

    @Test func datesAreUTCWithTheFewestExactFractionDigits() throws {
        let cases: [(Double, String)] = [(1_556_704_800, "2019-05-01T10:00:00Z"), (1_556_704_800.5, "2019-05-01T10:00:00.5Z"),
                                         (1_556_704_800.123456, "2019-05-01T10:00:00.123456Z"), (-1, "1969-12-31T23:59:59Z")]
        for (secs, expected) in cases {
            let (json, back) = try roundTrip("date", .date(Date(timeIntervalSince1970: secs)))
            #expect(json.contains(#""date":"\#(expected)""#))
            #expect(back.isSame(as: .date(Date(timeIntervalSince1970: secs))))
        }
        // Any date a clock or a parser makes comes back as the same Date (not one ulp off).
        var rng = SplitMix64(seed: 8)
        for k in 0..<3000 {
            let whole = Double(Int(rng.next() % 8_000_000_000) - 4_000_000_000)
            let date: Date
            switch k % 3 {
            case 0: date = Date(timeIntervalSince1970: whole + Double(rng.next() % 1_000_000) / 1e6)
            case 1: date = Date(timeIntervalSinceReferenceDate: whole + Double(rng.next() % 1_000_000_000) / 1e9)
            default: date = Date(timeIntervalSinceReferenceDate: whole / 3 + Double(rng.next() % 1000) / 1e3)
            }
            let (_, back) = try roundTrip("date", .date(date))
            guard case .date(let d) = back else { Issue.record("\(back)"); continue }
            #expect(d == date, "\(date.timeIntervalSinceReferenceDate)")
        }
        // Dates beyond ISO's reach (read from a file: code cannot write them, ISODate.isInRange) are written as OKit
        // numbers and come back; so is one past the years the ISO text holds (-1e15 came back as another instant).
        for far in [1e300, -1e20, -1e15] {
            let json = text(try f.read(#"{"books":[{"id":"B","date":"# + "\(far)" + "}]}").book(0))
            let back = try f.read(#"{"books":["# + json + "]}").book(0)["date"]!
            #expect(back.isSame(as: .date(Date(timeIntervalSinceReferenceDate: far))), "\(json)")
        }
        // Written text comes back as the same text.
        for written in ["2019-05-01T10:00:00.123456Z", "1900-02-28T23:59:59.999Z", "2100-01-01T00:00:00.000001Z", "-0044-03-15T12:00:00Z", "12019-01-01T00:00:00Z"] {
            let json = text(try f.read(#"{"books":[{"id":"B","date":""# + written + #""}]}"#).book(0))
            #expect(json.contains(#""date":"\#(written)""#))
        }
    }

    @Test func refsCollectionsMapsAndBinariesRoundTrip() throws {
        let source = #"{"id":"B","name":"","count":0,"price":0.0,"marked":false,"date":"2019-05-01T10:00:00Z","kind":"paper","author":{"id":"R","refKey":"A1"},"authors":[{"id":"A1","name":"F"}],"tags":["x","y"],"favs":[{"id":"A2","name":"G"}],"scores":{"z":1,"a":-2},"cover":{"id":"I","format":"png","label":"c","size":3,"sha256":"ab"},"blob":{"id":"L","format":"","label":"","size":3,"data":"AQID"},"main":{"id":"M","name":"N"}}"#
        let book = try f.read(#"{"books":["# + source + "]}").book(0)
        #expect(text(book) == source)
    }
}
