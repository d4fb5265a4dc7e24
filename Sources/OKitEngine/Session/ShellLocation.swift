/// Where a person is in an app shell: the tab, the stack of screens on it and the stacks presented over it, each
/// screen with the id of the entity it was opened with. A front end puts it in a URL (the web) and goes back to
/// it (reload, a deep link, the browser's back button).
public struct ShellLocation: Equatable, Sendable {
    /// One open screen: its id and its context entity's id (nil: no context, or an entity without an id).
    public struct Step: Hashable, Sendable {
        public var screen: String
        public var entity: String?
        public init(screen: String, entity: String?) {
            self.screen = screen
            self.entity = entity
        }
    }

    public var tab: String?
    /// The tab's stack, its home screen first.
    public var stack: [Step]
    /// The presented stacks, the first presented first.
    public var presented: [[Step]]

    public init(tab: String?, stack: [Step], presented: [[Step]] = []) {
        self.tab = tab
        self.stack = stack
        self.presented = presented
    }

    /// The location after opening a screen on the top stack (the top presented one, else the tab's).
    public func pushing(_ step: Step) -> ShellLocation {
        var next = self
        if next.presented.isEmpty { next.stack.append(step) } else { next.presented[next.presented.count - 1].append(step) }
        return next
    }

    /// The location after presenting a screen (a stack of its own).
    public func presenting(_ step: Step) -> ShellLocation {
        var next = self
        next.presented.append([step])
        return next
    }
}

extension AppShell {
    /// Where the shell is now.
    public var location: ShellLocation {
        // Screens no longer open are forgotten here.
        let open = Set((stacks.flatMap { $0 } + presented.flatMap { $0 }).map { ObjectIdentifier($0) })
        if openedWith.count > open.count { openedWith = openedWith.filter { open.contains($0.key) } }
        func steps(_ screens: [any ShellScreen]) -> [ShellLocation.Step] { screens.map(step) }
        let stack = stacks.isEmpty ? [] : steps(stacks[tabIndex])
        return ShellLocation(tab: home.isEmpty ? nil : home[tabIndex], stack: stack, presented: presented.map(steps))
    }

    /// Goes to a location: its tab, then its screens opened again on their entities (found by id in any
    /// loaded model). Screens that cannot be opened any more (the entity went away, the screen is unknown) are
    /// left out with the ones after them; returns false then (the shell is at the nearest screen that exists).
    /// An alert waiting is dropped, the menu closed.
    @discardableResult
    public func go(to target: ShellLocation) throws -> Bool {
        guard !stacks.isEmpty else { return false }
        var target = target
        var complete = true
        if let tab = target.tab {
            if let i = home.firstIndex(of: tab) {
                if i != tabIndex {
                    let leaving = top
                    tabIndex = i
                    menuOpen = false
                    if leaving !== top { try leaving?.disappear() }
                    try top?.appear()
                }
            } else {
                complete = false
            }
        }
        // The home screen of the tab is always the tab's own (its entity is the one it was opened on).
        let current = stacks[tabIndex]
        if target.stack.first?.screen != current.first?.id {
            complete = false
            target.stack = current.prefix(1).map(step)
        }
        if !target.stack.isEmpty { target.stack[0].entity = current.first.flatMap { openingEntity($0)?.id } }
        if target == location { return complete }
        alerts = []
        menuOpen = false
        helpText = nil
        var kept = 1
        while kept < current.count, kept < target.stack.count,
              current[kept].id == target.stack[kept].screen, openingEntity(current[kept])?.id == target.stack[kept].entity { kept += 1 }
        let leaving = top
        let samePresented = presented.map { $0.map(step) } == target.presented
        if !samePresented { presented = [] }
        stacks[tabIndex].removeSubrange(kept...)
        for (i, step) in target.stack.enumerated().dropFirst(kept) {
            guard let screen = try reopen(step, over: stacks[tabIndex].last, presenting: false, content: i == 1) else {
                complete = false
                break
            }
            stacks[tabIndex].append(screen)
        }
        if complete, !samePresented {
            outer: for stack in target.presented {
                var opened: [any ShellScreen] = []
                for step in stack {
                    let under = opened.last ?? screenUnderNext
                    guard let screen = try reopen(step, over: under, presenting: opened.isEmpty, content: false) else {
                        complete = false
                        break outer
                    }
                    opened.append(screen)
                }
                if !opened.isEmpty { presented.append(opened) }
            }
        }
        if leaving !== top {
            try leaving?.disappear()
            try top?.appear()
        }
        return complete
    }

