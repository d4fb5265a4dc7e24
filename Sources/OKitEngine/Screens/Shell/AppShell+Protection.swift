import Foundation

/// Protection (storage.md "Protection"): with `okit.app { protection = … }` bound and true, going to the background
/// covers the app; coming back within `protectionTimeout` minutes (on the app clock, so the virtual clock in
/// tests) uncovers it, later it stays covered until `authenticate`. While covered only `authenticate`,
/// `respond`, the lifecycle and the clock commands run, and the snapshot shows nothing of the models.
extension AppShell {
    /// True when `okit.app` binds `protection` and it is true now.
    public func protectionOn() throws -> Bool {
        guard let b = settingsBindings["protection"] else { return false }
        return try engine.get(settingsContext(), b, mode: .display).truthy
    }

    /// The timeout in seconds: `protectionTimeout` minutes, a number or text such as okit.Settings' timeout ids
    /// (`"protectionTimeout/ref/id"`; 0: immediately); 5 minutes when not bound.
    public func protectionTimeout() throws -> TimeInterval {
        guard let b = settingsBindings["protectionTimeout"] else { return 300 }
        let v = try engine.get(settingsContext(), b, mode: .display)
        let minutes = v.doubleValue ?? v.displayString.flatMap { Double($0) } ?? 5    // a number, or an id like "5"
        return max(0, minutes) * 60
    }

    /// The app went to the background: covered when protection is on, with `protectionText` on the cover.
    public func wentToBackground() throws {
        guard try protectionOn() else { return }
        covered = true
        backgroundedAt = engine.clock.now
        // `protectionCover` (default true): whether the cover shows its text and image. Covered either way.
        let art = try settingsBindings["protectionCover"].map { try engine.get(settingsContext(), $0, mode: .display).truthy } ?? true
        cover = art ? try settingsBindings["protectionText"].flatMap { try engine.text(settingsContext(), $0) } ?? "" : nil
        coverImage = art ? try settingsBindings["protectionImage"].flatMap { try engine.text(settingsContext(), $0) } : nil
    }

    /// The cover's screen: nothing of the models; with `protectionCover` on, one row with the cover's text and
    /// image.
    var coverScreen: ScreenSnapshot {
        var s = ScreenSnapshot(id: "cover", kind: "cover", context: nil)
        if cover?.isEmpty == false || coverImage?.isEmpty == false {
            var row = RowSnapshot(id: "cover", text: cover, detail: nil)
            row.image = coverImage?.isEmpty == false ? coverImage : nil
            s.sections = [SectionSnapshot(header: nil, footer: nil, rows: [row])]
            s.rowCount = 1
        }
        return s
    }

    /// The app came back: uncovered when it was away less than the timeout; otherwise it stays covered.
    public func cameToForeground() throws {
        guard covered, let since = backgroundedAt else { return }
        let timeout = try protectionTimeout()
        if timeout > 0, engine.clock.now.timeIntervalSince(since) < timeout {
            uncover()
        }
    }

    /// True when the cover waits for `authenticate` (away longer than the timeout, or back in the background).
    public var needsAuthentication: Bool { covered }

    /// Answers the cover: `true` uncovers, `false` fails and leaves it covered.
    public func authenticate(_ ok: Bool) throws {
        guard covered else { throw ShellError.notCovered }
        guard ok else { throw ShellError.authenticationFailed }
        uncover()
    }

    func uncover() {
        covered = false
        cover = nil
        coverImage = nil
        backgroundedAt = nil
    }
}
