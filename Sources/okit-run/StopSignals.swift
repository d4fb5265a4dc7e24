import Foundation
import OKitLua
#if canImport(Glibc)
import Glibc
#endif

/// The signal that asked the process to stop (SIGINT or SIGTERM), or 0. Written only by the handler below (one
/// aligned word, as `sig_atomic_t` is) and read by the main loop, which then stores the state and exits.
nonisolated(unsafe) private var stopSignalReceived: sig_atomic_t = 0

/// SIGINT and SIGTERM (storage.md "State": okit-run stores the state on them). The handlers only record the
/// signal and are installed without `SA_RESTART`, so a blocking read returns `EINTR` and the loop that waits
/// for input sees the request at once; the main loop then stores the state and exits with 128 + the signal.
enum StopSignals {
    static func install() {
        for sig in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in stopSignalReceived = signal; LuaStop.request(signal: signal) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, nil)
        }
        // A parent may have started us with these signals blocked (a mask is inherited across exec, and thread
        // pools such as libdispatch's block them on their threads); unblock them so the handlers can run.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The stop signal received so far, or nil.
    static var received: Int32? { stopSignalReceived == 0 ? nil : stopSignalReceived }
}

/// Lines from a file descriptor with a deadline: the JSON-lines loop waits for the next command or the next
/// timer of the app clock (autosave, `okit.after`), whichever comes first, on one thread.
final class LineReader {
    enum Event { case line(String), timeout, interrupted, end }

    let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(fd: Int32 = 0) { self.fd = fd }

    /// The next line (without its line end), or `timeout` when `deadline` passes first, `interrupted` when a
    /// signal came, `end` at the end of input.
    func next(deadline: Date?) -> Event {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                if line.last == 0x0D { line.removeLast() }
                return .line(String(decoding: line, as: UTF8.self))
            }
            if ended {
                if buffer.isEmpty { return .end }
                defer { buffer.removeAll() }
                return .line(String(decoding: buffer, as: UTF8.self))
            }
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
}
