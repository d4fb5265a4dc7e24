import Foundation
import Testing
@testable import OKitEngine

@Suite struct BindingEvaluationTests {
    func fixture() throws -> ShopFixture {
        let f = try ShopFixture()
        try f.start()
        return f
    }

    func get(_ f: ShopFixture, _ ctx: Entity?, _ b: String) throws -> String? {
        try f.engine.get(ctx, b).displayString
    }

    @Test func pathsFieldsAndIndexes() throws {
        let f = try fixture()
        #expect(try get(f, f.book(0), "name") == "Dune")
        #expect(try get(f, f.root, "books[0]/name") == "Dune")
        #expect(try get(f, f.root, "books[-1]/name") == "Anna")
        #expect(try f.engine.get(f.root, "books[9]/name").isNull)
        #expect(try get(f, f.root, "books[1]/authors[0]/name") == "Author of Emma")
        #expect(try get(f, f.root, " books [0] / name ") == "Dune")
        #expect(try get(f, f.root, "books/name") == "Dune, Emma, Anna")
        #expect(try get(f, f.root, "books/authors/name") == "Author of Dune, Author of Emma, Author of Anna")
    }

    @Test func startsAndSteps() throws {
        let f = try fixture()
        let author = try #require(try f.engine.collection(f.book(0), "authors").items.first?.entity)
        #expect(try get(f, f.book(0), "/name") == "Book Shop")
        #expect(try get(f, f.book(0), "directory>/title") == "Directory")
        #expect(try get(f, f.book(0), "directory>title") == "Directory")
        #expect(try get(f, f.book(0), "..") == f.root.debugName)
        #expect(try get(f, author, "../name") == "Dune")
        #expect(try get(f, author, "../../name") == "Book Shop")
        #expect(try get(f, author, "~/name") == "Book Shop")
        #expect(try get(f, author, "</name") == "Book Shop")
        #expect(try get(f, author, "./name") == "Author of Dune")
        #expect(throws: EngineError.self) { try f.engine.get(f.root, "nope>/x") }
        do { _ = try f.engine.get(f.root, "nope>/x") } catch { #expect("\(error)".contains("unknown model \"nope\"")) }
    }

    @Test func aggregates() throws {
        let f = try fixture()
        #expect(try f.engine.get(f.root, "books.@count").isSame(as: .int(3)))
        #expect(try f.engine.get(f.root, "books/@count").isSame(as: .int(3)))
        #expect(try f.engine.get(f.root, "books.@sum.copies").isSame(as: .int(6)))
        #expect(try f.engine.get(f.root, "books/copies/@sum").isSame(as: .int(6)))
        #expect(try f.engine.get(f.root, "books.@avg.copies").isSame(as: .double(2)))
        #expect(try f.engine.get(f.root, "books.@max.price").isSame(as: .double(31.5)))
        #expect(try f.engine.get(f.root, "books.@min.name").isSame(as: .string("Anna")))
        #expect(try get(f, f.root, "books.@first.name") == "Dune")
        #expect(try get(f, f.root, "books.@last.name") == "Anna")
        #expect(try f.engine.get(f.root, "genres.@count").isSame(as: .int(0)))
        #expect(try f.engine.get(f.root, "genres.@sum.x").isSame(as: .int(0)))
        #expect(try f.engine.get(f.root, "genres.@avg.x").isNull)
        #expect(try f.engine.get(f.root, "genres.@max.x").isNull)
        try f.engine.set(f.book(2), "type", .string("1"))
        #expect(try get(f, f.root, "books/type/@distinct") == "0, 1")
        #expect(try f.engine.get(f.root, "books.@sum.price").isSame(as: .double(63)))
    }

    @Test func refsAndIdLookups() throws {
        let f = try fixture()
        let a = try f.engine.make("Author", ["name": .string("Herbert")])
        try f.engine.insert(.entity(a), into: f.engine.collection(f.directory.root, "authors"))
        try f.engine.set(f.book(0), "author", .entity(a))
        #expect(try get(f, f.book(0), "author/ref/name") == "Herbert")
        #expect(try get(f, f.book(0), "$author.refKey/name") == "Herbert")
        #expect(try get(f, f.book(0), "author")?.hasPrefix("Author(") == true, "a ref displays as its target")
        #expect(try f.engine.get(f.book(1), "author/ref/name").isNull, "nil is absorbing")
        #expect(try f.engine.get(f.book(1), "comment/whatever").isNull)
        #expect(try f.engine.get(f.book(1), "$comment/name").isNull)
    }

    @Test func callsMethodsAndExtensions() throws {
        let f = try fixture()
        #expect(try get(f, f.book(0), "label(#!)") == "Dune!")
        #expect(try get(f, f.book(0), "label(#!)[0]") == nil)
        // Arguments are evaluated against the binding's starting context (as in OKit).
        #expect(try get(f, f.root, "books[0]/label(name)") == "DuneBook Shop")
        f.engine.extensions.register("string", "shout") { v, args, _ in
            .string((v.displayString ?? "").uppercased() + (args.first?.displayString ?? "!"))
        }
        f.engine.extensions.register("Book", "twice") { v, _, e in
            .string(String(repeating: try e.read(v.entity!, "name").displayString ?? "", count: 2))
        }
        f.engine.extensions.register("number", "half") { v, _, _ in .double((v.doubleValue ?? 0) / 2) }
        #expect(try get(f, f.book(0), "name/shout") == "DUNE!")
        #expect(try get(f, f.book(0), "name/shout(#?)") == "DUNE?")
        #expect(try get(f, f.book(0), "twice") == "DuneDune")
        #expect(try get(f, f.book(0), "twice()") == "DuneDune")
        #expect(try get(f, f.book(0), "copies/half") == "0.5")
        #expect(try get(f, f.book(0), "formatMarked") == "not marked")
        // A zero-argument method runs as a property (OKit's moreActionsTap = "activate").
        try f.engine.call(f.book(0), "setAsMarked")
        #expect(f.book(0)["marked"]!.truthy)
    }

    @Test func constantsLocalizedNegationAndMultiPart() throws {
        let f = try fixture()
        #expect(try f.engine.get(nil, "#5").isSame(as: .int(5)))
        #expect(try f.engine.get(nil, "#true").isSame(as: .bool(true)))
        #expect(try f.engine.get(nil, "#007").isSame(as: .string("007")))
        #expect(try f.engine.get(nil, "'a, b'").isSame(as: .string("a, b")))
        #expect(try f.engine.get(nil, "%Book").isSame(as: .string("Book")))
        #expect(try f.engine.get(f.book(0), "!marked").isSame(as: .bool(true)))
        #expect(try f.engine.get(f.book(0), "!name").isSame(as: .bool(false)))
        #expect(try f.engine.get(f.book(0), "").isNull)
        #expect(try get(f, f.book(0), "%Price: ,price, %EUR") == "Price: 10.5 EUR")
        #expect(try get(f, f.book(0), "%Note:,comment,#end") == "Note: end")
        let all = try f.engine.getAll(f.book(0), "name,comment,#3")
        #expect(all.count == 3 && all[1].isNull && all[2].isSame(as: .int(3)))
    }

    @Test func displayStrings() throws {
        #expect(Value.double(12.5).displayString == "12.5")
        #expect(Value.double(100).displayString == "100")
        #expect(Value.double(0).displayString == "0")
        #expect(Value.double(0.1).displayString == "0.1")
        #expect(Value.double(1.5e-7).displayString == "0.00000015")
        #expect(Value.double(1.5e20).displayString == "150000000000000000000")
        #expect(Value.int(42).displayString == "42")
        #expect(Value.bool(true).displayString == "true")
        #expect(Value.string("").displayString == nil)
        #expect(Value.date(Date(timeIntervalSince1970: 1_556_704_800)).displayString == "2019-05-01T10:00:00Z")
    }

    @Test func truthiness() {
        #expect(!Value.null.truthy)
        for s in ["", "false", "FALSE", "no", "No", "0"] { #expect(!Value.string(s).truthy, "\(s)") }
        for s in ["x", "true", "00", " "] { #expect(Value.string(s).truthy, "\(s)") }
        #expect(Value.int(2).truthy && !Value.int(0).truthy && !Value.double(0).truthy)
    }

    @Test func writesAreTypeCheckedAndCoerced() throws {
        let f = try fixture()
        let b = f.book(0)
        try f.engine.set(b, "name", .string("Dune II"))
        try f.engine.set(b, "copies", .string("3.7"))
        #expect(b["copies"]!.isSame(as: .int(3)))
        try f.engine.set(b, "copies", .double(-2.9))
        #expect(b["copies"]!.isSame(as: .int(-2)))
        try f.engine.set(b, "price", .string("12.25"))
        #expect(b["price"]!.isSame(as: .double(12.25)))
        try f.engine.set(b, "price", .int(3))
        #expect(b["price"]!.isSame(as: .double(3)))
        try f.engine.set(b, "marked", .string("yes"))
        #expect(b["marked"]!.isSame(as: .bool(true)))
        // The words a switch takes, any case; another word is refused, not read as true.
        for (word, on) in [("On", true), ("off", false), ("Y", true), ("n", false), ("T", true), ("f", false)] {
            try f.engine.set(b, "marked", .string(word))
            #expect(b["marked"]!.isSame(as: .bool(on)), "\(word)")
        }
        #expect(throws: (any Error).self) { try f.engine.set(b, "marked", .string("maybe")) }
        try f.engine.set(b, "name", .int(5))
        #expect(b["name"]!.isSame(as: .string("5")))
        try f.engine.set(b, "date", .string("2020-01-07T10:00:00+01:00"))
        #expect(b["date"]!.isSame(as: .date(Date(timeIntervalSince1970: 1_578_387_600))))
        try f.engine.set(b, "date", .int(0))
        #expect(b["date"]!.isSame(as: .date(Date(timeIntervalSince1970: 0))))
        // Errors name the field and the value, and keep the old value.
        do {
            try f.engine.set(b, "copies", .string("abc"))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "cannot write \"abc\" to field \"copies\" of type int")
        }
        #expect(b["copies"]!.isSame(as: .int(-2)))
        #expect(throws: EngineError.self) { try f.engine.set(b, "marked", .null) }
        #expect(throws: EngineError.self) { try f.engine.set(b, "marked", .string("maybe")) }
        #expect(throws: EngineError.self) { try f.engine.set(b, "date", .string("yesterday")) }
        #expect(throws: EngineError.self) { try f.engine.set(b, "nope", .int(1)) }
        try f.engine.set(b, "comment", .null)
        #expect(b["comment"]!.isNull)
    }

    @Test func setThroughBindings() throws {
        let f = try fixture()
        try f.engine.set(f.root, binding: "books[0]/name", .string("X"))
        #expect(f.book(0)["name"]!.description == "X")
        try f.engine.set(f.root, binding: "books[1]/authors[0]/name", .string("Y"))
        #expect(try get(f, f.root, "books[1]/authors[0]/name") == "Y")
        try f.engine.set(f.book(0), binding: "/name", .string("Shop 2"))
        #expect(f.root["name"]!.description == "Shop 2")
        try f.engine.set(f.book(0), binding: "priceWithTax", .double(24))
        #expect(abs(f.book(0)["price"]!.doubleValue! - 20) < 1e-9)
        try f.engine.set(f.book(0), binding: "notes.review", .string("fine"))
        #expect(try get(f, f.book(0), "notes.review") == "fine")
        for bad in ["#5", "%x", "name,price", "!marked", "books[0]", "name/initial", "books.@count", "/"] {
            #expect(throws: (any Error).self, "\(bad)") { try f.engine.set(f.root, binding: bad, .string("v")) }
        }
        #expect(throws: BindingWriteError.self) { try f.engine.set(f.book(1), binding: "comment/x", .string("v")) }
        // A call on a value computes a value and takes none: its write is refused (it answered ok and wrote nothing).
        for call in ["name/upper()", "price/suffix(#x)", "name/lower()"] {
            #expect(throws: BindingWriteError.self, "\(call)") { try f.engine.set(f.book(0), binding: call, .string("v")) }
        }
        #expect(f.book(0)["name"]!.description == "X")
    }

    @Test func displayBindingsMayNotWrite() throws {
        let f = try fixture()
        #expect(throws: EngineError.self) { try f.engine.get(f.book(0), "setAsMarked()", mode: .display) }
        #expect(!f.book(0)["marked"]!.truthy)
        #expect(try f.engine.get(f.book(0), "setAsMarked()", mode: .query).isNull)
        #expect(f.book(0)["marked"]!.truthy)
    }

    @Test func extensionErrorsAreReportedInDisplayAndThrownOtherwise() throws {
        let f = try fixture()
        #expect(try f.engine.get(f.book(0), "fail()", mode: .display).isNull)
        #expect(f.engine.reportedErrors.count == 1)
        #expect("\(f.engine.reportedErrors[0])".contains("boom"))
        #expect("\(f.engine.reportedErrors[0])".contains("fail()"))
        #expect(throws: BindingCallError.self) { try f.engine.get(f.book(0), "fail()") }
    }

    @Test func unknownNamesYieldNilAndWarnOnce() throws {
        let f = try fixture()
        #expect(try f.engine.get(f.book(0), "nmae").isNull)
        #expect(try f.engine.get(f.book(0), "nmae").isNull)
        #expect(f.engine.warnings == ["binding \"nmae\": Book has no field, method or extension \"nmae\""])
    }

    @Test func parseErrorsAreThrownWithTheColumn() throws {
        let f = try fixture()
        do {
            _ = try f.engine.get(f.root, "books[0/name")
            Issue.record("expected a parse error")
        } catch let e as BindingError {
            #expect(e.column == 8)
            #expect(e.description == "binding \"books[0/name\": expected \"]\" at column 8")
        }
    }

    @Test func callRunsEveryPartAsOneTransaction() throws {
        let f = try fixture()
        try f.engine.call(f.book(0), "setAsMarked(),label(#x)")
        #expect(f.book(0)["marked"]!.truthy)
        // A failing tap rolls back what it wrote before failing.
        try f.engine.set(f.book(1), "marked", .bool(false))
        #expect(throws: BindingCallError.self) { try f.engine.call(f.book(1), "setAsMarked(),fail()") }
        #expect(!f.book(1)["marked"]!.truthy)
    }

    @Test func deepRecursionIsStopped() throws {
        let f = try fixture()
        f.engine.extensions.register("Book", "loop") { v, _, e in try e.get(v.entity, "loop") }
        #expect(throws: (any Error).self) { try f.engine.get(f.book(0), "loop") }
    }
}
