import Foundation

/// Protection for front ends with many people (web.md "Sessions"): a shell is covered when its person went away
/// (the page was hidden) or was idle for the protection timeout — and, where the cover is a lock, from its start.
extension AppSession {
    /// Covers a shell whose person has been idle since `since` (when protection is on), as if it had gone to the
    /// background then: coming back after the timeout needs authentication. The keys of encrypted models are
    /// dropped when every shell is covered. Returns true when the shell is covered now.
    @discardableResult
    public func coverIdle(_ shell: AppShell, since: Date) throws -> Bool {
        guard !shell.covered, try shell.protectionOn() else { return shell.covered }
        try shell.wentToBackground()
        shell.backgroundedAt = since
        if allCovered { fileStorage?.dropKeys() }
        return shell.covered
    }

    /// Covers a shell at its start when protection is on, as OKit covers the app at launch: a new person's shell
    /// is a launch, and only `authenticate` lifts its cover (coming back never does, whatever the timeout). The
    /// keys stay as they are: dropped ones come back only with an authentication that passed. Returns true when
    /// the shell is covered.
    @discardableResult
    public func coverAtLaunch(_ shell: AppShell) throws -> Bool {
        guard !shell.covered, try shell.protectionOn() else { return shell.covered }
        try shell.wentToBackground()
        shell.backgroundedAt = .distantPast
        return shell.covered
    }

    /// Carries a shell's cover onto the shell that takes its place (development mode's live reload): a covered
    /// person stays covered until they authenticate.
    public func keepCover(of old: AppShell, on new: AppShell) {
        guard old.covered else { return }
        new.covered = true
        new.cover = old.cover
        new.coverImage = old.coverImage
        new.backgroundedAt = old.backgroundedAt ?? .distantPast
    }

    /// The protection timeout of the app's settings, in seconds (5 minutes when unbound).
    public func protectionTimeout() throws -> TimeInterval { try shell.protectionTimeout() }
}
