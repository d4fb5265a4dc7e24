/// A strict, structural walk over JSON bytes that builds nothing: it only says where values end. Used to check
/// that a `{` found in a document starts the object of a given entity (`JSONObjectSpan.locate`). Everything a
/// parse outside a string may not accept fails it: a `\`, a raw `"` where no string may start, a control
/// character inside a string, a bad literal.
struct StructuralScan {
    let doc: UnsafeBufferPointer<UInt8>
    var i: Int
    private var depth = 0

    init(doc: UnsafeBufferPointer<UInt8>, i: Int) {
        self.doc = doc
        self.i = i
    }

    private var peek: UInt8? { i < doc.count ? doc[i] : nil }

    private mutating func whitespace() {
        while let c = peek, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 }
    }

    /// Reads the object at `i` and returns the offset just after it when the string starting at `at` is the value
    /// of its direct member `"id"`; nil otherwise (as soon as the walk passes `at` without that).
    mutating func objectHavingId(at: Int) -> Int? {
        guard peek == 0x7B else { return nil }
        i += 1
        whitespace()
        if peek == 0x7D { return nil }
        var found = false
        while true {
            whitespace()
            let keyStart = i
            guard peek == 0x22, found || keyStart < at, skipString() else { return nil }
            let isId = i - keyStart == 4 && doc[keyStart + 1] == 0x69 && doc[keyStart + 2] == 0x64
            whitespace()
            guard peek == 0x3A else { return nil }
            i += 1
            whitespace()
            let valueStart = i
            if valueStart == at {
                guard isId, !found, skipString() else { return nil }
                found = true
            } else {
                guard skipValue() else { return nil }
                if valueStart < at, i > at { return nil }   // the id is nested deeper: not this object's
            }
            whitespace()
            if peek == 0x2C { i += 1; continue }
            guard peek == 0x7D else { return nil }
            i += 1
            return found ? i : nil
        }
    }

    /// Skips one value; false when it is not well formed.
    mutating func skipValue() -> Bool {
        guard let c = peek else { return false }
        switch c {
        case 0x22: return skipString()
        case 0x7B, 0x5B: return skipContainer(close: c == 0x7B ? 0x7D : 0x5D, object: c == 0x7B)
        case 0x74: return skipWord("true")
        case 0x66: return skipWord("false")
        case 0x6E: return skipWord("null")
        default:
            let start = i
            while let d = peek, (d >= 0x30 && d <= 0x39) || d == 0x2D || d == 0x2B || d == 0x2E || d == 0x45 || d == 0x65 { i += 1 }
            return i > start
        }
    }

    private mutating func skipContainer(close: UInt8, object: Bool) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONReader.maxDepth else { return false }
        i += 1
        whitespace()
        if peek == close { i += 1; return true }
        while true {
            whitespace()
            if object {
                guard peek == 0x22, skipString() else { return false }
                whitespace()
                guard peek == 0x3A else { return false }
                i += 1
                whitespace()
            }
            guard skipValue() else { return false }
            whitespace()
            if peek == 0x2C { i += 1; continue }
            guard peek == close else { return false }
            i += 1
            return true
        }
    }

    /// Skips a string (at its opening quote); false at a raw control character or the end of the bytes.
    mutating func skipString() -> Bool {
        guard peek == 0x22 else { return false }
        i += 1
        while let c = peek {
            i += 1
            if c == 0x22 { return true }
            if c < 0x20 { return false }
            if c == 0x5C {
                guard peek != nil else { return false }
                i += 1
            }
        }
        return false
    }

    private mutating func skipWord(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= doc.count else { return false }
        for k in 0..<n where doc[i + k] != word.utf8Start[k] { return false }
        i += n
        return true
    }
}

extension StructuralScan {
    /// The direct members of the object at `i`: each key's bytes (quotes included) and its value's range; nil when
    /// the object is not well formed.
    mutating func members() -> [(key: Range<Int>, value: Range<Int>)]? {
        guard peek == 0x7B else { return nil }
        i += 1
        whitespace()
        var out: [(key: Range<Int>, value: Range<Int>)] = []
        if peek == 0x7D { i += 1; return out }
        while true {
            whitespace()
            let keyStart = i
            guard skipString() else { return nil }
            let key = keyStart..<i
            whitespace()
            guard peek == 0x3A else { return nil }
            i += 1
            whitespace()
            let valueStart = i
            guard skipValue() else { return nil }
            out.append((key, valueStart..<i))
            whitespace()
            if peek == 0x2C { i += 1; continue }
            guard peek == 0x7D else { return nil }
            i += 1
            return out
        }
    }
}
