import Foundation

/// The session as its drivers' host: storing, relaunching from storage, the virtual clock, and the app
/// lifecycle of each shell — going to the background, coming back, the protection cover and the key drop.
extension AppSession: DriverHost {
    public func store() throws { try storeState() }

    /// Stores the state, drops every model from memory and loads it again from storage, then starts every shell
    /// again at home (the declarations stay as they are: app code is not run again).
    public func relaunch() throws {
        try storeState()
        for m in engine.models { try engine.reload(m) }
        try restart()
    }

    /// Moves the virtual clock and fires the timers that fell due; a timer's error is reported after all ran.
    /// Firing stops at `TimerQueue.maxFirings`: a warning (logged by `fireTimers`), not a failure — the clock has
    /// moved and what the timers did stays. A move past the clock's range is refused before anything moves.
    public func advance(seconds: Double) throws {
        guard let clock = virtualClock else { throw ShellError.notAllowed("advance (the clock is the system clock; run with --clock virtual)", "app") }
        let latest = VirtualClock.latest.timeIntervalSince(clock.now)
        guard seconds <= latest else {
            func shown(_ d: Double) -> String { abs(d) < 1e15 && d == d.rounded() ? String(Int(d)) : "\(d)" }
            throw CommandUsageError(message: "advance: \(shown(seconds)) seconds would take the clock past 9999-12-31T23:59:59Z, "
                + "the latest it holds (at most \(shown(max(0, latest.rounded(.down)))) from now); the clock is unchanged")
        }
        let errors = advance(seconds).filter { !($0 is TimerQueue.LimitReached) }
        if let first = errors.first { throw first }
    }

    /// Going to the background stores the state and, with protection on, covers the shell; when every shell is
    /// covered, starts the timer that drops the keys of encrypted models when the protection timeout passes (at
    /// once for a timeout of 0).
    public func background(_ shell: AppShell) throws {
        try storeState()
        try shell.wentToBackground()
        guard allCovered, let storage = fileStorage else { return }
        keyDropTimer?.cancel()
        let timeout = try shell.protectionTimeout()
        if timeout <= 0 { storage.dropKeys(); return }
        keyDropTimer = timers.schedule(at: engine.clock.now.addingTimeInterval(timeout)) { [unowned self] in
            if allCovered { fileStorage?.dropKeys() }
        }
    }

    /// Coming back uncovers the shell when it was away less than the protection timeout.
    public func foreground(_ shell: AppShell) throws {
        try shell.cameToForeground()
        if !shell.covered { keyDropTimer?.cancel(); keyDropTimer = nil }
    }

    public func willRun(on shell: AppShell) {
        activeShell = shell
        if !followedForCommand { followSharedModels() }
    }

    /// After each command: the declaring side's work (navigation asked for by app code), the `encryption`
    /// setting applied to encrypted models, and shared (postgres) models stored — a store the database refused
    /// (in part or whole) is the command's error.
    public func afterCommand(_ shell: AppShell) throws {
        try callbacks.afterCommand?(shell)
        try applyEncryptionSetting()
        if let error = storeSharedModelsFailing() { throw error }
    }

    /// `okit.app { encryption = … }`: while true (or unbound) encrypted models are written sealed, while false
    /// plain; a change rewrites every file of each encrypted model in the new form.
    public func applyEncryptionSetting() throws {
        guard let b = shell.settingsBindings["encryption"], let storage = fileStorage else { return }
        let on = try engine.get(shell.settingsContext(), b, mode: .display).truthy
        for m in engine.models where m.storageKind == .encrypted {
            try storage.setSealing(m, on, passphrase: options.passphrase, engine: engine)
        }
    }

    /// The `encryption` setting applied to the files (unless the keys are dropped: nothing sealed is touched then).
    func applyEncryptionSettingBeforeStoring() throws {
        if let s = fileStorage, !s.keysDropped { try applyEncryptionSetting() }
    }

    /// The driving program's answer to a shell's protection cover in place of the device's own check
    /// (`app:authenticate(true)`, `{"cmd":"authenticate","ok":true}`): false fails; true lifts the cover — unless
    /// the app declares `authenticate`, which then decides (protection.md: "that function decides").
    public func authenticate(_ shell: AppShell, _ ok: Bool) throws {
        guard shell.covered else { throw ShellError.notCovered }
        guard ok else { throw ShellError.authenticationFailed }
        if let fn = callbacks.authenticate, !(try fn()) { throw ShellError.authenticationFailed }
        try lift(shell)
    }

    /// Lifts the cover after a check that passed; brings the dropped keys back (derived from the passphrase or
    /// read from the key file again).
    func lift(_ shell: AppShell) throws {
        try fileStorage?.restoreKeys(passphrase: options.passphrase)
        try shell.authenticate(true)
        keyDropTimer?.cancel()
        keyDropTimer = nil
    }

    /// A person's answer to the cover: the app's `authenticate` callback when it declares one; else the
    /// passphrase typed (checked against the key the data is sealed with; compared with the session's passphrase
    /// when nothing is sealed); without a passphrase set, the cover lifts (the key file stands in for the
    /// device's own check).
    public func authenticate(_ shell: AppShell, passphrase: String?) throws {
        guard shell.covered else { throw ShellError.notCovered }
        if let fn = callbacks.authenticate {
            guard try fn() else { throw ShellError.authenticationFailed }
            return try lift(shell)
        }
        guard let expected = options.passphrase, !expected.isEmpty else { return try lift(shell) }
        guard let typed = passphrase, !typed.isEmpty else { throw ShellError.authenticationFailed }
        if let storage = fileStorage, storage.keysDropped {
            do { try storage.restoreKeys(passphrase: typed) } catch { throw ShellError.authenticationFailed }
        } else if typed != expected {
            throw ShellError.authenticationFailed
        }
        try lift(shell)
    }

    /// Whether a shell should ask for a passphrase to authenticate (one is set and the app has no function).
    public var authenticatesByPassphrase: Bool { callbacks.authenticate == nil && !(options.passphrase ?? "").isEmpty }

    /// When the next timer of the app clock falls due, if any.
    public var nextTimerDue: Date? { timers.nextDue }

    /// Fires the timers that are due on the app clock; returns their errors (the app keeps running).
    @discardableResult
    public func fireTimers() -> [Error] {
        let errors = timers.fireDue(now: engine.clock.now)
        for case let e as TimerQueue.LimitReached in errors { engine.warn("\(e)") }
        return errors
    }

    /// Moves the virtual clock and fires what fell due.
    @discardableResult
    public func advance(_ seconds: Double) -> [Error] {
        virtualClock?.advance(by: seconds)
        engine.clockMoved()
        return fireTimers()
    }
}
