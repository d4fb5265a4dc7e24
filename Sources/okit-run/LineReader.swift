import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lines from a file descriptor with a deadline: the JSON-lines loop waits for the next command or the next
/// timer of the app clock (autosave, `okit.after`), whichever comes first, on one thread. A line longer than
/// `maxLineBytes` is not kept: its bytes are dropped up to its end and it comes as `tooLong` with its size, so a
/// hostile line costs one pass over its bytes and no memory. A line that is no UTF-8 comes as `invalidUTF8` with
/// where, never with its bad bytes replaced unseen.
final class LineReader {
    enum Event { case line(String), tooLong(Int), invalidUTF8(at: Int), timeout, interrupted, end }

    /// The longest command line taken, in bytes.
    static let maxLineBytes = 1 << 20

    /// The answer to a line whose bytes are no UTF-8 (`at`: the offset of the first bad byte in the line).
    static func invalidUTF8Message(_ at: Int) -> String {
        "malformed command: invalid UTF-8 at byte \(at) of the line (send text as UTF-8): nothing was done"
    }

    /// The line as text, or where its first byte that is no UTF-8 is (never replaced by U+FFFD unseen).
    static func decode(_ bytes: ArraySlice<UInt8>) -> Event {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return .line(String(decoding: bytes, as: UTF8.self))
            case .error: return .invalidUTF8(at: offset)
            }
        }
    }

    /// The answer to a line past `maxLineBytes`.
    static func tooLongMessage(_ bytes: Int) -> String {
        "command line too long (\(bytes) bytes; the limit is \(maxLineBytes >> 20) MiB): nothing was done"
    }

    let fd: Int32
    let maxLine: Int
    private var buffer: [UInt8] = []
    /// Where the bytes not yet returned begin in `buffer`.
    private var start = 0
    /// How many bytes from `start` are known to hold no line end.
    private var scanned = 0
    /// Bytes of a line past `maxLine` dropped so far (nil: not inside one).
    private var dropped: Int?
    private var ended = false

    init(fd: Int32 = 0, maxLine: Int = LineReader.maxLineBytes) {
        self.fd = fd
        self.maxLine = maxLine
    }

    /// The next line (without its line end), `tooLong` for a line past `maxLine`, `timeout` when `deadline`
    /// passes first, `interrupted` when a signal came, `end` at the end of input.
    func next(deadline: Date?) -> Event {
        while true {
            if let event = takeLine() { return event }
            if ended { return takeRest() }
            if let deadline {
                let ms = deadline.timeIntervalSinceNow * 1000
                if ms.isNaN || ms <= 0 { return .timeout }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let r = poll(&p, 1, Int32(min(ms.rounded(.up), Double(Int32.max))))
                if r == 0 { return .timeout }
                if r < 0 { if errno == EINTR { return .interrupted }; ended = true; continue }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { return .interrupted }
                ended = true
            } else if n == 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[..<n])
            }
        }
    }

    /// The first whole line in the buffer, if any; past `maxLine` without a line end the bytes are dropped.
    private func takeLine() -> Event? {
        let from = start + scanned
        let found: Int? = buffer.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress, from < b.count, let hit = memchr(base + from, 0x0A, b.count - from) else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
        guard let nl = found else {
            scanned = buffer.count - start
            if dropped != nil || scanned > maxLine {
                dropped = (dropped ?? 0) + scanned
                buffer.removeAll(keepingCapacity: true)
                (start, scanned) = (0, 0)
            }
            return nil
        }
        var end = nl
        if end > start, buffer[end - 1] == 0x0D { end -= 1 }
        let length = end - start
        let event: Event
        if let d = dropped {
            event = .tooLong(d + length)
        } else if length > maxLine {
            event = .tooLong(length)
        } else {
            event = Self.decode(buffer[start..<end])
        }
        dropped = nil
        (start, scanned) = (nl + 1, 0)
        if start == buffer.count || start > 1 << 20 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        return event
    }

    /// What is left at the end of input: a last line without a line end, or `end`.
    private func takeRest() -> Event {
        defer { buffer.removeAll(); (start, scanned, dropped) = (0, 0, nil) }
        let length = buffer.count - start
        if let d = dropped { return .tooLong(d + length) }
        if length == 0 { return .end }
        if length > maxLine { return .tooLong(length) }
        return Self.decode(buffer[start...])
    }
}
