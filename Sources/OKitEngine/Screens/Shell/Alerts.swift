import Foundation

/// An alert, action sheet or prompt waiting for an answer (screens.md "Alerts"). Built-in screens use the same
/// mechanism for OKit's prompts (add name, delete confirmation).
public final class PendingAlert {
    public let kind: String
    public let title: String?
    public let message: String?
    public let actions: [String]
    /// Its text fields; an answer refused keeps what was typed in them (secure ones excepted), so a person who is
    /// told why does not type it all again.
    public private(set) var fields: [AlertFieldSnapshot]
    /// Which actions stay refused while a field is empty (1-based), e.g. OK of the add-name prompt.
    public let needsFields: Set<Int>
    /// Runs with the chosen action (1-based) and the fields' values.
    public let onAction: (Int, [String]) throws -> Void
    /// Checks an answer before the alert closes: a reason refuses it (the alert stays), nil accepts it.
    public let validate: ((Int, [String]) -> String?)?
    /// Opens this dialog again over `screen`, the screen opened again in the place of the one it was shown over
    /// (a live reload, `AppShell.restore`): presents the same dialog of that screen's own; nil when it cannot be.
    public var reopen: ((any ShellScreen) throws -> Void)?
    /// The entry the dialog's actions act on (a row's More sheet): removed meanwhile, the dialog closes
    /// (`closeAlertsOverRemovedEntries`) rather than run an action on an entry that is gone.
    public weak var entry: Entity?

    public init(kind: String, title: String?, message: String?, actions: [String], fields: [AlertFieldSnapshot] = [],
                needsFields: Set<Int> = [], validate: ((Int, [String]) -> String?)? = nil,
                onAction: @escaping (Int, [String]) throws -> Void) {
        self.validate = validate
        self.kind = kind
        self.title = title
        self.message = message
        self.actions = actions
        self.fields = fields
        self.needsFields = needsFields
        self.onAction = onAction
    }

    /// The position of the one action whose title matches `action` case and accents aside; nil for none, or
    /// when several do (then only the exact title chooses).
    static func caseInsensitiveMatch(_ action: String, in actions: [String]) -> Int? {
        let matches = actions.indices.filter { MatchedText.same(actions[$0], action) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The position of a built-in action named in English (`respond Yes`) when the alert shows it in the app's
    /// language ("Ja"): scripts and tests written in English answer OKit's own alerts in every language.
    static func builtInMatch(_ action: String, in actions: [String], _ words: BuiltInWords) -> Int? {
        guard let word = BuiltInWord.allCases.first(where: { $0.rawValue.compare(action, options: .caseInsensitive) == .orderedSame })
        else { return nil }
        return caseInsensitiveMatch(words(word), in: actions)
    }

    /// Keeps the values of a refused answer in the fields (not a secure field's: a password is typed again).
    func keep(_ values: [String]) {
        for i in fields.indices where i < values.count && !fields[i].secure { fields[i].value = values[i] }
    }

    /// Takes the values `other` keeps in its fields (the dialog this one opens again), not a secure field's.
    func keepValues(of other: PendingAlert) {
        for i in fields.indices where i < other.fields.count && !fields[i].secure {
            if let v = other.fields[i].value { fields[i].value = v }
        }
    }

    var snapshot: AlertSnapshot {
        AlertSnapshot(kind: kind, title: title, message: message, actions: actions, fields: fields)
    }
}

extension AppShell {
    /// Shows an alert (after the ones already waiting).
    public func present(_ alert: PendingAlert) { alerts.append(alert) }

    /// The alert waiting for an answer, if any.
    public var pendingAlert: PendingAlert? { alerts.first }

    /// Answers the waiting alert: the action by title (the exact title first, else the one title that matches
    /// without regard to case) or 1-based position, and the prompt's field values.
    /// Alerts raised while it runs appear after it closes. One transaction.
    public func respond(_ action: String, fields: [String] = []) throws {
        guard let alert = alerts.first else { throw ShellError.noAlert }
        let index: Int
        if let n = Int(action), n >= 1, n <= alert.actions.count {
            index = n
        } else if let i = alert.actions.firstIndex(of: action) ?? PendingAlert.caseInsensitiveMatch(action, in: alert.actions)
                    ?? PendingAlert.builtInMatch(action, in: alert.actions, engine.builtInWords) {
            index = i + 1
        } else {
            throw ShellError.noAction(action, actions: alert.actions)
        }
        guard fields.count <= alert.fields.count else {
            // Never dropped without a word: `respond OK Alpha Beta` on a one-field prompt meant one field with a space.
            let names = alert.fields.enumerated().map { i, field in
                guard let p = field.placeholder, !p.isEmpty else { return "field \(i + 1)" }
                return p
            }
            let given = Double(fields.count)
            throw CommandUsageError { words in
                names.isEmpty ? words(.noFields, count: given, String(fields.count))
                    : words(.tooManyFields, count: given, String(fields.count), String(names.count), ShellError.briefList(names, words))
            }
        }
        var values = fields
        while values.count < alert.fields.count { values.append(alert.fields[values.count].value ?? "") }
        if alert.needsFields.contains(index), values.prefix(alert.fields.count).contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            alert.keep(values)
            throw ShellError.worded(engine.word(.fillEveryField, ShellError.brief(alert.actions[index - 1], 40)))
        }
        if let reason = alert.validate?(index, values) {
            alert.keep(values)
            throw refused(alert.actions[index - 1], reason)
        }
        alerts.removeFirst()
        do {
            try engine.asAction { try engine.transaction { try alert.onAction(index, values) } }
        } catch let invalid as InvalidValue {
            // A field's rule refused the answer (an add-name prompt): the prompt stays with what was typed, nothing
            // changed.
            alert.keep(values)
            alerts.insert(alert, at: 0)
            throw refused(alert.actions[index - 1], invalid.message)
        }
    }

    /// `OK is refused: Title is required`, in the app's language.
    func refused(_ action: String, _ reason: String) -> ShellError {
        .worded(engine.word(.isRefused, ShellError.brief(action, 40), reason))
    }
}
