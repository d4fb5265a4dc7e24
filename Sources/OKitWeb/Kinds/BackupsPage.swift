import OKitEngine

/// The backups screen: a create form, the backups with restore, download and delete, an upload form
/// (PageRenderer+Backups.swift). Restoring and deleting need the login token; its compound forms answer the
/// prompts the command opens with the form's fields.
public struct BackupsPage: WebScreenKind {
    public init() {}

    public func body(_ page: PageRenderer) -> [HTMLNode] { page.backupsBody() }

    public func needsToken(_ command: String, _ place: WebCommandPlace) -> Bool {
        command == "tap" || command == "delete" || command == "respond"
    }

    /// The create and restore forms carry the name and passwords as `fields`: the prompts `add` and `tap` open are
    /// answered with them.
    public func afterCommand(_ command: String, fields: [String], _ driver: Driver) throws {
        guard command != "respond", !fields.isEmpty else { return }
        for _ in 0..<3 {
            guard let alert = try driver.shell.snapshot().alert else { break }
            let answer: [String: Value] = alert.fields.isEmpty ? ["action": .int(1)] : ["action": .int(1), "fields": .list(fields.map { .string($0) })]
            try driver.run("respond", answer)
        }
    }
}
