import CLua

/// A process-wide request to stop running Lua code (lua-api.md "Sandbox and limits"): okit-run's SIGINT/SIGTERM
/// handler calls `request`, and the count hook of every Lua state then ends the running code with
/// `stopped by signal N` (a coroutine or a `pcall` cannot swallow it), so the command returns and the main loop
/// stores the state and exits.
///
/// Safe from a signal handler: the flag is a C `volatile sig_atomic_t` in Sources/CLua/shim.c, and `request`
/// does nothing but store it (no allocation, no lock, no Swift runtime call); the hook only reads it.
public enum LuaStop {
    /// Records the stop signal (async-signal-safe).
    @inline(__always)
    public static func request(signal: Int32) { okit_request_stop(signal) }

    /// The signal recorded so far, or nil.
    public static var requested: Int32? {
        let s = okit_stop_requested()
        return s == 0 ? nil : s
    }

    /// Forgets the request (tests that run in the process).
    public static func clear() { okit_clear_stop() }
}
