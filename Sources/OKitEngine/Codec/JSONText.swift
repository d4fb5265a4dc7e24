/// JSON string literals, both ways: the one escaper (model files, snapshots, session logs, protocol errors,
/// and keys shown in messages) and the one unescaper (the reader, and the path locator of error messages).
public enum JSONText {
    /// `s` as a JSON string literal, quotes included.
    public static func quoted(_ s: String) -> String {
        var out = ""
        appendQuoted(s, to: &out)
        return out
    }

    /// Appends `s` as a JSON string literal.
    public static func appendQuoted(_ s: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendQuoted(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal to a byte buffer.
    @inline(__always)
    static func appendQuoted<Out: ByteAppending>(_ s: String, to out: inout Out) {
        out.append(0x22)
        // Read in place when the text is native (a copy for `withUTF8` would retain its storage).
        if s.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out, terminal: false) }) == nil {
            var s = s
            s.withUTF8 { appendEscaped($0, to: &out, terminal: false) }
        }
        out.append(0x22)
    }

    /// Appends the `.string` at `v` as a JSON string literal, read in place (a copy would retain its storage).
    @inline(__always)
    static func appendQuoted<Out: ByteAppending>(at v: UnsafePointer<Value>, to out: inout Out) {
        guard case .string(let s) = v.pointee else { return }
        appendQuoted(s, to: &out)
    }

    /// A text as inside a JSON string, safe to show on a terminal: besides what JSON requires, DEL, the C1
    /// controls and the characters that move or reorder text (line/paragraph separators, bidirectional
    /// controls) are escaped, and backspace and form feed take their short forms (`\b`, `\f`).
    static func escapedForTerminal(_ s: String) -> String {
        var out: [UInt8] = []
        var s = s
        s.withUTF8 { appendEscaped($0, to: &out, terminal: true) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 text `u` with JSON escapes: quote, backslash, `\n` `\r` `\t`, other controls as
    /// `\u00XX` (lower-case hex); with `terminal`, also the characters `escapedForTerminal` names. Runs without
    /// escapes are copied in one piece.
    @inline(__always)
    static func appendEscaped<Out: ByteAppending>(_ u: UnsafeBufferPointer<UInt8>, to out: inout Out, terminal: Bool) {
        var runStart = 0
        var k = 0
        while k < u.count {
            let c = u[k]
            if c >= 0x20, c != 0x22, c != 0x5C, !terminal || c < 0x7F { k += 1; continue }
            var code = UInt32(c)
            var length = 1
            if c >= 0x80 {
                (code, length) = scalar(u, at: k)
                guard isTerminalUnsafe(code) else { k += length; continue }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<k]))
            switch code {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(0x6E)
            case 0x0D: out.append(0x5C); out.append(0x72)
            case 0x09: out.append(0x5C); out.append(0x74)
            case 0x08 where terminal: out.append(0x5C); out.append(0x62)
            case 0x0C where terminal: out.append(0x5C); out.append(0x66)
            default:
                let hex: StaticString = "0123456789abcdef"
                out.append(0x5C); out.append(0x75)
                for shift in stride(from: 12, through: 0, by: -4) { out.append(hex.utf8Start[Int((code >> UInt32(shift)) & 15)]) }
            }
            k += length
            runStart = k
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart...]))
    }

    /// DEL, C1 controls, U+2028/2029, U+202A–202E, U+2066–2069.
    @inline(__always)
    static func isTerminalUnsafe(_ code: UInt32) -> Bool {
        (0x7F...0x9F).contains(code) || (0x2028...0x202E).contains(code) || (0x2066...0x2069).contains(code)
    }

    /// The scalar whose (valid) UTF-8 starts at `k`, and its length in bytes.
    @inline(__always)
    static func scalar(_ u: UnsafeBufferPointer<UInt8>, at k: Int) -> (UInt32, Int) {
        let c = UInt32(u[k])
        @inline(__always) func cont(_ n: Int) -> UInt32 { k + n < u.count ? UInt32(u[k + n] & 0x3F) : 0 }
        if c < 0xE0 { return ((c & 0x1F) << 6 | cont(1), 2) }
        if c < 0xF0 { return ((c & 0x0F) << 12 | cont(1) << 6 | cont(2), 3) }
        return ((c & 0x07) << 18 | cont(1) << 12 | cont(2) << 6 | cont(3), 4)
    }

    // MARK: Unescaping

    /// The value of four hex digits at `at` (before `end`), or nil.
    @inline(__always)
    static func hex4(_ b: UnsafeBufferPointer<UInt8>, at: Int, end: Int) -> UInt32? {
        guard at + 4 <= end else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = b[at + k]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x37)
            case 0x61...0x66: d = UInt32(c - 0x57)
            default: return nil
            }
            v = v * 16 + d
        }
        return v
    }

    /// Resolves the escapes of a string's body, from `start` (after the opening quote) to its closing quote,
    /// appending UTF-8 to `out`; returns the index of the closing quote.
    ///
    /// Strict (the reader): a control character, a bad escape, an unpaired surrogate or a missing closing quote
    /// is an error at its offset. Lenient (messages; `b` up to `end` is the body): a malformed escape is kept as
    /// it is written, an unpaired surrogate becomes U+FFFD, and the body ends at `end`.
    static func unescape(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, lenient: Bool,
                         into out: inout [UInt8]) throws(JSONReader.Failure) -> Int {
        func fail(_ message: String, _ at: Int) -> JSONReader.Failure { JSONReader.Failure(offset: at, message: message) }
        var j = start
        while j < end {
            let c = b[j]
            if c == 0x22, !lenient { return j }
            if c < 0x20, !lenient { throw fail("control character in a string", j) }
            if c != 0x5C { out.append(c); j += 1; continue }
            guard j + 1 < end else {
                if lenient { out.append(c); j += 1; continue }
                break
            }
            let e = b[j + 1]
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                guard var code = hex4(b, at: j + 2, end: end) else {
                    if lenient { out.append(c); j += 1; continue }
                    throw fail(j + 6 <= end ? "invalid \\u escape" : "truncated \\u escape", j + 2)
                }
                var used = 6
                if code >= 0xD800, code < 0xDC00 {
                    if j + 12 <= end, b[j + 6] == 0x5C, b[j + 7] == 0x75 {
                        let low = hex4(b, at: j + 8, end: end)
                        if let low, low >= 0xDC00, low < 0xE000 {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            used = 12
                        } else if !lenient {
                            throw low == nil ? fail("invalid \\u escape", j + 8) : fail("unpaired surrogate in \\u escape", j + 6)
                        }
                    } else if !lenient {
                        throw fail("unpaired surrogate in \\u escape", j + 6)
                    }
                } else if code >= 0xDC00, code < 0xE000, !lenient {
                    throw fail("unpaired surrogate in \\u escape", j)
                }
                if code >= 0xD800, code < 0xE000 { code = 0xFFFD }   // lenient only: an unpaired surrogate shown as �
                appendUTF8(code, to: &out)
                j += used
                continue
            default:
                if !lenient { throw fail("invalid escape in a string", j) }
                out.append(c); out.append(e)
            }
            j += 2
        }
        if lenient { return end }
        throw fail("unterminated string", start - 1)
    }

    /// Appends a Unicode scalar value (never a surrogate: the caller pairs them) as UTF-8.
    @inline(__always) static func appendUTF8<Out: ByteAppending>(_ code: UInt32, to out: inout Out) {
        switch code {
        case ..<0x80: out.append(UInt8(code))
        case ..<0x800:
            out.append(UInt8(0xC0 | (code >> 6))); out.append(UInt8(0x80 | (code & 0x3F)))
        case ..<0x10000:
            out.append(UInt8(0xE0 | (code >> 12))); out.append(UInt8(0x80 | ((code >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (code & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (code >> 18))); out.append(UInt8(0x80 | ((code >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((code >> 6) & 0x3F))); out.append(UInt8(0x80 | (code & 0x3F)))
        }
    }
}
