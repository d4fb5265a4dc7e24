import Foundation

/// A file sent with a multipart form: its name as the browser gave it (without any folders), and where its bytes
/// were written as they arrived (a file in the data folder's upload area, removed once the upload is handled).
public struct WebUpload: Sendable {
    public var filename: String
    public var file: URL
    public var size: Int

    public init(filename: String, file: URL, size: Int) {
        self.filename = filename
        self.file = file
        self.size = size
    }
}

/// Why a multipart body was refused (the answer is 400 with this text).
public enum MultipartError: Error, Equatable, CustomStringConvertible {
    case noBoundary
    case malformed(String)
    case twoFiles
    case tooManyParts
    case notKept(String)

    public var description: String {
        switch self {
        case .noBoundary: return "The upload names no multipart boundary."
        case .malformed(let why): return "The upload is malformed (\(why))."
        case .twoFiles: return "The upload holds more than one file; send one backup at a time."
        case .tooManyParts: return "The upload has too many fields."
        case .notKept(let why): return "The upload could not be kept on the server (\(why))."
        }
    }
}

/// `multipart/form-data` (RFC 7578), strictly and for exactly what the backup upload form sends: text fields and
/// at most one file. The body is read as it arrives (`MultipartStream`): the file's bytes go straight to a file,
/// never into memory; at most ``maxParts`` parts, part headers of at most ``maxHeader`` bytes, text fields of at
/// most ``maxText`` bytes. Anything else — no boundary, a missing closing delimiter, a part without a
/// `Content-Disposition: form-data; name=…` — is an error, never a crash.
public enum MultipartBody {
    static let maxParts = 16
    static let maxHeader = 8 << 10
    static let maxText = 64 << 10

    /// The boundary parameter of a `multipart/form-data` content type, or nil.
    public static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for p in parts.dropFirst() {
            let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var b = kv[1].trimmingCharacters(in: .whitespaces)
            if b.count >= 2, b.hasPrefix("\""), b.hasSuffix("\"") { b = String(b.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            return b.isEmpty || b.utf8.count > 70 ? nil : b
        }
        return nil
    }

    /// A whole body at once (tests, small bodies): the text fields in order and the file, written to `file`.
    public static func parse(_ body: [UInt8], contentType: String, file: URL) throws(MultipartError)
        -> (fields: [(name: String, value: String)], file: WebUpload?) {
        var stream = try MultipartStream(contentType: contentType, file: file)
        try stream.feed(body[...])
        return try stream.finish()
    }

    /// The `name` and `filename` of a part's `Content-Disposition: form-data` header (filename without folders).
    static func disposition(_ headers: String) throws(MultipartError) -> (name: String, filename: String?) {
        for line in headers.split(separator: "\r\n", omittingEmptySubsequences: true) {
            let kv = line.split(separator: ":", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let params = parameters(String(kv[1]))
            guard params.first?.key.lowercased() == "form-data" else { throw .malformed("a part is not form-data") }
            guard let name = params.first(where: { $0.key.lowercased() == "name" })?.value else {
                throw .malformed("a part has no name")
            }
            let filename = params.first(where: { $0.key.lowercased() == "filename" })?.value.map { raw in
                String(raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "")
            }
            return (name, filename)
        }
        throw .malformed("a part has no Content-Disposition")
    }

    /// `form-data; name="a"; filename="b"` as (key, value) pairs; quoted values unescaped (`\"`, `\\`).
    static func parameters(_ text: String) -> [(key: String, value: String?)] {
        var out: [(key: String, value: String?)] = []
        var chars = Substring(text)
        while !chars.isEmpty {
            chars = chars.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            let key = chars.prefix { $0 != "=" && $0 != ";" }
            chars = chars.dropFirst(key.count)
            guard !key.isEmpty else { break }
            guard chars.first == "=" else { out.append((key.trimmingCharacters(in: .whitespaces), nil)); continue }
            chars = chars.dropFirst()
            var value = ""
            if chars.first == "\"" {
                chars = chars.dropFirst()
                while let c = chars.popFirst(), c != "\"" {
                    if c == "\\", let escaped = chars.popFirst() { value.append(escaped) } else { value.append(c) }
                }
            } else {
                let v = chars.prefix { $0 != ";" }
                chars = chars.dropFirst(v.count)
                value = v.trimmingCharacters(in: .whitespaces)
            }
            out.append((key.trimmingCharacters(in: .whitespaces), value))
        }
        return out
    }

    /// The first index of `needle` in `body` at or after `from` (and, with `limit`, starting within `limit` bytes).
    static func find(_ needle: [UInt8], in body: [UInt8], from: Int, limit: Int = .max) -> Int? {
        guard let head = needle.first, from >= 0 else { return nil }
        let last = min(body.count - needle.count, limit == .max ? .max : from + limit)
        guard last >= from else { return nil }
        return body.withUnsafeBufferPointer { b -> Int? in
            var i = from
            while i <= last {
                if b[i] == head {
                    var k = 1
                    while k < needle.count && b[i + k] == needle[k] { k += 1 }
                    if k == needle.count { return i }
                }
                i += 1
            }
            return nil
        }
    }
}
