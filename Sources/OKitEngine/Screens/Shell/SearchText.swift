import Foundation

/// OKit's search normalization (screens.md "search"): lower-cased, diacritics and width folded, canonical forms
/// made one, non-alphanumerics removed, repeated characters collapsed. A row matches when its normalized text
/// contains the normalized query.
public enum SearchText {
    /// The longest search text a screen takes, in characters: a longer one is refused (never cut: nothing typed
    /// is dropped silently), so no snapshot echoes a huge text back.
    public static let maxLength = 1000

    /// Whether `text` is at most `maxLength` characters (its bytes are looked at first).
    public static func fits(_ text: String) -> Bool {
        text.utf8.count <= maxLength || text.count <= maxLength
    }

    public static func normalize(_ s: String) -> String {
        if let ascii = normalizeASCII(s) { return ascii }
        var out = String.UnicodeScalarView()
        var last: Unicode.Scalar?
        for var c in folded(s).unicodeScalars {
            if c.value < 0x80 {
                let v = c.value
                if v >= 65, v <= 90, let lower = Unicode.Scalar(v + 32) { c = lower }
                guard (v >= 48 && v <= 57) || (c.value >= 97 && c.value <= 122) else { continue }
            } else {
                guard c.properties.isAlphabetic || c.properties.numericType != nil else { continue }
                c = c.properties.lowercaseMapping.unicodeScalars.first ?? c
                if let letters = SearchText.letters[c] {
                    for l in letters.unicodeScalars where l != last {
                        out.append(l)
                        last = l
                    }
                    continue
                }
            }
            if c == last { continue }
            out.append(c)
            last = c
        }
        return String(out)
    }

    /// Text that is not ASCII, folded before its letters are kept: its compatibility forms as the letters they
    /// stand for (NFKD: width, `ｶﾚｰ` → `カレー`, `ＡＢＣ１２３` → `ABC123`, ligatures), diacritics removed (Latin
    /// accents, Arabic harakat and the hamza and madda on alef, Hebrew points: `كَبْسَة` → `كبسة`, `أرز` → `ارز`), what
    /// is left composed again (NFC: kana keep their voiced marks, `カ`+U+3099 → `ガ`, as `ｶﾞ` does), case folded.
    /// Foundation on Linux folds Latin diacritics only, and neither width's half-width voiced mark nor Arabic.
    static func folded(_ s: String) -> String {
        var kept = String.UnicodeScalarView()
        for c in s.decomposedStringWithCompatibilityMapping.unicodeScalars where !isFoldedMark(c) { kept.append(c) }
        return String(kept).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    /// The Arabic and Hebrew marks (vowels, shadda, hamza and madda above or below a letter, Quranic marks) and
    /// the Arabic tatweel, which Foundation on Linux keeps (they are alphabetic); Latin accents it removes itself.
    static func isFoldedMark(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0640: return true
        case 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06ED:
            return c.properties.generalCategory == .nonspacingMark
        default: return false
        }
    }

    /// Letters that folding diacritics leaves as they are, written as a person types them without the letter:
    /// `boeuf` finds "Bœuf", `aeble` "Æble", `lodz` "Łódź" (ß folds to `ss` already).
    static let letters: [Unicode.Scalar: String] = [
        "œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ħ": "h", "ı": "i", "ĳ": "ij", "þ": "th", "ð": "d",
    ]

