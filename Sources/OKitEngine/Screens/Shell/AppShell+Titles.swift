extension AppShell {
    /// The titles of the screens on the current tab's stack, bottom first (nil for a screen without one, or whose
    /// title fails): what a breadcrumb names them by.
    public func stackTitles() -> [String?] {
        guard !stacks.isEmpty else { return [] }
        return stacks[tabIndex].map { screen in (try? screen.tabTitle()) ?? nil }
    }
}
