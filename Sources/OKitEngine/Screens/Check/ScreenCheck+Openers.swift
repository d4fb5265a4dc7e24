/// How a screen is opened, as far as the check is concerned: the context type it receives and, for selection
/// screens, the selection context and the default `selectionPath` (OKit's segue `prepare`, okit-behaviour §5.1/§5.2).
struct Opener: Hashable {
    /// The context the screen receives (a row's entity, the opener's context, a cell's context).
    let context: EntityType?
    /// A selection's selection context: the pushing list's context when a list opens it, else `context`.
    let selectionContext: EntityType?
    /// A selection's `selectionPath` when it omits one: the pushing list's `dataPath`, else `.`.
    let defaultSelectionPath: String
    /// What opens the screen, for messages ("list books").
    var from = ""
    /// True for the context a screen gets when nothing is known to open it (problems that depend on how it is
    /// opened are not reported then).
    var assumed = false

    static func == (a: Opener, b: Opener) -> Bool {
        a.context.map(ObjectIdentifier.init) == b.context.map(ObjectIdentifier.init)
            && a.selectionContext.map(ObjectIdentifier.init) == b.selectionContext.map(ObjectIdentifier.init)
            && a.defaultSelectionPath == b.defaultSelectionPath && a.from == b.from && a.assumed == b.assumed
    }

    func hash(into h: inout Hasher) {
        h.combine(context.map(ObjectIdentifier.init))
        h.combine(selectionContext.map(ObjectIdentifier.init))
        h.combine(defaultSelectionPath)
        h.combine(from)
    }

    /// A detail or a cell opens a screen with one context: the selection context too, `.` by default.
    static func plain(_ context: EntityType?, from: String) -> Opener {
        Opener(context: context, selectionContext: context, defaultSelectionPath: ".", from: from)
    }
}

extension ScreenCheckRun {
    /// Records that `target` is opened (nothing when it is not a declared screen: `target` reports that).
    func open(_ target: String?, with opener: Opener) {
        guard let target, screenIds.contains(target) else { return }
        opening[target, default: []].insert(opener)
    }

    /// Reports a screen id that names no declared screen (with the closest id). True when it names one.
    @discardableResult
    func target(_ screen: String, _ property: String, _ id: String?, at site: [DeclarationKey],
                or other: [[DeclarationKey]] = []) -> Bool {
        guard let id, !id.isEmpty else { return false }
        if screenIds.contains(id) { return true }
        issue(screen, property, "no screen \"\(id)\" is declared" + screenHint(for: id), at: site, or: other)
        return false
    }

    /// ` (did you mean "books"?)`: the closest screen id, a list when a list is as near as any other screen (a
    /// `home = "bookz"` meant the list `books` more likely than the detail `book`).
    func screenHint(for id: String) -> String {
        guard var near = NameSuggestion.closest(to: id, in: screenIds) else { return "" }
        if !listIds.contains(near), let list = NameSuggestion.closest(to: id, in: listIds) {
            let written = Array(id.lowercased())
            if NameSuggestion.distance(written, Array(list.lowercased())) == NameSuggestion.distance(written, Array(near.lowercased())) {
                near = list
            }
        }
        return " (did you mean \"\(near)\"?)"
    }

    /// The ways a screen is opened: what the previous pass found, else the fallback (nil context: unknown).
    func openers(of id: String, fallback: EntityType?) -> [Opener] {
        let found = received[id] ?? []
        if found.isEmpty {
            if fallback == nil { usedUnknownContext = true }
            let context = fallback ?? trialContext
            return [Opener(context: context, selectionContext: context, defaultSelectionPath: ".", assumed: true)]
        }
        return found.sorted { $0.from < $1.from }
    }
}
