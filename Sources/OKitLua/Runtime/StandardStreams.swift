#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to stdout and stderr without crashing: Foundation's `FileHandle.write(_:)` traps when the write fails
/// (a closed descriptor, a full disk, a reader that went away with SIGPIPE ignored). These write with POSIX
/// `write`, retry on EINTR and report a failure instead.
public enum StandardStreams {
    /// Writes all of `text` to a descriptor; false when it fails (EPIPE, EBADF, ENOSPC, …).
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                #if canImport(Glibc)
                return Glibc.write(fd, base + done, buffer.count - done)
                #else
                return Darwin.write(fd, base + done, buffer.count - done)
                #endif
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            if n == 0 { return false }
            done += n
        }
        return true
    }

    /// Writes to stderr; a failure is ignored (there is nowhere left to say it).
    public static func error(_ text: String) { write(text, to: 2) }

    /// Writes to stdout; false when stdout is broken.
    @discardableResult
    public static func output(_ text: String) -> Bool { write(text, to: 1) }
}
