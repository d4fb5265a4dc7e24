/// The boundary between the app shell and the screen kinds: a declaration opens a screen on a context; an open
/// screen answers snapshots and edit mode; the commands a screen takes are its kind's (`ScreenKind`, found by the
/// kind's name in the shell's `ScreenKinds`). The shell keeps stacks of open screens and never needs to know
/// which kinds exist, so list, detail (and settings), selection, menu and backups screens each live in their own
/// folder of Screens/ (LayerTests checks that Shell/ names none of their types).
public protocol ScreenDeclaration {
    /// The screen id (`okit.list("books", …)` → `books`).
    var id: String { get }
    /// The entity type of the context (or of the rows), when declared.
    var type: String? { get }
    /// The kind in snapshots (`list`, `detail`, `selection`, `menu`, `settings`, `backups`): the name of a
    /// `ScreenKind` the shell's `ScreenKinds` holds.
    var kind: String { get }
    /// Opens the screen on a context.
    func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen
    /// Adds the problems of the screen's bindings to a check run (`okit-run check`).
    func check(_ run: ScreenCheckRun)
}

/// An open screen on a navigation stack. The commands it takes on its rows and cells (`tap`, `set`, `add`, …) are
/// not requirements here: its `ScreenKind` lists them, each bound to the kind's own method.
public protocol ShellScreen: AnyObject {
    var id: String { get }
    /// The kind's name, as in snapshots and in the messages of commands it refuses: `list`, `detail`,
    /// `settings`, `selection`, `menu`, `backups`.
    var kind: String { get }
    /// The screen's help text (`help = "…"`, shown by the `help` command); nil when it has none.
    func help() -> String?
    /// The entity the screen shows (after its `contextPath`).
    var context: Entity? { get }
    var editing: Bool { get }
    /// Turns edit mode on or off; refused (with a reason) when the screen has no edit mode.
    func setEditing(_ on: Bool) throws
    /// What a person sees; lists show `limit` rows from `offset`.
    func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot
    /// The title a tab bar shows for the screen (by default its snapshot's title; a kind may compute it with less).
    func tabTitle() throws -> String?
    /// Called when the screen becomes the top of its stack again, or first appears (controller hooks).
    func appear() throws
    /// Called when the screen stops being the top one (another screen over it, back, close, another tab).
    func disappear() throws
    /// What the screen is searched for, as a URL names it (web.md): the text, and the scope's title when it is not
    /// the first ("All"); nil when it searches nothing (and for kinds without search).
    var searchQuery: (text: String, scope: String?)? { get }
    /// What a person set on the screen that is not data (edit mode, a search, a revealed row): a live reload hands
    /// it to the screen opened again in this one's place (`AppShell.restore`).
    var viewState: ScreenViewState { get }
    /// Takes the view state of the screen this one replaces at a live reload, as far as its declaration allows
    /// (no hook runs: nothing was changed by the person).
    func restore(_ state: ScreenViewState)
    /// Whether this screen opens `screen` on the entity of id `entity` by what it declares — pushed, or presented
    /// when `presenting`: a row's `segue` (or `present`) with that row's entity, a cell's or a bar button's with its
    /// context. A URL names only such places, or ones the shell itself opened (web.md "URLs name where the person
    /// is"); false by default.
    func opens(_ screen: String, entity: String?, presenting: Bool) throws -> Bool
    /// Called before a segue or present this screen declares (a row's, a cell's, a bar button's) opens another
    /// screen over it; nothing by default. A list leaves edit mode (screens.md "Lists").
    func willOpenScreen() throws
}

extension ShellScreen {
    public func appear() throws {}
    public func disappear() throws {}
    public var searchQuery: (text: String, scope: String?)? { nil }
    public var viewState: ScreenViewState { ScreenViewState(editing: editing) }
    public func restore(_ state: ScreenViewState) {}
    public func opens(_ screen: String, entity: String?, presenting: Bool) throws -> Bool { false }
    public func willOpenScreen() throws {}
    public func tabTitle() throws -> String? { try snapshot(offset: 0, limit: 0).title }
}

/// How a command names a row or cell (screens.md "Commands"): a 1-based position over the visible rows in order
/// (flattened across sections), a (section, row) pair, or a key matched against row ids, then row texts. A key
/// that matches nothing but is a number is a position (`tap 2` in the shell).
public enum RowAddress: Equatable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible {
    case position(Int)
    case pair(section: Int, row: Int)
    case key(String)

    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .position(value) }

    /// From a command argument: a number, a `[section, row]` pair, or a string.
    public init?(_ value: Value) {
        switch value {
        case .int(let n): self = .position(n)
        case .double(let d):
            guard let n = Int(exactly: d) else { return nil }     // fractional, out of range, infinite or NaN
            self = .position(n)
        case .string(let s): self = .key(s)
        case .list(let l) where l.count == 2:
            guard let s = l[0].intValue, let r = l[1].intValue else { return nil }
            self = .pair(section: s, row: r)
        default: return nil
        }
    }

    /// As a command argument (`init?(_:)` reads it back): a number, a `[section, row]` pair, or a string.
    public var value: Value {
        switch self {
        case .position(let n): return .int(n)
        case .pair(let s, let r): return .list([.int(s), .int(r)])
        case .key(let k): return .string(k)
        }
    }

    public var description: String {
        switch self {
        case .position(let n): return "\(n)"
        case .pair(let s, let r): return "{\(s), \(r)}"
        case .key(let k): return "\"\(ShellError.brief(k))\""
        }
    }

    /// Resolves the address over rows given as (section index, id, text), in visible order; returns the index.
    public func resolve(_ rows: [(section: Int, id: String?, text: String?)]) throws -> Int {
        switch self {
        case .position(let n):
            guard n >= 1, n <= rows.count else { throw ShellError.noRow(description, count: rows.count) }
            return n - 1
        case .pair(let s, let r):
            let sections = Array(Set(rows.map(\.section))).sorted()
            guard s >= 1, s <= sections.count else { throw ShellError.noRow(description, count: rows.count) }
            let inSection = rows.indices.filter { rows[$0].section == sections[s - 1] }
            guard r >= 1, r <= inSection.count else { throw ShellError.noRow(description, count: rows.count) }
            return inSection[r - 1]
        case .key(let k):
            if let i = rows.firstIndex(where: { $0.id == k }) { return i }
            let matches = rows.indices.filter { rows[$0].text == k }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw ShellError.ambiguousRow(k, candidates: matches.map { "\($0 + 1)" })
            }
            if let n = Int(k) { return try RowAddress.position(n).resolve(rows) }
            let near = rows.compactMap(\.text).filter { $0.localizedCaseInsensitiveContains(k) }
            throw ShellError.noRowMatching(k, candidates: Array(near.prefix(5)), count: rows.count)
        }
    }
}
