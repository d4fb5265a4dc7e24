import OKitEngine

/// The front end's words for remedies, kept with a Lua state: an error a Swift function raises into Lua becomes the
/// Lua error string a script (and then the person) reads, worded as the app's front end words it (okit-run its
/// commands and flags, the web for a browser). `LuaApp` sets it from `SessionOptions.remedyWording`.
extension LuaState {
    private static let remedyWordingKey = "okit.remedyWording"

    /// The wording of remedies for errors raised into Lua; nil leaves them neutral.
    public var remedyWording: (@Sendable (Remedy) -> String)? {
        get { (hostData[Self.remedyWordingKey] as? RemedyWordingBox)?.words }
        set { hostData[Self.remedyWordingKey] = newValue.map(RemedyWordingBox.init) }
    }

    /// The message a person reads for `error` raised into Lua.
    func wordedMessage(_ error: any Error) -> String {
        Remedy.message(for: error, wording: remedyWording)
    }
}

/// Holds the wording in `LuaState.hostData` (which keeps objects).
private final class RemedyWordingBox {
    let words: @Sendable (Remedy) -> String
    init(_ words: @escaping @Sendable (Remedy) -> String) { self.words = words }
}
