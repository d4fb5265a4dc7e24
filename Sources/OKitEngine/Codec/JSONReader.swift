import Foundation

/// Reads a model file straight into entities of the schema: no intermediate dictionaries (performance.md: load
/// must beat Python's json). Tolerant (missing fields take defaults, unknown fields are kept verbatim) and
/// strict where it matters (a value of the wrong type is an error, never a silent reset).
struct JSONReader {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0
    /// What the entity-reading parts (`JSONEntityReader`, `JSONValueReader`) build with: the schema's types, new
    /// ids, defaults. Nil for a reader of plain JSON (`JSONTree`, an object's members), which builds no entity.
    let entityHost: (any ModelHost)?
    var depth = 0
    static let maxDepth = 512
    /// `JSONTree` reads `nan`, `inf` and `-inf` as numbers.
    var nonFiniteWords = true

    /// What the reader found in the `okit` header.
    var version: Int?
    var generation: Int?
    /// The root type the header names.
    var storedType: String?
    var headerExtras: [(key: String, json: [UInt8])] = []
    /// Entities read so far.
    var entityCount = 0
    /// Entities read to their end (`entityCount` counts them as they begin).
    var completedEntities = 0
    /// Set by a model's load: a value of the wrong type in a model stored by an older version than the app's is
    /// kept for the migrations (`keepMistyped`) instead of refused.
    var keepsMistyped = false
    /// The entities below the root that have an id, when the caller asked for them (a whole model's read,
    /// `listIdentified`): the id index reads them on its first lookup instead of walking the tree.
    private(set) var identified: IdentifiedEntities?
    /// The same list, used per entity without retaining it (`identified` keeps it alive).
    var identifiedList: Unmanaged<IdentifiedEntities>?
    /// False once an entity came from somewhere other than the file (a default of a missing entity field):
    /// the list may then miss some, and the index walks the tree instead.
    var identifiedComplete = true
    /// True once the read made an identity the file does not hold: an id for an entity written without one, or a
    /// default entity for a missing entity field. A journal record names an entity by its id, and the next read
    /// makes a new one, so the model's next store must write the whole file (FileStorage, `wholeNext`).
    var madeIdentities = false

    /// Lists the entities with ids as they are read (see `IdentifiedEntities`).
    mutating func listIdentified() {
        let list = IdentifiedEntities()
        identified = list
        identifiedList = .passUnretained(list)
    }

    /// What the id index should read instead of walking the tree: nil when the list may be incomplete.
    var identifiedEntities: IdentifiedEntities? {
        guard identifiedComplete, let identified else { return nil }
        identified.finish()
        return identified
    }

    /// The entities a journal's records name, looked for among the entities read (a model's load with a journal,
    /// `JournalTargets.note`): each finished entity is shown to it, the root included.
    var journalTargets: JournalTargets?

    /// Called now and then with how far the reader got, when the bytes are a mapped file whose read pages can be
    /// given back (`FileBytes.releasePages`): the reader never goes back before `i`.
    var releaseBehind: ((Int) -> Void)?
    var releasedTo = 0
    static let releaseStep = 4 << 20

    /// Entity types met so far, by name (see `entityType(named:)`).
    var typeCache: [(String, EntityType)] = []
    var refCache: [(String?, EntityType)] = []

    struct Failure: Error {
        let offset: Int
        let message: String
        /// A well-formed value of the wrong type (as opposed to malformed JSON).
        var wrongType = false
        /// The declared field whose stored value has the wrong type (set where the entity's member is read).
        var field: MistypedField?
        /// A stored reference `{"id", "refKey"}` where an embedded entity is declared (`ref T` became `T`).
        var storedReference = false
    }

    /// A field whose stored value is not of its declared type: the entity type, the field, its declaration and
    /// what the file holds ("a string"). A class: a `Failure` stays a few words, as every frame of the recursive
    /// readers holds one — a struct of four strings made each frame of `skipValue` so large under the address
    /// sanitizer that a file nested 512 deep (the limit) overflowed a worker thread's stack.
    final class MistypedField: Sendable {
        let type: String
        let field: String
        let declared: String
        let found: String
        /// The version that stored the model (nil: its header has none) and the app's.
        let stored: Int?
        let app: Int

        init(type: String, field: String, declared: String, found: String, stored: Int?, app: Int) {
            self.type = type
            self.field = field
            self.declared = declared
            self.found = found
            self.stored = stored
            self.app = app
        }
    }

    /// A reader of a model's entities, built with `engine`'s schema.
    init(bytes: UnsafeBufferPointer<UInt8>, engine: any ModelHost) {
        b = bytes
        entityHost = engine
    }

    /// A reader of plain JSON: values, trees and skipped values, no entity (it needs no engine).
    init(bytes: UnsafeBufferPointer<UInt8>) {
        b = bytes
        entityHost = nil
    }

    /// The host of the entity-reading parts: only a reader made with one reads entities.
    var host: any ModelHost {
        guard let entityHost else { preconditionFailure("a reader of plain JSON builds no entity") }
        return entityHost
    }

    /// The UTF-8 byte order mark: accepted at the start of a document, never written.
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func hasBOM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    static func hasBOM(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { hasBOM($0) } }

    // MARK: Scanning

