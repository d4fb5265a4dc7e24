import Foundation
import Testing
@testable import OKitEngine
@testable import OKitPostgres

/// The announcement's wire format (storage.md "Shared models on PostgreSQL"): other processes, of this okit and of
/// earlier ones, read it. No database needed.
@Suite struct PostgresAnnouncementFormatTests {
    static let key = PostgresAnnouncementKey(bytes: Array(0..<32))

    static func row(_ key: String, _ values: [RelationalValue]) -> PostgresAnnouncedRow {
        PostgresAnnouncedRow(table: "Book", key: key, read: 41, columns: PostgresAnnouncedRow.fingerprint(["id", "name"]), values: values)
    }

    @Test func everyValueKindReadsBackExactly() throws {
        let values: [RelationalValue] = [
            .null, .int64(0), .int64(-7), .int64(1 << 53), .int64(-(1 << 53)), .int64(Int64.max), .int64(Int64.min),
            .double(0.1), .double(-0.0), .double(5e-324), .double(1.7976931348623157e308), .double(.infinity), .double(-.infinity),
            .double(3), .string(""), .string("a \"quoted\" \\ line\n\t\u{1}"), .string("é ✓ \u{1F4D6}"), .blob(Data()), .blob(Data([0, 255, 10])),
        ]
        let a = PostgresAnnouncement(model: "m", version: 42, from: "p", keys: ["k"], tables: ["Book"], rows: [Self.row("k", values)])
        let text = a.payload(signedWith: Self.key)
        #expect(text.utf8.allSatisfy { $0 < 0x80 })
        let parsed = try #require(PostgresAnnouncement.parse(text))
        #expect(parsed.rows.count == 1)
        #expect(parsed.rows.first?.values == values)
        for (got, want) in zip(parsed.rows[0].values, values) {
            if case .double(let g) = got, case .double(let w) = want { #expect(g.bitPattern == w.bitPattern) }
        }
        #expect(Self.key.signed(parsed))
        // A NaN is carried as a NaN.
        let nan = PostgresAnnouncement(model: "m", version: 1, from: "p", keys: ["k"], rows: [Self.row("k", [.double(.nan)])])
        #expect(PostgresAnnouncement.parse(nan.payload(signedWith: Self.key))?.rows.first?.values.first.map { if case .double(let d) = $0 { d.isNaN } else { false } } == true)
    }

    @Test func anEarlierReaderFindsWhatItReadBefore() throws {
        let a = PostgresAnnouncement(model: "m", version: 42, from: "p", keys: ["dune", "emma"], tables: ["Book"],
                                     rows: [Self.row("dune", [.string("dune"), .string("Dune")])])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(a.payload(signedWith: Self.key).utf8)) as? [String: Any])
        #expect(o["model"] as? String == "m")
        #expect((o["version"] as? NSNumber)?.int64Value == 42)
        #expect(o["keys"] as? [String] == ["dune", "emma"])
        #expect(o["tables"] as? [String] == ["Book"])
        // Without the key, no rows are sent: the payload is what earlier versions sent.
        #expect(a.payload() == "{\"model\":\"m\",\"version\":42,\"from\":\"p\",\"keys\":[\"dune\",\"emma\"],\"tables\":[\"Book\"]}")
    }

    @Test func rowsThatDoNotFitAreLeftOutAndTheirKeysKept() throws {
        let big = Self.row("big", [.string("big"), .string(String(repeating: "x", count: 6900))])
        let small = Self.row("small", [.string("small"), .string("Small")])
        let a = PostgresAnnouncement(model: "m", version: 42, from: "p", keys: ["big", "small"], tables: ["Book"], rows: [big, small])
        let text = a.payload(signedWith: Self.key)
        #expect(text.utf8.count <= PostgresAnnouncement.maxPayload)
        let parsed = try #require(PostgresAnnouncement.parse(text))
        #expect(parsed.keys == ["big", "small"])
        #expect(parsed.rows.map(\.key) == ["small"])
        #expect(Self.key.signed(parsed))
        // None fits: no rows, no signature.
        let none = try #require(PostgresAnnouncement.parse(PostgresAnnouncement(model: "m", version: 42, from: "p", keys: ["big"], rows: [big]).payload(signedWith: Self.key)))
        #expect(none.rows.isEmpty && none.signature == nil && none.keys == ["big"])
    }

    @Test func aChangedPayloadOrAnotherKeyDoesNotVerify() throws {
        let a = PostgresAnnouncement(model: "m", version: 42, from: "p", keys: ["dune"], rows: [Self.row("dune", [.string("dune"), .string("Dune")])])
        let text = a.payload(signedWith: Self.key)
        #expect(!PostgresAnnouncementKey(bytes: Array(repeating: 1, count: 32)).signed(try #require(PostgresAnnouncement.parse(text))))
        let changed = try #require(PostgresAnnouncement.parse(text.replacingOccurrences(of: "\"Dune\"", with: "\"Evil\"")))
        #expect(changed.rows.first?.values.last == .string("Evil"))
        #expect(!Self.key.signed(changed))
    }

    @Test func payloadsOfEarlierVersionsAndBrokenOnesReadAsBefore() throws {
        // An earlier okit's: no tables, no rows; keys null means "read everything newer".
        let old = try #require(PostgresAnnouncement.parse("{\"model\":\"m\",\"version\":7,\"from\":\"p\",\"keys\":null}"))
        #expect(old == PostgresAnnouncement(model: "m", version: 7, from: "p", keys: nil))
        let listed = try #require(PostgresAnnouncement.parse("{\"model\":\"m\",\"version\":7.0,\"keys\":[\"a\",\"b\"]}"))
        #expect(listed.version == 7 && listed.from == "" && listed.keys == ["a", "b"] && listed.tables == nil)
        // A list with something else than texts is no list of keys (everything newer is read).
        #expect(PostgresAnnouncement.parse("{\"model\":\"m\",\"version\":7,\"keys\":[\"a\",1]}")?.keys == nil)
        // Not an announcement at all: not JSON, not an object, no model, a version that is no number.
        for text in ["", "nope", "[1]", "{\"version\":7}", "{\"model\":\"m\",\"version\":\"7\"}", "{\"model\":\"m\",\"version\":nan}",
                     "{\"model\":\"m\",\"version\":7} trailing"] {
            #expect(PostgresAnnouncement.parse(text) == nil, "\(text)")
        }
        // Rows of which one does not read are not used (their keys are read instead), and neither is a signature.
        let a = PostgresAnnouncement(model: "m", version: 42, from: "p", keys: ["dune"], rows: [Self.row("dune", [.string("dune"), .string("Dune")])])
        let broken = a.payload(signedWith: Self.key).replacingOccurrences(of: "\"read\":41", with: "\"read\":true")
        let parsed = try #require(PostgresAnnouncement.parse(broken))
        #expect(parsed.rows.isEmpty && parsed.signature == nil && parsed.keys == ["dune"])
    }
}
