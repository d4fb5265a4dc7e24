/// Moving between screens keeps the promise of every command (screens.md "Commands"): one that fails leaves
/// everything as it was. When the `onDisappear` hook of the screen left or the `onAppear` hook of the screen shown
/// fails, the move is undone — the stacks, the presented screens, the tab and the menu as they were, and the screen
/// that was shown shown again (its `onAppear` runs once more, as when a person comes back to it) — and the error
/// names the hook and the screen (`onAppear hook of screen book failed: app.lua:5: boom`).
extension AppShell {
    /// Where the person is: what a failed move puts back.
    struct Place {
        let stacks: [[any ShellScreen]]
        let presented: [[any ShellScreen]]
        let tabIndex: Int
        let menuOpen: Bool
    }

    var place: Place { Place(stacks: stacks, presented: presented, tabIndex: tabIndex, menuOpen: menuOpen) }

    func restore(_ place: Place) {
        stacks = place.stacks
        presented = place.presented
        tabIndex = place.tabIndex
        menuOpen = place.menuOpen
    }

    /// `move` changes the stacks (or the tab, or the presented screens); then the screen shown before disappears
    /// (unless `leavingDisappears` is false, or it is still on top) and the screen now on top appears. A hook that
    /// fails undoes the move.
    func navigate(leavingDisappears: Bool = true, _ move: () throws -> Void) throws {
        let before = place
        let leaving = top
        do { try move() } catch { restore(before); throw error }
        let arriving = top
        let leaves = leavingDisappears && leaving !== arriving
        if leaves {
            do { try hook("onDisappear", of: leaving) { try leaving?.disappear() } } catch { restore(before); throw error }
        }
        do {
            try hook("onAppear", of: arriving) { try arriving?.appear() }
        } catch {
            restore(before)
            if leaves { try? leaving?.appear() }
            throw error
        }
    }

    /// Runs a screen's hook; its error names the hook and the screen.
    func hook(_ name: String, of screen: (any ShellScreen)?, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            guard let screen else { throw error }
            if case EngineError.hook = error { throw error }
            throw EngineError.hook(name: name, entity: "screen \(screen.id)", error: error)
        }
    }
}
