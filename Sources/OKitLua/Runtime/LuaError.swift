/// A Lua error as Swift sees it: what kind, the message (`app.lua:3: boom`), and the traceback when there is one.
///
/// The kind of an abort (budget, memory) comes from flags the hook and the allocator set, never from the text.
public struct LuaError: Error, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        /// The chunk does not compile (or is a binary chunk).
        case syntax
        /// A runtime error (raised by `error`, a bad operation, or a host function).
        case runtime
        /// The memory limit was reached.
        case memory
        /// The instruction budget was used up.
        case budget
        /// The host could not do what was asked (closed state, unreadable file, unconvertible value).
        case host
    }

    public let kind: Kind
    /// The message, with the `chunk:line:` prefix Lua gives it (`app.lua:3: boom`).
    public let message: String
    /// `stack traceback:` and its lines, when the error came out of a protected call.
    public let traceback: String?

    public init(kind: Kind, message: String, traceback: String? = nil) {
        self.kind = kind
        self.message = message
        self.traceback = traceback
    }

    /// `chunk:line` of the message, when it starts with one (`app.lua:3: …`).
    public var location: (chunk: String, line: Int)? {
        let parts = message.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let line = Int(parts[1]), !parts[0].isEmpty, !parts[0].contains(" ") else { return nil }
        return (String(parts[0]), line)
    }

    /// The chunk the message names (`app.lua`), if any.
    public var chunk: String? { location?.chunk }

    /// The line the message names, if any.
    public var line: Int? { location?.line }

    public var description: String { message }
}

/// An error a Swift function raises into Lua: the message is what a Lua `error("…")` would carry.
///
/// Throw it from a `LuaFunction`; the trampoline raises it in Lua once the Swift frame has returned, so Lua code
/// can catch it with `pcall` and Swift `defer` blocks run.
public struct LuaRaise: Error, CustomStringConvertible {
    public let message: String
    /// Whether to prefix the Lua caller's position (`app.lua:3: `), like `luaL_error`.
    public let withPosition: Bool

    public init(_ message: String, withPosition: Bool = true) {
        self.message = message
        self.withPosition = withPosition
    }

    public var description: String { message }
}
