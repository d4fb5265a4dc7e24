import Foundation
import Testing
import OKitEngine

/// A front end of its own (LineFrontEnd/) drives a session: on the engine's executor, commands through a driver
/// per person, snapshots in the neutral encoded form, written out without naming a field — the counter's section
/// too. docs/engine.md "Where to put a new front end" walks through it.
@Suite struct LineFrontEndTests {
    @Test func aFrontEndOfItsOwnDrivesASession() async throws {
        let front = LineFrontEnd()
        try await front.load { try Fixture.session() }
        let counted = try await front.send("ann", "bump", ["by": "2"])
        #expect(counted.contains("screen.kind = \"counter\""))
        #expect(counted.contains("screen.counter.value = 2"))
        _ = try await front.send("ann", "tab", ["id": "books"])
        let added = try await front.send("ann", "add", ["text": "Dune"])
        #expect(added.contains("screen.sections[0].rows[0].text = \"Dune\""))
        #expect(added.contains("app.tab = \"books\""))
        // Another person: a shell of their own over the same models.
        let bob = try await front.send("bob", "screen")
        #expect(bob.contains("app.tab = \"tally\"") && bob.contains("screen.counter.value = 2"))
        await #expect(throws: Error.self) { try await front.send("bob", "tap", ["row": "1"]) }
        try await front.stop()
    }

    /// The neutral form has every key of the JSON, in order: a tree written as JSON is the snapshot's JSON.
    @Test func theTreeIsTheJSONsOneDescription() throws {
        let session = try Fixture.session()
        try session.driver.run("bump", [:])
        for id in ["tally", "books"] {
            try session.driver.run("tab", ["id": .string(id)])
            if id == "books" { try session.driver.run("add", ["text": .string("Emma")]) }
            let snapshot = try session.shell.snapshot()
            #expect(Self.json(snapshot.tree) == snapshot.json)
        }
    }

    static func json(_ tree: JSONTree) -> String {
        switch tree {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return Value.displayDouble(d)
        case .string(let s): return JSONText.quoted(s)
        case .array(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { JSONText.quoted($0.key) + ":" + json($0.value) }.joined(separator: ",") + "}"
        }
    }
}
