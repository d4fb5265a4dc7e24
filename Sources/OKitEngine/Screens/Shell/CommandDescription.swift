import Foundation

/// A command as data (screens.md "Commands and addressing"): its name, its arguments in the order of the Lua
/// signature (`app:move(from, to)`), and its usage for a front end's help (`move FROM TO`). The driver checks a
/// command's arguments against its description before anything runs; the front ends read the descriptions to
/// turn their input into arguments (a Lua call's positions, a shell line's words, a web form's fields).
public struct CommandDescription: Sendable, Equatable {
    public let name: String
    public let arguments: [CommandArgument]
    /// How a person types it in the terminal (`tap ROW`, `search TEXT [@SCOPE]`).
    public let usage: String

    /// A command; without a usage, it is the name and the arguments' placeholders (`pick DAY`).
    public init(_ name: String, _ arguments: [CommandArgument] = [], usage: String? = nil) {
        self.name = name
        self.arguments = arguments
        self.usage = usage ?? ([name] + arguments.map(\.placeholder)).joined(separator: " ")
    }

    /// The argument names, in order.
    public var argumentNames: [String] { arguments.map(\.name) }
}

/// An argument of a command: its name (the key of a JSON-lines command, a web form's field) and how it is read.
public struct CommandArgument: Sendable, Equatable {
    public let name: String
    public let form: Form
    /// How the terminal's help writes it (`ROW`, `[TEXT]`).
    public let placeholder: String

    /// How an argument is read from a command's values.
    public enum Form: Sendable, Equatable {
        /// A row or cell (`RowAddress`): a position, a `[section, row]` pair, an id or a row's text; required.
        case row
        /// Text, required.
        case text
        /// Text, or nothing.
        case optionalText
        /// Any value (an edit cell's new value), required.
        case value
        /// A switch: absent or null is on.
        case flag
        /// Texts: a list, or one text (a prompt's fields).
        case texts
        /// A number the command reads itself (`advance`'s seconds, `screen`'s window).
        case number
    }

    public init(_ name: String, _ form: Form, placeholder: String? = nil) {
        self.name = name
        self.form = form
        let upper = name.uppercased()
        self.placeholder = placeholder ?? (form == .optionalText || form == .flag || form == .texts ? "[\(upper)]" : upper)
    }

    public static func row(_ name: String = "row") -> CommandArgument { CommandArgument(name, .row) }
    public static func text(_ name: String) -> CommandArgument { CommandArgument(name, .text) }
    public static func optionalText(_ name: String) -> CommandArgument { CommandArgument(name, .optionalText) }
}

/// The screen commands every kind names the same way: a kind that taps rows takes `tap` with these arguments
/// (its `ScreenKind` binds the description to its own method). A kind's commands of its own are descriptions
/// made in its folder.
extension CommandDescription {
    public static let tap = CommandDescription("tap", [.row()])
    public static let accessory = CommandDescription("accessory", [.row()])
    public static let add = CommandDescription("add", [.optionalText("text")])
    public static let delete = CommandDescription("delete", [.row()])
    public static let move = CommandDescription("move", [.row("from"), .row("to")])
    public static let more = CommandDescription("more", [.row()])
    public static let quick = CommandDescription("quick", [.row()])
    public static let select = CommandDescription("select", [.row()])
    public static let set = CommandDescription("set", [CommandArgument("cell", .row), CommandArgument("value", .value)])
    public static let search = CommandDescription("search", [.optionalText("text"), .optionalText("scope")],
                                                  usage: "search TEXT [@SCOPE]")
    public static let button = CommandDescription("button", [.text("id")])
    public static let titleTap = CommandDescription("titleTap")
}

/// A command that could not be understood: an unknown name or a missing or mistyped argument (`Driver.UsageError`).
public struct CommandUsageError: Error, CustomStringConvertible {
    /// The message in English (`text(_:)` says one a person can make in the app's language).
    public let message: String
    /// The refusal in a language's words, when a person can make it (`WordedRefusal`).
    let worded: (@Sendable (BuiltInWords) -> String)?
    public var description: String { message }
    public init(message: String) {
        self.message = message
        worded = nil
    }

    /// A refusal a person can make, in any language's words; its message is its English.
    public init(worded: @escaping @Sendable (BuiltInWords) -> String) {
        message = worded(.english)
        self.worded = worded
    }
}

/// A command's named values, read by the forms of its description; a missing or mistyped one fails with the
/// driver's usage message (`tap needs row (…)`).
public struct CommandArguments {
    /// The command's name (in the messages).
    public let command: String
    public var values: [String: Value]

