#if canImport(Glibc)
import Glibc
#endif

/// Finds one entity's object in a JSON document by its id without parsing the document (the exit patch,
/// `FileStorage.patchAtExit`), and works out the smallest write that puts a new form of it in its place.
///
/// The id is looked for as its JSON string, `"<id>"`, and must occur exactly once in the whole document. The
/// object around it is found by going back to each `{` before it and parsing forward, structurally, from there:
/// the one object that has that string as the value of its direct member `"id"` is the entity's. Why a `{` inside
/// a string cannot pass: a JSON string holds no raw `"` and its escapes start with `\`, which no parse outside a
/// string accepts; so a parse started inside a string fails, or sees strings only from each real closing quote to
/// the next real opening quote — never one starting at the id's opening quote (`isLocatable` keeps out ids whose
/// bytes could be read as the structure that follows a closing quote).
enum JSONObjectSpan {
    /// How far before the id an object's `{` is looked for, and how many `{` are tried.
    static let window = 1 << 16
    static let maxCandidates = 64

    /// Whether an id can be located: non-empty, and no byte that is escaped in a JSON string (`"`, `\`, control
    /// characters) or that may follow a string's closing quote (whitespace, `,`, `:`, `}`, `]`).
    static func isLocatable(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { b in
            b > 0x20 && b != 0x22 && b != 0x5C && b != 0x2C && b != 0x3A && b != 0x7D && b != 0x5D && b != 0x7F
        }
    }

    /// The byte range of the one object in `doc` whose direct member `"id"` is `id`; nil when the quoted id does
    /// not occur exactly once, or no object around it has it as its `"id"`.
    ///
    /// `scanned(offset)` is told as the search for the id passes each `scanStep` of the document (the bytes before
    /// `offset` are not read again by the search): a mapped file gives those pages back, so that finding one
    /// object in a large file never holds the whole file resident (the session's peak memory, issue 38).
    static func locate(id: String, in doc: UnsafeBufferPointer<UInt8>, scanned: (Int) -> Void = { _ in }) -> Range<Int>? {
        guard isLocatable(id), let base = doc.baseAddress else { return nil }
        let needle = [0x22] + Array(id.utf8) + [0x22]
        guard let at = find(needle, in: doc, from: 0, scanned: scanned),
              find(needle, in: doc, from: at + 1, scanned: scanned) == nil else { return nil }
        var q = at - 1
        var tried = 0
        let lowest = max(0, at - window)
        while q >= lowest, tried < maxCandidates {
            if base[q] == 0x7B {
                tried += 1
                var scan = StructuralScan(doc: doc, i: q)
                if let end = scan.objectHavingId(at: at) { return q..<end }
            }
            q -= 1
        }
        return nil
    }

    /// The first offset at or after `from` where `needle` occurs (the C library's `memmem`, which Swift's Glibc
    /// module does not declare, found at run time; else `memchr` for the first byte and a compare).
    static func find(_ needle: [UInt8], in doc: UnsafeBufferPointer<UInt8>, from: Int, scanned: (Int) -> Void) -> Int? {
        var start = from
        while start < doc.count {
            // Each step's window overlaps the next by the needle's length less one: a match starting in the step
            // is found whole.
            let end = min(doc.count, start + scanStep + needle.count - 1)
            if let hit = find(needle, in: UnsafeBufferPointer(rebasing: doc[..<end]), from: start) { return hit }
            start += scanStep
            scanned(min(start, doc.count))
        }
        return nil
    }

    /// How much of the document one step of the search reads before it is told (`locate`'s `scanned`).
    static let scanStep = 1 << 20

    /// The first offset at or after `from` where `needle` occurs, in the whole of `doc`.
    static func find(_ needle: [UInt8], in doc: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = doc.baseAddress, from < doc.count, !needle.isEmpty else { return nil }
        return needle.withUnsafeBytes { n -> Int? in
            guard let nb = n.baseAddress else { return nil }
            if let memmem = MemMem.function {
                guard let hit = memmem(base + from, doc.count - from, nb, n.count) else { return nil }
                return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            }
            var i = from
            while doc.count - i >= n.count, let hit = memchr(base + i, Int32(needle[0]), doc.count - i - n.count + 1) {
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                if memcmp(base + at, nb, n.count) == 0 { return at }
                i = at + 1
            }
            return nil
        }
    }

    /// `memmem`, looked up once.
    private enum MemMem {
        typealias Function = @convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) -> UnsafeMutableRawPointer?
        static let function = RuntimeSymbol.lookup("memmem", as: Function.self)
    }

    /// The write that turns `old` (an object's bytes) into `new` (its new compact form, no longer) followed or
    /// interrupted by spaces: `offset` into `old` and the bytes to put there. The spaces go at a place between
    /// two tokens of `new` chosen so that the bytes written are as few as they can be (a rename writes the new
    /// name and a few spaces, not the object). Nil when `new` is longer than `old`.
    static func patch(old: UnsafeBufferPointer<UInt8>, new: [UInt8]) -> (offset: Int, bytes: [UInt8])? {
        let n = new.count, pad = old.count - n
        guard pad >= 0 else { return nil }
        var prefix = 0
        while prefix < n, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < n - prefix, old[old.count - 1 - suffix] == new[n - 1 - suffix] { suffix += 1 }
        // The spaces go at a token boundary `b` of `new`: bytes differ in [min(prefix, b), max(b, n - suffix) + pad).
        var best: (b: Int, cost: Int)?
        for b in tokenBoundaries(new) {
            let start = min(prefix, b), end = max(b, n - suffix) + pad
            if best == nil || end - start < best!.cost { best = (b, end - start) }
        }
        guard let b = best?.b else { return nil }
        let start = min(prefix, b), end = max(b, n - suffix) + pad
        var full = Array(new[..<b])
        full.append(contentsOf: repeatElement(0x20, count: pad))
        full.append(contentsOf: new[b...])
        return (start, Array(full[start..<end]))
    }

    /// The offsets of `json` (one value, compact or not) where whitespace may go: outside strings, next to a
    /// structural character or a string's quote (0 and the end included).
    static func tokenBoundaries(_ json: [UInt8]) -> [Int] {
        var out = [0]
        var inString = false, escaped = false
        func edge(_ c: UInt8) -> Bool { c == 0x7B || c == 0x7D || c == 0x5B || c == 0x5D || c == 0x2C || c == 0x3A || c == 0x22 }
        for i in 1..<max(1, json.count) {
            let c = json[i - 1]
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
            } else if c == 0x22 {
                inString = true
                continue   // just inside a string
            }
            if !inString, edge(c) || edge(json[i]) { out.append(i) }
        }
        if json.count > 0 { out.append(json.count) }
        return out
    }
}
