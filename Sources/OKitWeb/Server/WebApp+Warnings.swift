import OKitEngine

/// What the serving app warns of while it runs (`Engine.warnings`: an error inside a Lua function a binding calls,
/// an unknown name a binding reads), as `okit-run --json` puts it in its answers: each on stderr once, after the
/// request that met it (`okit-run: warning: helpers.lua:2: attempt to index a nil value … (in shout, called from
/// binding "title/shout")`); in development mode every page lists them too, with the warnings the app loaded with.
extension WebApp {
    /// Writes the warnings of `app` not on stderr yet (the engine keeps each text once: once per binding).
    func logNewWarnings(_ app: AppSession) {
        let warnings = app.engine.warnings
        guard warnings.count > warningsLogged else { return }
        for w in warnings[warningsLogged...] { log("okit-run: warning: \(w)") }
        warningsLogged = warnings.count
    }

    /// The warnings a development page lists: those the serving app loaded with, and those it gave since.
    var pageWarnings: [String] { hosted?.session.engine.warnings ?? loadWarnings }
}
