import Foundation
import OKitLua
#if canImport(Glibc)
import Glibc
#endif

/// The signal that asked the process to stop (SIGINT, SIGTERM or SIGHUP), or 0. Written only by the handler below (one
/// aligned word, as `sig_atomic_t` is) and read by the main loop, which then stores the state and exits.
nonisolated(unsafe) private var stopSignalReceived: sig_atomic_t = 0

/// SIGINT, SIGTERM and SIGHUP (protection.md "Autosave and stopping": okit-run stores the state on them; SIGHUP is
/// the terminal closing — its window, an ssh connection that dropped). The handlers only record the signal and are
/// installed without `SA_RESTART`, so a blocking read returns `EINTR` and the loop that waits for input sees the
/// request at once; the main loop then stores the state and exits with 128 + the signal. Writing to a terminal
/// that is gone fails (EIO, or EPIPE with SIGPIPE ignored) without stopping that store.
enum StopSignals {
    /// The signals that store the state and stop.
    static let stopping = [SIGINT, SIGTERM, SIGHUP]

    static func install() {
        for sig in stopping {
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
        for sig in stopping { sigaddset(&unblock, sig) }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The stop signal received so far, or nil.
    static var received: Int32? { stopSignalReceived == 0 ? nil : stopSignalReceived }
}