    public init(_ command: String, _ values: [String: Value] = [:]) {
        self.command = command
        self.values = values
    }

    public subscript(_ key: String) -> Value? { values[key] }

    /// A row or cell.
    public func row(_ key: String = "row") throws -> RowAddress {
        let blank: Bool = { if case .string(let s)? = values[key] { return s.trimmingCharacters(in: .whitespaces).isEmpty }; return false }()
        guard let v = values[key], !v.isNull, !blank else {
            throw CommandUsageError(message: "\(command) needs \(key) (a position, {section, row}, an id or a row's text)")
        }
        guard let r = RowAddress(v) else {
            throw CommandUsageError(message: "\(command): \(key) must be a position, {section, row}, an id or a row's text")
        }
        return r
    }

    /// Text that must be there.
    public func text(_ key: String) throws -> String {
        guard let v = values[key], !v.isNull else { throw CommandUsageError(message: "\(command) needs \(key)") }
        guard let s = v.displayString else { throw CommandUsageError(message: "\(command): \(key) must be text") }
        return s
    }

    /// Text, or nil when absent or null.
    public func optionalText(_ key: String) -> String? { values[key].flatMap { $0.isNull ? nil : $0.displayString } }

    /// A value that must be there (null is a value: it clears a cell).
    public func value(_ key: String) throws -> Value {
        guard let v = values[key] else { throw CommandUsageError(message: "\(command) needs \(key)") }
        return v
    }

    /// A switch: absent is on; otherwise read as a switch cell's `set` reads it — true/false, 1/0 and the words
    /// `on`/`off`, `true`/`false`, `yes`/`no` and the app's own (`yes`, `no`: `ja`, `nein` in `de`), case and
    /// accents aside. Anything else (null, `"banana"`, 2) is refused: `edit: "banana" is neither on nor off`.
    public func flag(_ key: String, yes: String = "yes", no: String = "no") throws -> Bool {
        guard let v = values[key] else { return true }
        switch v {
        case .bool(let b): return b
        case .int(let i) where i == 0 || i == 1: return i == 1
        case .string(let s): if let on = Self.switchWord(s, yes: yes, no: no) { return on }
        default: break
        }
        let typed: String? = v.isNull ? nil : ShellError.brief(v.displayString ?? "\(v)")
        // The app's own words too, which it takes (`evet or hayır` in Turkish).
        let own = ![yes, no].allSatisfy { ["yes", "no"].contains(MatchedText.fold($0)) }
        throw CommandUsageError { [command] words in
            let shown = typed.map { words(.quoted, $0) } ?? "null"
            return own ? words(.neitherOnNorOffOwn, command, shown, key, yes, no) : words(.neitherOnNorOff, command, shown, key)
        }
    }

    /// A yes/no word as a switch reads it: `on`/`off`, `true`/`false`, `yes`/`no`, `1`/`0` and the app's own `yes`
    /// and `no`, case and accents aside (`si` for `sí`); nil for any other text.
    public static func switchWord(_ text: String, yes: String = "yes", no: String = "no") -> Bool? {
        let typed = MatchedText.fold(text.trimmingCharacters(in: .whitespaces))
        if ["true", "yes", "on", "1", MatchedText.fold(yes)].contains(typed) { return true }
        if ["false", "no", "off", "0", MatchedText.fold(no)].contains(typed) { return false }
        return nil
    }

    /// Texts: a list of them (texts or numbers), or one text; absent or null is none. Anything else (a number, an
    /// object, a list holding one) is refused rather than read as empty fields.
    public func texts(_ key: String) throws -> [String] {
        func refused() -> CommandUsageError { CommandUsageError(message: "\(command): \(key) must be a list of texts (e.g. [\"Dune\"])") }
        switch values[key] {
        case .list(let l)?:
            return try l.map { v in
                switch v {
                case .string(let s): return s
                case .int, .double: return v.displayString ?? ""
                default: throw refused()
                }
            }
        case .string(let s)?: return [s]
        case nil, .null?: return []
        default: throw refused()
        }
    }

    /// Checks the arguments a description requires, before the command runs: the values first (a `set` with
    /// nothing says `set needs value`), then rows and texts in order.
    public func check(_ description: CommandDescription) throws {
        for a in description.arguments where a.form == .value { _ = try value(a.name) }
        for a in description.arguments {
            switch a.form {
            case .row: _ = try row(a.name)
            case .text: _ = try text(a.name)
            case .flag: _ = try flag(a.name)
            case .texts: _ = try texts(a.name)
            case .optionalText, .value, .number: break
            }
        }
    }
}
