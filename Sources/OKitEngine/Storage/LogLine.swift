/// A line for the log of whoever runs the process (`okit-run serve`'s stderr): what happened beyond any one command
/// that a person's page cannot explain — a shared model's database out of reach or refusing the login, and back; pending
/// changes stored at start, or not kept on disk; a conflict. Its way out is a `Remedy`, worded by the front end that
/// writes the log (okit-run's words: the operator reads it). `SessionOptions.log` receives them.
public struct LogLine: RemedyCarrying, Sendable, Equatable {
    public let text: String
    public let remedy: Remedy?
    /// Something went wrong or was lost (`okit-run: warning: …`), not just news (`okit-run: …`).
    public let isWarning: Bool

    public init(_ text: String, remedy: Remedy? = nil, warning: Bool) {
        self.text = text
        self.remedy = remedy
        isWarning = warning
    }

    public var neutralDescription: String { text }
    public var description: String { text }
}
