/// The view state of a shell's open screens (the tab's stack, then the presented ones, each with its place) and
/// the dialogs waiting: what `AppShell.restore(_:)` hands to another shell at a live reload.
public struct ShellViewState {
    let screens: [(step: ShellLocation.Step, state: ScreenViewState)]
    /// The place of the screen the dialogs were shown over (the top one), and the dialogs.
    let top: ShellLocation.Step?
    let alerts: [PendingAlert]
}

extension AppShell {
    /// The open screens' view state and the dialogs waiting.
    public var viewState: ShellViewState {
        let open = stacks.isEmpty ? [] : stacks[tabIndex] + presented.flatMap { $0 }
        return ShellViewState(screens: open.map { (step($0), $0.viewState) }, top: top.map(step), alerts: alerts)
    }

    /// Gives each screen open at the same place as one of `state` (the same screen on the same entity, at the same
    /// depth) the view state that one had, and opens its dialogs again over the top screen when it is the same
    /// (a dialog of the app that went cannot answer into this one: each kind opens its own again, `reopen`). The
    /// titles of the dialogs that could not be opened again (an app's `okit.alert` with its Lua function).
    @discardableResult
    public func restore(_ state: ShellViewState) -> [String] {
        let open = stacks.isEmpty ? [] : stacks[tabIndex] + presented.flatMap { $0 }
        for (screen, was) in zip(open, state.screens) where step(screen) == was.step {
            screen.restore(was.state)
        }
        var lost: [String] = []
        for alert in state.alerts {
            let before = alerts.count
            if let top, state.top == step(top), let reopen = alert.reopen, (try? reopen(top)) != nil, alerts.count == before + 1 {
                alerts[before].keepValues(of: alert)
            } else {
                if alerts.count > before { alerts.removeSubrange(before...) }
                lost.append(alert.title ?? alert.message ?? engine.word(.alert))
            }
        }
        return lost
    }
}
