import Foundation

/// Protection for front ends with many people (web.md "Sessions"): a shell is covered when its person went away
/// (the page was hidden) or was idle for the protection timeout.
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

    /// The protection timeout of the app's settings, in seconds (5 minutes when unbound).
    public func protectionTimeout() throws -> TimeInterval { try shell.protectionTimeout() }
}
