import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// What runs later or is asked of the person: `okit.watch`, `okit.after`, `okit.every`, `okit.alert`,
    /// `okit.prompt`.
    func eventFunctions() -> [(String, LuaFunction)] {
        [
            ("watch", { call in try watch(call) }),
            ("alert", { call in try app.presentAlert(call, kind: "alert") }),
            ("prompt", { call in try app.presentAlert(call, kind: "prompt") }),
            ("after", { call in try schedule(call, repeating: false) }),
            ("every", { call in try schedule(call, repeating: true) }),
        ]
    }

    /// `okit.watch(ctx, binding, fn)`: calls `fn` with the binding's value whenever it changes.
    private func watch(_ call: LuaCall) throws -> Int32 {
        let ctx = try app.context(call, 1)
        let text = try call.string(2)
        try call.requireFunction(3)
        let fn = call.ref(3)
        let state = WatchRounds()
        let sub = try app.engine(of: ctx).subscribe(ctx, text, mode: .display) { [unowned app] s in
            // A function that changes what it watches comes back here while it runs: the change is run
            // after it returns, in rounds (no recursion), and a loop stops at the limit with a warning.
            if state.running { state.pending = true; return }
            state.running = true
            defer { state.running = false }
            var rounds = 0
            repeat {
                state.pending = false
                rounds += 1
                do { _ = try app.callLua(fn, [s.value]) } catch { app.engine.report(error); return }
            } while state.pending && rounds < WatchRounds.limit
            if state.pending {
                state.pending = false
                app.engine.warn("okit.watch(\"\(text.count > 60 ? String(text.prefix(59)) + "…" : text)\"): its function changed what it watches \(WatchRounds.limit) times in a row; stopped (a watch that writes what it reads loops)")
            }
        }
        lua.push(object: sub, metatable: OKitTypes.watch)
        return 1
    }

    /// A number of seconds as a message shows it (`0`, `2.5`, `-1`).
    static func shown(_ d: Double) -> String { abs(d) < 1e15 && d == d.rounded() ? String(Int(d)) : "\(d)" }

    /// The shortest interval of `okit.every`, in seconds (the timer queue's own).
    static let minimumEvery = 0.001

    /// `okit.after(seconds, fn)` and `okit.every(seconds, fn)`: a timer on the session's clock.
    private func schedule(_ call: LuaCall, repeating: Bool) throws -> Int32 {
        let seconds = try call.number(1)
        guard seconds.isFinite else { throw LuaRaise("\(call.name): seconds must be a finite number ≥ 0 (got \(seconds))") }
        guard seconds >= 0 else { throw LuaRaise("\(call.name): seconds must be ≥ 0 (got \(Self.shown(seconds)))") }
        // A repeating timer below the minimum ran every millisecond without a word (lua-api.md "Timers").
        guard !repeating || seconds >= Self.minimumEvery else {
            throw LuaRaise("okit.every: seconds must be at least \(Self.minimumEvery) (got \(Self.shown(seconds))); "
                + "for once, soon, use okit.after(0, fn)")
        }
        try call.requireFunction(2)
        let fn = call.ref(2)
        let site = LuaApp.callerPosition(call.L)
        let name = "\(call.name)(\(Self.shown(seconds)), …)"
        let t = app.session.timers.schedule(at: engine.clock.now.addingTimeInterval(seconds), every: repeating ? seconds : nil) { [unowned app] in
            do { _ = try app.engine.transaction { try app.callLua(fn, []) } } catch let e as LuaError {
                // Named by where it was set: the message alone may not say which timer failed.
                throw LuaError(kind: e.kind, message: "\(site.map { "\($0): " } ?? "")the timer \(name) failed: \(e.message)", traceback: e.traceback)
            }
        }
        lua.push(object: t, metatable: OKitTypes.timer)
        return 1
    }
}
