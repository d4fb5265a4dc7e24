import Foundation

/// A file sent with a multipart form: its name as the browser gave it (without any folders) and its bytes.
public struct WebUpload: Sendable {
    public var filename: String
    public var bytes: [UInt8]

    public init(filename: String, bytes: [UInt8]) {
        self.filename = filename
        self.bytes = bytes
    }
}

/// Why a multipart body was refused (the answer is 400 with this text).
public enum MultipartError: Error, Equatable, CustomStringConvertible {
    case noBoundary
    case malformed(String)
    case twoFiles
    case tooManyParts

    public var description: String {
        switch self {
        case .noBoundary: return "The upload names no multipart boundary."
        case .malformed(let why): return "The upload is malformed (\(why))."
        case .twoFiles: return "The upload holds more than one file; send one backup at a time."
        case .tooManyParts: return "The upload has too many fields."
        }
    }
}

/// `multipart/form-data` (RFC 7578), strictly and for exactly what the backup upload form sends: text fields and
/// at most one file. The whole body is in memory already (its size bounded by the caller); the parser only
/// slices it: at most ``maxParts`` parts, part headers of at most ``maxHeader`` bytes, text fields of at most
/// ``maxText`` bytes. Anything else — no boundary, a missing closing delimiter, a part without a
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

    /// The text fields in order and the file, if any.
    public static func parse(_ body: [UInt8], contentType: String) throws(MultipartError)
        -> (fields: [(name: String, value: String)], file: WebUpload?) {
        guard let boundary = boundary(contentType: contentType) else { throw .noBoundary }
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        var fields: [(name: String, value: String)] = []
        var file: WebUpload?
        // The first delimiter opens the body (a preamble before it is ignored, as RFC 2046 says).
        guard let first = find(delimiter, in: body, from: 0) else { throw .malformed("no opening delimiter") }
        var at = first + delimiter.count
        var parts = 0
        while true {
            if starts(body, at, [45, 45]) { return (fields, file) }          // "--": the closing delimiter
            guard starts(body, at, crlf) else { throw .malformed("a delimiter is not followed by a line break") }
            at += 2
            parts += 1
            guard parts <= maxParts else { throw .tooManyParts }
            guard let headerEnd = find([13, 10, 13, 10], in: body, from: at, limit: maxHeader) else {
                throw .malformed("a part's headers do not end")
            }
            let disposition = try self.disposition(String(decoding: body[at..<headerEnd], as: UTF8.self))
            let contentStart = headerEnd + 4
            guard let next = find(crlf + delimiter, in: body, from: contentStart) else {
                throw .malformed("the body ends before its closing delimiter")
            }
            let content = Array(body[contentStart..<next])
            if let filename = disposition.filename {
                guard file == nil else { throw .twoFiles }
                file = WebUpload(filename: filename, bytes: content)
            } else {
                guard content.count <= maxText else { throw .malformed("a text field is longer than \(maxText) bytes") }
                fields.append((disposition.name, String(decoding: content, as: UTF8.self)))
            }
            at = next + 2 + delimiter.count
        }
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

    static func starts(_ body: [UInt8], _ at: Int, _ prefix: [UInt8]) -> Bool {
        at >= 0 && at + prefix.count <= body.count && body[at..<(at + prefix.count)].elementsEqual(prefix)
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
