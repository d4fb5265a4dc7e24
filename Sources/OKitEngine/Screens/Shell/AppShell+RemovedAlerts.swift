extension AppShell {
    /// Closes the dialogs whose entry was removed meanwhile (a row's More sheet over a book someone else deleted):
    /// an answer would run its action on an entry that is gone (a script error in the person's face). True when one
    /// closed; the front end says so in its words.
    public func closeAlertsOverRemovedEntries() -> Bool {
        let before = alerts.count
        alerts.removeAll { $0.entry?.state == .removed }
        return alerts.count != before
    }
}
