import Foundation

/// An image held in a text field as base64, as Action Data's image view reads a text ("If the value is String,
/// this control assumes its a Base 64 encoded image and will attempt to decode and display it"): plain base64 or a
/// `data:image/…;base64,…` URL. A short text that is no base64 stays what it was before, an image's name.
public struct Base64Image: Equatable, Sendable {
    /// The decoded bytes.
    public let bytes: [UInt8]
    /// The format its first bytes show: `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    public let format: String

    /// What a text is as an image: no base64 (a name), a decoded image, or base64 that decodes to no image.
    public enum Reading: Equatable, Sendable {
        case notBase64
        case image(Base64Image)
        case invalid(String)
    }

    /// The text shown for the image in a snapshot (a binary field's shows its label or size the same way).
    public var label: String { "\(format), \(bytes.count) bytes" }

    /// Texts of at least this many characters, all of base64's alphabet, are taken as base64 (a name is shorter,
    /// or has a space or a dot in it).
    static let minimumLength = 64

    /// Reads a text as a base64 image: a `data:` URL must be one; a long text of base64's alphabet is taken as one.
    public static func read(_ text: String) -> Reading {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var payload = Substring(trimmed)
        if trimmed.lowercased().hasPrefix("data:") {
            guard let comma = trimmed.firstIndex(of: ","), trimmed[..<comma].lowercased().hasSuffix(";base64") else {
                return .invalid("a data: URL without ;base64, (okit reads base64 images only)")
            }
            payload = trimmed[trimmed.index(after: comma)...]
        } else {
            let alphabet = payload.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=-_".contains($0) || $0.isWhitespace) }
            guard payload.count >= minimumLength, alphabet, !payload.contains(" ") else { return .notBase64 }
        }
        let compact = payload.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: String(compact)) ?? Data(base64Encoded: urlSafe(String(compact))) else {
            return .invalid("the text is not valid base64")
        }
        let bytes = [UInt8](data)
        guard let format = ImageFormat.raster(of: bytes) else {
            return .invalid("the text decodes to \(bytes.count) bytes of no image format (PNG, JPEG, GIF or WebP)")
        }
        return .image(Base64Image(bytes: bytes, format: format))
    }

    /// Base64 with the URL-safe alphabet (`-`, `_`) and without padding, in the standard alphabet, padded.
    static func urlSafe(_ text: String) -> String {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return s
    }

    /// The bytes of an image a binding gave as a text (for a front end serving the image); nil when the value is
    /// no text or not base64; an error naming the problem when it is base64 of no image.
    public static func bytes(of value: Value) throws -> [UInt8]? {
        guard case .string(let text) = value else { return nil }
        switch read(text) {
        case .notBase64: return nil
        case .image(let image): return image.bytes
        case .invalid(let why): throw Base64ImageError(message: why)
        }
    }
}

/// A text taken as a base64 image that is none (`Base64Image.bytes(of:)`).
public struct Base64ImageError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { "image: \(message)" }
}
