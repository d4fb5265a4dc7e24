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

    /// Going to the background stores the state and, with protection on, covers the app and starts the timer that
    /// drops the keys of encrypted models when the protection timeout passes (at once for a timeout of 0).
    public func background() throws {
        try storeState()
        try shell.wentToBackground()
        guard shell.covered, let storage = fileStorage else { return }
        keyDropTimer?.cancel()
        let timeout = try shell.protectionTimeout()
        if timeout <= 0 { storage.dropKeys(); return }
        keyDropTimer = timers.schedule(at: engine.clock.now.addingTimeInterval(timeout)) { [unowned self] in
            if shell.covered { fileStorage?.dropKeys() }
        }
    }

    /// Coming back uncovers the app when it was away less than the protection timeout.
    public func foreground() throws {
        try shell.cameToForeground()
        if !shell.covered { keyDropTimer?.cancel(); keyDropTimer = nil }
    }

    /// After each command: the `encryption` setting applied to encrypted models.
    public func afterCommand() throws {
        try runDeferredNavigation()
        try applyEncryptionSetting()
    }

    /// `okit.app { encryption = … }`: while true (or unbound) encrypted models are written sealed, while false
    /// plain; a change rewrites every file of each encrypted model in the new form.
    func applyEncryptionSetting() throws {
        guard let b = shell.settingsBindings["encryption"], let storage = fileStorage else { return }
        let on = try engine.get(shell.settingsContext(), b, mode: .display).truthy
        for m in engine.models where m.storageKind == .encrypted {
            try storage.setSealing(m, on, passphrase: options.passphrase, engine: engine)
        }
    }

    /// Answers the protection cover (`app:authenticate(true)`); a success brings the dropped keys back (derived from
    /// `OKIT_PASSPHRASE` or read from the key file again).
    public func authenticate(_ ok: Bool) throws {
        guard shell.covered else { throw ShellError.notCovered }
        if ok { try fileStorage?.restoreKeys(passphrase: options.passphrase) }
        try shell.authenticate(ok)
        keyDropTimer?.cancel()
        keyDropTimer = nil
    }

    /// The shell's answer to the cover: the app's `authenticate` function when it declares one; else the passphrase
    /// typed (checked against the key the data is sealed with; compared with `OKIT_PASSPHRASE` when nothing is
    /// sealed); without a passphrase set, the cover lifts (the key file stands in for the device's own check).
    public func authenticate(passphrase: String?) throws {
        guard shell.covered else { throw ShellError.notCovered }
        if let fn = authenticateFn {
            return try authenticate(try callLua(fn, []).truthy)
        }
        guard let expected = options.passphrase, !expected.isEmpty else { return try authenticate(true) }
        guard let typed = passphrase, !typed.isEmpty else { throw ShellError.authenticationFailed }
        if let storage = fileStorage, storage.keysDropped {
            do { try storage.restoreKeys(passphrase: typed) } catch { throw ShellError.authenticationFailed }
        } else if typed != expected {
            throw ShellError.authenticationFailed
        }
        try authenticate(true)
    }

    /// Whether the shell should ask for a passphrase to authenticate (one is set and the app has no function).
    public var authenticatesByPassphrase: Bool { authenticateFn == nil && !(options.passphrase ?? "").isEmpty }
}
