/// Screens nothing in the app's declarations opens (an app with a `home` that opens them only from Lua, through
/// `app:open` or `okit.*` calls): the check cannot know their context, so it checks each one on every declared entity
/// type and keeps the type it fits best — no problems when it fits one, else that type's problems — and the
/// summary names them with that type.
public struct UnopenedScreen: Equatable, Sendable {
    /// The screen's id.
    public let screen: String
    /// The declared type it fits best (nil when the app declares no type).
    public let type: String?
    /// Whether it fits that type without a problem.
    public let fits: Bool
}

/// What a check pass has found so far, kept while a screen is tried on another context.
struct ScreenCheckState {
    let issues: [ScreenIssue]
    let opening: [String: Set<Opener>]
    let checkedSites: Set<String>
}

extension ScreenCheckRun {
    var state: ScreenCheckState { ScreenCheckState(issues: issues, opening: opening, checkedSites: checkedSites) }

    func restore(_ s: ScreenCheckState) {
        issues = s.issues
        opening = s.opening
        checkedSites = s.checkedSites
    }

    /// Checks one declared screen. When it turns out to be checked on an unknown context (nothing opens it and
    /// the app does not say its type), it is checked again on every declared entity type and the best fit's
    /// result is kept.
    func checkScreen(_ screen: any ScreenDeclaration) {
        let before = state
        usedUnknownContext = false
        screen.check(self)
        guard usedUnknownContext, !candidateTypes.isEmpty else { return }
        // Fewest problems, then most bindings checked on a known type (a `dataPath` that does not resolve leaves the
        // row's bindings unchecked).
        var best: (type: EntityType, problems: Int, checked: Int)?
        for t in candidateTypes {
            restore(before)
            trialContext = t
            let typed = typedChecks
            screen.check(self)
            let problems = issues.count - before.issues.count, checked = typedChecks - typed
            if best.map({ problems < $0.problems || (problems == $0.problems && checked > $0.checked) }) ?? true {
                best = (t, problems, checked)
            }
        }
        restore(before)
        trialContext = best?.type
        screen.check(self)
        trialContext = nil
        if let best {
            unopened.append(UnopenedScreen(screen: screen.id, type: best.type.name, fits: best.problems == 0))
        }
    }

    /// The declared entity types, the default model's root first, in declaration order.
    var candidateTypes: [EntityType] {
        let declared = engine.schema.order.compactMap { engine.schema.types[$0] }.filter { $0.kind == .user }
        guard let root else { return declared }
        return [root] + declared.filter { $0 !== root }
    }
}