    /// The ASCII fast path: bytes in, bytes out, no Foundation, one allocation (none for short texts).
    static func normalizeASCII(_ s: String) -> String? {
        var s = s
        return s.withUTF8 { src -> String? in
            guard !src.contains(where: { $0 >= 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: src.count) { foldASCII(src, into: $0) ?? 0 }
        }
    }

    /// Appends the normalized form of `s` to `out` (no string made for ASCII text). The text is read in place (a
    /// copy of it would retain its storage: an atomic write to a line not yet in the cache, which stalls a pass
    /// over a million rows) and folded into a temporary buffer, then appended at once.
    static func appendNormalized(_ s: String, to out: inout [UInt8]) {
        let ascii = s.utf8.withContiguousStorageIfAvailable { src -> Bool in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: src.count) { buf in
                guard let n = foldASCII(src, into: buf) else { return false }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[..<n]))
                return true
            }
        }
        if ascii != true { out.append(contentsOf: normalize(s).utf8) }
    }

    /// Copies the UTF-8 bytes of `key` (a `.string`, read in place: no copy of the string, so no retain of its
    /// storage) into `out`; how many, or −1 when `key` is not text or longer than `out`.
    @inline(__always)
    static func copyUTF8(_ key: UnsafePointer<Value>, to out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard case .string(let s) = key.pointee else { return -1 }
        return s.utf8.withContiguousStorageIfAvailable { src -> Int in
            guard src.count <= out.count, let from = src.baseAddress, let to = out.baseAddress else { return src.isEmpty ? 0 : -1 }
            to.update(from: from, count: src.count)
            return src.count
        } ?? -1
    }

    /// Folds ASCII text into `out`; its length, or nil when the text is not ASCII or longer than `out`.
    static func foldASCII(_ src: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard src.count <= out.count, !src.contains(where: { $0 >= 0x80 }) else { return nil }
        var n = 0
        foldASCII(src) { out[n] = $0; n += 1 }
        return n
    }

    /// Each byte's normalized form in ASCII text: letters lower-cased, digits as they are, anything else 0 (dropped;
    /// bytes from 0x80 on are not ASCII: the text is folded by `normalize`).
    static let asciiFoldTable: [UInt8] = (0...255).map { (b: Int) -> UInt8 in
        switch b {
        case 65...90: return UInt8(b + 32)
        case 48...57, 97...122: return UInt8(b)
        default: return 0
        }
    }

    /// The normalized bytes of ASCII text, one at a time: lower-cased, letters and digits only, repeats collapsed.
    @inline(__always)
    private static func foldASCII(_ src: UnsafeBufferPointer<UInt8>, _ emit: (UInt8) -> Void) {
        asciiFoldTable.withUnsafeBufferPointer { table in       // the rules live once, in the table
            var last: UInt8 = 0
            for b in src {
                let c = table[Int(b)]
                if c == 0 || c == last { continue }
                emit(c)
                last = c
            }
        }
    }

    /// A search text that normalizes to nothing (signs, emoji: `🥟`, `#`), as it is matched instead: trimmed and
    /// lower-cased; nil when it is blank (a blank search filters nothing).
    public static func literal(_ text: String) -> String? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t.lowercased()
    }

    /// Whether `text` as written contains `literal` (from `literal(_:)`), case aside.
    public static func containsLiteral(_ text: String, _ literal: String) -> Bool {
        text.lowercased().contains(literal)
    }

    /// Whether a normalized text contains a normalized query: their UTF-8 bytes compared (both are
    /// normalized the same way, so bytes are scalars; Foundation's `contains` costs ten times more per row).
    public static func contains(_ text: String, _ query: String) -> Bool {
        if query.isEmpty { return true }
        var text = text, query = query
        return text.withUTF8 { t in query.withUTF8 { q in contains(t, q) } }
    }

    /// `contains` on UTF-8 bytes.
    static func contains(_ t: UnsafeBufferPointer<UInt8>, _ q: UnsafeBufferPointer<UInt8>) -> Bool {
        if q.isEmpty { return true }
        guard q.count <= t.count, let qb = q.baseAddress, let tb = t.baseAddress else { return false }
        let first = Int32(q[0]), lastStart = t.count - q.count
        var i = 0
        while i <= lastStart {
            guard let hit = memchr(tb + i, first, lastStart - i + 1) else { return false }
            let at = UnsafeRawPointer(hit) - UnsafeRawPointer(tb)
            if memcmp(tb + at, qb, q.count) == 0 { return true }
            i = at + 1
        }
        return false
    }
}