    /// Closes the screens opened on an entity that has left its model since (deleted by a button of the screen
    /// itself, from another tab, by another person, or replaced in an entity field), with the screens over them;
    /// true when any closed: the shell is then at the nearest screen that still exists, as when a URL names an
    /// entity that is gone. OKit's controllers pop their navigation stack when an entity they show is no longer
    /// managed (okit-behaviour §3): a screen left showing it would take edits no store writes. The other tabs'
    /// stacks are cut back the same way (no hook runs: they are not shown).
    @discardableResult
    public func leaveRemovedEntities() throws -> Bool {
        guard !stacks.isEmpty else { return false }
        func gone(_ screen: any ShellScreen) -> Bool {
            if let e = openingEntity(screen), e.state == .removed { return true }
            return screen.context?.state == .removed
        }
        for t in stacks.indices where t != tabIndex {
            if let i = stacks[t].firstIndex(where: gone), i > 0 { stacks[t].removeSubrange(i...) }
        }
        var target = location
        if let i = stacks[tabIndex].firstIndex(where: gone), i > 0 {
            target.stack = Array(target.stack.prefix(i))
            target.presented = []
        } else if let p = presented.firstIndex(where: { $0.contains(where: gone) }), let j = presented[p].firstIndex(where: gone) {
            target.presented = Array(target.presented.prefix(p)) + (j > 0 ? [Array(target.presented[p].prefix(j))] : [])
        } else {
            return false
        }
        try go(to: target)
        return true
    }

    /// Where an open screen is: its id and the entity it was opened with.
    func step(_ screen: any ShellScreen) -> ShellLocation.Step {
        ShellLocation.Step(screen: screen.id, entity: openingEntity(screen)?.id)
    }

    /// The entity a screen was opened with (its context before its own `contextPath`).
    func openingEntity(_ screen: any ShellScreen) -> Entity? {
        if let e = openedWith[ObjectIdentifier(screen)] { return e }
        return screen.context
    }

    /// Opens a screen a location names again, over the screen `under` it (pushed, or `presenting` a stack of its
    /// own; `content`: the screen after the tab's first): only one that screen or the menu opens by its
    /// declaration, or that this shell opened there itself (`reaches`); nil otherwise, or when its entity is gone.
    private func reopen(_ step: ShellLocation.Step, over under: (any ShellScreen)?, presenting: Bool, content: Bool) throws
        -> (any ShellScreen)? {
        guard declaration(step.screen) != nil, reaches(step, over: under, presenting: presenting, content: content) else { return nil }
        var context: Entity?
        if let id = step.entity {
            guard let e = engine.lookup(id: id, from: under?.context?.model) else { return nil }
            context = e
        }
        // A URL that goes forward through a segue `under` declares opens it as the segue does (a list leaves edit mode).
        // Its hook failing does not stop the way there (the screen opens as a segue would; the hook's error is its own).
        if let under, (try? under.opens(step.screen, entity: step.entity, presenting: presenting)) == true { try? under.willOpenScreen() }
        do { return try make(step.screen, context: context, opener: under) } catch { return nil }
    }

    /// Whether `step` is a place the app reaches over `under` (web.md "URLs name where the person is"): a row's,
    /// cell's or bar button's segue of `under` with the entity it opens with, a choice of the menu, or a screen
    /// this shell itself opened there (an action's `app:open`, a kind's own command).
    func reaches(_ step: ShellLocation.Step, over under: (any ShellScreen)?, presenting: Bool, content: Bool) -> Bool {
        if openedSteps.contains(OpenedSteps.Key(under: under?.id, screen: step.screen, entity: step.entity, presented: presenting)) { return true }
        if let under, (try? under.opens(step.screen, entity: step.entity, presenting: presenting)) == true { return true }
        guard let id = menuId else { return false }
        if menuScreen == nil { menuScreen = try? make(id, context: engine.defaultModel?.root, opener: nil) }
        guard let menu = menuScreen as? MenuItemsScreen else { return false }
        let home = stacks.isEmpty ? nil : stacks[tabIndex].first?.context
        return (try? menu.shows(step.screen, entity: step.entity, presenting: presenting, content: content, home: home)) == true
    }

    /// The screen a screen pushed or presented now goes over (the menu aside).
    var screenUnderNext: (any ShellScreen)? { presented.last?.last ?? (stacks.isEmpty ? nil : stacks[tabIndex].last) }

    /// Notes that `screen` was opened over `under` (`reaches`).
    func noteOpened(_ screen: any ShellScreen, over under: (any ShellScreen)?, presented: Bool) {
        let opened = step(screen)
        openedSteps.insert(OpenedSteps.Key(under: under?.id, screen: opened.screen, entity: opened.entity, presented: presented))
    }
}
