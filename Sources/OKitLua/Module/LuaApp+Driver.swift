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

    /// Going to the background stores the state and, with protection on, covers the app.
    public func background() throws {
        try storeState()
        try shell.wentToBackground()
    }

    /// Coming back uncovers the app when it was away less than the protection timeout.
    public func foreground() throws { try shell.cameToForeground() }

    /// After each command: the `encryption` setting applied to encrypted models.
    public func afterCommand() throws { try applyEncryptionSetting() }

    /// `okit.app { encryption = … }`: while true (or unbound) encrypted models are written sealed, while false
    /// plain; a change rewrites every file of each encrypted model in the new form.
    func applyEncryptionSetting() throws {
        guard let b = shell.settingsBindings["encryption"], let storage = fileStorage else { return }
        let on = try engine.get(shell.settingsContext(), b, mode: .display).truthy
        for m in engine.models where m.storageKind == .encrypted {
            try storage.setSealing(m, on, passphrase: options.passphrase, engine: engine)
        }
    }

    /// Answers the protection cover (`app:authenticate(true)`; the shell asks for it).
    public func authenticate(_ ok: Bool) throws { try shell.authenticate(ok) }
}
