import Foundation
import OKitEngine

/// The benchmark shop of performance.md: the shape of ../bench/gen_shop.py (books with name, date, marked, price
/// and 1–3 owned authors, every entity with its own id; seed 42), generated here so `okit-run bench` needs nothing
/// else.
enum BenchShop {
    static let words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango"
        .split(separator: " ").map(String.init)

    /// The benchmark's seeded generator.
    struct Random {
        var rng: SplitMix64
        init(state: UInt64) { rng = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { rng.next() }
        mutating func below(_ n: Int) -> Int { rng.below(n) }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func uuid() -> String {
            let a = next(), b = next()
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i)); bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i)) }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            let digits = Array("0123456789ABCDEF".utf8)
            var out: [UInt8] = []
            out.reserveCapacity(36)
            for (i, b) in bytes.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 { out.append(0x2D) }
                out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)])
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Declares the benchmark schema.
    static func schema() throws -> Schema {
        let s = Schema()
        try s.entity("Author", fields: [FieldSpec("name", .string)])
        try s.entity("Book", fields: [
            FieldSpec("name", .string), FieldSpec("date", .date), FieldSpec("marked", .bool),
            FieldSpec("price", .double), FieldSpec("authors", .array(.entity("Author"))),
        ])
        try s.entity("Shop", fields: [FieldSpec("books", .array(.entity("Book"))), FieldSpec("authors", .array(.entity("Author")))])
        try s.validate()
        return s
    }

    /// The shop document as JSON (dates as OKit's 2001-epoch numbers, as gen_shop.py writes them).
    static func json(books n: Int, seed: UInt64 = 42) -> [UInt8] {
        var r = Random(state: seed)
        func title(_ w: String) -> String { w.prefix(1).uppercased() + w.dropFirst() }
        let authorCount = max(10, n / 10)
        var authors: [(String, String)] = []
        authors.reserveCapacity(authorCount)
        for _ in 0..<authorCount {
            authors.append((r.uuid(), title(words[r.below(words.count)]) + " " + title(words[r.below(words.count)])))
        }
        var out = [UInt8]()
        out.reserveCapacity(n * 300)
        func str(_ s: String) { out.append(34); out.append(contentsOf: s.utf8); out.append(34) }
        func author(_ a: (String, String)) {
            out.append(contentsOf: #"{"id":"#.utf8); str(a.0); out.append(contentsOf: #","name":"#.utf8); str(a.1); out.append(125)
        }
        out.append(contentsOf: #"{"id":"#.utf8); str(r.uuid())
        out.append(contentsOf: #","books":["#.utf8)
        for i in 0..<n {
            if i > 0 { out.append(44) }
            let name = (0..<3).map { _ in title(words[r.below(words.count)]) }.joined(separator: " ")
            out.append(contentsOf: #"{"id":"#.utf8); str(r.uuid())
            out.append(contentsOf: #","name":"#.utf8); str(name)
            out.append(contentsOf: #","date":\#(600_000_000 + r.below(100_000_000))"#.utf8)
            out.append(contentsOf: #","marked":\#(r.unit() < 0.2)"#.utf8)
            out.append(contentsOf: #","price":\#(((1 + r.unit() * 79) * 100).rounded() / 100)"#.utf8)
            out.append(contentsOf: #","authors":["#.utf8)
            let k = 1 + r.below(3)
            var picked: Set<Int> = []
            while picked.count < k { picked.insert(r.below(authorCount)) }
            // Every entity has its own id (as gen_shop.py): the books' author copies too.
            for (j, a) in picked.sorted().enumerated() { if j > 0 { out.append(44) }; author((r.uuid(), authors[a].1)) }
            out.append(contentsOf: "]}".utf8)
        }
        out.append(contentsOf: #"],"authors":["#.utf8)
        for (j, a) in authors.enumerated() { if j > 0 { out.append(44) }; author(a) }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// The start of the bench's Lua apps with screens (`WebBench`, `AddBench`): the schema and the shop model as
    /// the app's state (with the built-in `initial`).
    static let luaShopApp = """
    local okit = require "okit"
    okit.entity("Author", { name = "string" })
    okit.entity("Book", { name = "string", date = "date", marked = "bool", price = "double", authors = "[Author]" })
    okit.entity("Shop", { books = "[Book]", authors = "[Author]" })
    local shop = okit.model("Shop")
    okit.state { shop }

    """

    /// The benchmark schema as a Lua app with a Lua extension (`path_eval_lua_ext`).
    static let luaApp = """
    local okit = require "okit"
    okit.entity("Author", { name = "string" })
    okit.entity("Book", { name = "string", date = "date", marked = "bool", price = "double", authors = "[Author]" })
    okit.entity("Shop", { books = "[Book]", authors = "[Author]" })
    okit.extension("string", "initial", function(s) return s:sub(1, 1) end)
    okit.model("Shop")
    """

    /// A 30-line app for `startup`.
    static let startupApp = """
    local okit = require "okit"
    okit.strings("en", { entry = "Entry", entrys = "Entries" })
    okit.entity("Author", { name = { "string", default = "<New Author>" } })
    okit.entity("Genre", { name = "string" })
    okit.entity("Book", {
      name = "string",
      date = "date",
      marked = "bool",
      price = { "double", default = 0 },
      copies = "int",
      comment = "string?",
      authors = "[ref Author]",
      genre = "ref Genre",
      formatMarked = okit.computed(function(self) return self.marked and "marked" or "not marked" end),
      setAsMarked = function(self) self.marked = true end,
    })
    okit.entity("Shop", { books = "[Book]", genres = "[Genre]", authors = "[Author]" })
    okit.extension("string", "initial", function(s) return s:sub(1, 1):upper() end)
    local shop = okit.model("Shop", {
      seed = function(root)
        root.genres:append(okit.new("Genre", { id = "SCIFI", name = "Science Fiction" }))
        root.books:append(okit.new("Book", { name = "Dune", price = 12.5, copies = 3, genre = "SCIFI" }))
        root.books:append(okit.new("Book", { name = "Emma", price = 8, copies = 1 }))
      end,
    })
    okit.state { shop }
    okit.app { id = "startup", version = 1 }
    -- the first output: a binding evaluated
    print(okit.get(shop, "books[0]/name/initial"))
    """
}
