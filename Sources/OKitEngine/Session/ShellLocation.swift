/// Where a person is in an app shell: the tab, the stack of screens on it and the stacks presented over it, each
/// screen with the id of the entity it was opened with. A front end puts it in a URL (the web) and goes back to
/// it (reload, a deep link, the browser's back button).
public struct ShellLocation: Equatable, Sendable {
    /// One open screen: its id and its context entity's id (nil: no context, or an entity without an id).
    public struct Step: Equatable, Sendable {
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
        for step in target.stack.dropFirst(kept) {
            guard let screen = try reopen(step) else { complete = false; break }
            stacks[tabIndex].append(screen)
        }
        if complete, !samePresented {
            outer: for stack in target.presented {
                var opened: [any ShellScreen] = []
                for step in stack {
                    guard let screen = try reopen(step) else { complete = false; break outer }
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

    /// Closes the screens opened on an entity that has left its model since (another person deleted it), with the
    /// screens over them; true when any closed: the shell is then at the nearest screen that still exists, as when a
    /// URL names an entity that is gone.
    @discardableResult
    public func leaveRemovedEntities() throws -> Bool {
        guard !stacks.isEmpty else { return false }
        func gone(_ screen: any ShellScreen) -> Bool {
            guard let e = openingEntity(screen) else { return false }
            return e.state == .removed && e.model == nil
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

    private func reopen(_ step: ShellLocation.Step) throws -> (any ShellScreen)? {
        guard declaration(step.screen) != nil else { return nil }
        var context: Entity?
        if let id = step.entity {
            guard let e = engine.lookup(id: id) else { return nil }
            context = e
        } else if let list = top as? ListScreen, step.screen == list.declaration.segue || step.screen == list.declaration.present {
            return nil   // the list's rows open it with their entity: a location without one names no row (`/books/book`)
        }
        do { return try make(step.screen, context: context, opener: top) } catch { return nil }
    }
}
