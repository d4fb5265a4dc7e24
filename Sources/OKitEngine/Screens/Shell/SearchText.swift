import Foundation

/// OKit's search normalization (screens.md "search"): lower-cased, diacritics folded, non-alphanumerics
/// removed, repeated characters collapsed. A row matches when its normalized text contains the normalized query.
public enum SearchText {
    public static func normalize(_ s: String) -> String {
        if let ascii = normalizeASCII(s) { return ascii }
        var out = String.UnicodeScalarView()
        var last: Unicode.Scalar?
        // ASCII fast path; other text is folded by Foundation first.
        let source: String
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            source = s
        } else {
            source = s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        for var c in source.unicodeScalars {
            if c.value < 0x80 {
                let v = c.value
                if v >= 65, v <= 90, let lower = Unicode.Scalar(v + 32) { c = lower }
                guard (v >= 48 && v <= 57) || (c.value >= 97 && c.value <= 122) else { continue }
            } else {
                guard c.properties.isAlphabetic || c.properties.numericType != nil else { continue }
                c = c.properties.lowercaseMapping.unicodeScalars.first ?? c
            }
            if c == last { continue }
            out.append(c)
            last = c
        }
        return String(out)
    }

    /// The ASCII fast path: bytes in, bytes out, no Foundation.
    static func normalizeASCII(_ s: String) -> String? {
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count)
        var last: UInt8 = 0
        for b in s.utf8 {
            if b >= 0x80 { return nil }
            var c = b
            if c >= 65, c <= 90 { c += 32 }
            guard (c >= 48 && c <= 57) || (c >= 97 && c <= 122) else { continue }
            if c == last { continue }
            out.append(c)
            last = c
        }
        return String(decoding: out, as: UTF8.self)
    }
}
