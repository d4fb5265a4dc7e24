import Foundation

/// A `multipart/form-data` body parsed as its chunks arrive (`MultipartBody`'s rules): the text fields are kept,
/// the one file's bytes are written to `file` as they come, so an upload of any size holds at most a chunk and a
/// delimiter in memory. `finish` tells whether the body was whole.
public struct MultipartStream {
    enum State {
        case preamble
        case afterDelimiter
        case headers
        case content(name: String, filename: String?)
        case done
    }

    private let delimiter: [UInt8]
    /// CR LF and the delimiter: what ends a part's content.
    private let contentEnd: [UInt8]
    private let fileURL: URL
    private var state = State.preamble
    private var buffer: [UInt8] = []
    private var parts = 0
    private var text: [UInt8] = []
    private var output: FileHandle?
    private var written = 0
    private var filename: String?
    private var fields: [(name: String, value: String)] = []

    /// A parser for a body of this content type whose file goes to `file` (created when the file part starts).
    public init(contentType: String, file: URL) throws(MultipartError) {
        guard let boundary = MultipartBody.boundary(contentType: contentType) else { throw .noBoundary }
        delimiter = Array("--\(boundary)".utf8)
        contentEnd = [13, 10] + delimiter
        fileURL = file
    }

    /// The next bytes of the body.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(MultipartError) {
        buffer.append(contentsOf: bytes)
        while try step() {}
    }

    /// The body ended: the fields and the file, or an error when it was cut short.
    public mutating func finish() throws(MultipartError) -> (fields: [(name: String, value: String)], file: WebUpload?) {
        try? output?.close()
        output = nil
        guard case .done = state else {
            if case .preamble = state { throw .malformed("no opening delimiter") }
            throw .malformed("the body ends before its closing delimiter")
        }
        return (fields, filename.map { WebUpload(filename: $0, file: fileURL, size: written) })
    }

    /// One step on the buffered bytes; false when more bytes are needed.
    private mutating func step() throws(MultipartError) -> Bool {
        switch state {
        case .preamble:
            // The first delimiter opens the body (a preamble before it is ignored, as RFC 2046 says).
            guard let at = MultipartBody.find(delimiter, in: buffer, from: 0) else {
                buffer.removeFirst(max(0, buffer.count - delimiter.count))
                return false
            }
            buffer.removeFirst(at + delimiter.count)
            state = .afterDelimiter
            return true
        case .afterDelimiter:
            guard buffer.count >= 2 else { return false }
            if buffer[0] == 45, buffer[1] == 45 { state = .done; buffer = []; return false }   // "--": the end
            guard buffer[0] == 13, buffer[1] == 10 else { throw .malformed("a delimiter is not followed by a line break") }
            buffer.removeFirst(2)
            parts += 1
            guard parts <= MultipartBody.maxParts else { throw .tooManyParts }
            state = .headers
            return true
        case .headers:
            guard let end = MultipartBody.find([13, 10, 13, 10], in: buffer, from: 0, limit: MultipartBody.maxHeader) else {
                if buffer.count > MultipartBody.maxHeader + 4 { throw .malformed("a part's headers do not end") }
                return false
            }
            let disposition = try MultipartBody.disposition(String(decoding: buffer[0..<end], as: UTF8.self))
            buffer.removeFirst(end + 4)
            try begin(disposition)
            return true
        case .content(let name, let file):
            return try content(name: name, isFile: file != nil)
        case .done:
            buffer = []
            return false
        }
    }

    private mutating func begin(_ part: (name: String, filename: String?)) throws(MultipartError) {
        text = []
        if let name = part.filename {
            guard filename == nil else { throw .twoFiles }
            filename = name
            FileManager.default.createFile(atPath: fileURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
            guard let handle = FileHandle(forWritingAtPath: fileURL.path) else {
                throw .notKept("\(fileURL.deletingLastPathComponent().path) cannot be written")
            }
            output = handle
        }
        state = .content(name: part.name, filename: part.filename)
    }

    /// Content up to the next delimiter: everything but a tail that could be the start of one is passed on.
    private mutating func content(name: String, isFile: Bool) throws(MultipartError) -> Bool {
        let end = MultipartBody.find(contentEnd, in: buffer, from: 0)
        let upTo = end ?? max(0, buffer.count - (contentEnd.count - 1))
        if upTo > 0 { try emit(buffer[0..<upTo], isFile: isFile) }
        guard let end else {
            buffer.removeFirst(upTo)
            return false
        }
        buffer.removeFirst(end + contentEnd.count)
        if isFile {
            try? output?.close()
            output = nil
        } else {
            fields.append((name, String(decoding: text, as: UTF8.self)))
        }
        state = .afterDelimiter
        return true
    }

    private mutating func emit(_ bytes: ArraySlice<UInt8>, isFile: Bool) throws(MultipartError) {
        if isFile {
            do { try output?.write(contentsOf: Data(bytes)) } catch {
                throw .notKept("\(fileURL.deletingLastPathComponent().path) cannot be written")
            }
            written += bytes.count
        } else {
            text.append(contentsOf: bytes)
            guard text.count <= MultipartBody.maxText else {
                throw .malformed("a text field is longer than \(MultipartBody.maxText) bytes")
            }
        }
    }
}
