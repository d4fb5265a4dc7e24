import Foundation
import OKitEngine

/// The app as the driver's host: storing, relaunching from storage, the virtual clock and the app lifecycle.
extension LuaApp: DriverHost {
    public func store() throws { try storeState() }

    /// Stores the state, drops every model from memory and loads it again from storage, then starts the
    /// navigation again at home (the Lua code is not run again: declarations stay as they are).
    public func relaunch() throws {
        try storeState()
        for m in engine.models { try engine.reload(m) }
        try startShell()
    }

    /// Moves the virtual clock and fires the timers that fell due; a timer's error is reported after all ran.
    public func advance(seconds: Double) throws {
        guard virtualClock != nil else { throw ShellError.notAllowed("advance (the clock is the system clock; run with --clock virtual)", "app") }
        let errors: [Error] = advance(seconds)
        if let first = errors.first { throw first }
    }

    /// Going to the background stores the state (protection covers the app once settings arrive).
    public func background() throws { try storeState() }

    public func foreground() throws {}

    public func authenticate(_ ok: Bool) throws {
        throw ShellError.notAllowed("authenticate (the app is not covered)", "app")
    }
}