    @inline(__always) mutating func skipSpace() {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    @inline(__always) func fail(_ message: String, at offset: Int? = nil) -> Failure { Failure(offset: offset ?? i, message: message) }

    @inline(__always) mutating func expect(_ c: UInt8, _ what: String) throws(Failure) {
        skipSpace()
        guard i < b.count, b[i] == c else { throw fail(i < b.count ? "expected \(what)" : "unexpected end of file, expected \(what)") }
        i += 1
    }

    @inline(__always) mutating func peek() -> UInt8? {
        skipSpace()
        return i < b.count ? b[i] : nil
    }

    mutating func enter() throws(Failure) {
        depth += 1
        if depth > JSONReader.maxDepth { throw fail("nesting deeper than \(JSONReader.maxDepth)") }
    }

    /// Reads a string's raw bytes (escapes resolved only when there are any).
    mutating func string() throws(Failure) -> String {
        skipSpace()
        guard i < b.count, b[i] == 0x22 else { throw fail("expected a string") }
        let start = i + 1
        var j = start
        while j < b.count {
            let c = b[j]
            if c == 0x22 {
                i = j + 1
                guard let s = UTF8Text.string(UnsafeBufferPointer(rebasing: b[start..<j])) else {
                    throw fail("invalid UTF-8 in a string", at: start)
                }
                return s
            }
            if c == 0x5C { return try escapedString(from: start) }
            if c < 0x20 { throw fail("control character in a string", at: j) }
            j += 1
        }
        throw fail("unterminated string", at: start - 1)
    }

    mutating func escapedString(from start: Int) throws(Failure) -> String {
        var out = [UInt8]()
        i = try JSONText.unescape(b, from: start, to: b.count, lenient: false, into: &out) + 1
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string", at: start) }
        return s
    }

    /// A JSON number: an int when it has no fraction or exponent and fits, else a double.
    mutating func number() throws(Failure) -> Value {
        skipSpace()
        let start = i
        var negative = false
        if i < b.count, b[i] == 0x2D { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var overflow = false
        guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { throw fail("expected a number", at: start) }
        if b[i] == 0x30, i + 1 < b.count, b[i + 1] >= 0x30, b[i + 1] <= 0x39 { throw fail("leading zeros in a number", at: start) }
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            if mantissa > 1_844_674_407_370_955_160 { overflow = true } else { mantissa = mantissa * 10 + UInt64(b[i] - 0x30) }
            digits += 1
            i += 1
        }
        var exp10 = 0
        var isDouble = false
        if i < b.count, b[i] == 0x2E {
            isDouble = true
            i += 1
            guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { throw fail("expected digits after the decimal point") }
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if mantissa < 1_000_000_000_000_000_000 { mantissa = mantissa * 10 + UInt64(b[i] - 0x30); exp10 -= 1 } else { overflow = true }
                i += 1
            }
        }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            isDouble = true
            i += 1
            var eneg = false
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { eneg = b[i] == 0x2D; i += 1 }
            guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { throw fail("expected an exponent") }
            var e = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { if e < 100_000 { e = e * 10 + Int(b[i] - 0x30) }; i += 1 }
            exp10 += eneg ? -e : e
        }
        if !isDouble, !overflow, mantissa <= UInt64(Int.max) {
            return .int(negative ? -Int(mantissa) : Int(mantissa))
        }
        if !isDouble, !overflow, negative, mantissa == UInt64(Int.max) + 1 { return .int(Int.min) }
        if !overflow, mantissa < (1 << 53), exp10 >= -22, exp10 <= 22 {
            var d = Double(mantissa)
            d = exp10 < 0 ? d / JSONReader.pow10[-exp10] : d * JSONReader.pow10[exp10]
            return .double(negative ? -d : d)
        }
        return .double(slowDouble(start..<i))
    }

    static let pow10: [Double] = (0...22).map { pow(10.0, Double($0)) }

    func slowDouble(_ r: Range<Int>) -> Double {
        var buf = [CChar](repeating: 0, count: r.count + 1)
        for (k, idx) in r.enumerated() { buf[k] = CChar(bitPattern: b[idx]) }
        return strtod(buf, nil)
    }

    /// Skips any JSON value; returns its byte range.
    mutating func skipValue() throws(Failure) -> Range<Int> {
        skipSpace()
        let start = i
        guard i < b.count else { throw fail("unexpected end of file, expected a value") }
        switch b[i] {
        case 0x22: _ = try string()
        case 0x7B:
            try enter(); defer { depth -= 1 }
            i += 1
            if peek() == 0x7D { i += 1; break }
            while true {
                _ = try string()
                try expect(0x3A, "\":\"")
                _ = try skipValue()
                guard let c = peek() else { throw fail("unexpected end of file, expected \",\" or \"}\"") }
                i += 1
                if c == 0x7D { break }
                guard c == 0x2C else { throw fail("expected \",\" or \"}\"", at: i - 1) }
            }
        case 0x5B:
            try enter(); defer { depth -= 1 }
            i += 1
            if peek() == 0x5D { i += 1; break }
            while true {
                _ = try skipValue()
                guard let c = peek() else { throw fail("unexpected end of file, expected \",\" or \"]\"") }
                i += 1
                if c == 0x5D { break }
                guard c == 0x2C else { throw fail("expected \",\" or \"]\"", at: i - 1) }
            }
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        default: _ = try number()
        }
        return start..<i
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("unexpected end of file, expected \(word)") }
        let p = word.utf8Start
        for k in 0..<n where b[i + k] != p[k] { throw fail("expected \(word)") }
        i += n
    }

    /// Whether a `null` is at the cursor (after spaces); consumes it.
    mutating func isNull() throws(Failure) -> Bool {
        guard peek() == 0x6E else { return false }
        try literal("null")
        return true
    }
}
