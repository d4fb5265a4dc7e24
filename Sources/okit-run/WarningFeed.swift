import Foundation
import OKitEngine
import OKitLua

/// The warnings of a session (`Engine.warnings`: an unknown name a binding read, an error inside a Lua function
/// a screen evaluated, an unknown property, each once) as the front ends show them: the ones logged since
/// the last time they were taken, so each is shown once, after the command that produced it; the rest at exit.
final class WarningFeed {
    let engine: Engine
    /// How many of the engine's warnings were shown.
    var shown: Int

    /// A feed that counts the first `alreadyShown` warnings as shown (those printed to stderr when the app loaded).
    init(engine: Engine, alreadyShown: Int = 0) {
        self.engine = engine
        shown = min(alreadyShown, engine.warnings.count)
    }

    /// Every warning of the session.
    var all: [String] { engine.warnings }

    /// The warnings logged since the last call, now counted as shown.
    func fresh() -> [String] {
        let warnings = engine.warnings
        guard warnings.count > shown else { return [] }
        defer { shown = warnings.count }
        return Array(warnings[shown...])
    }

    /// At exit: the warnings never shown, as `okit-run: warning: …` lines on stderr.
    func printUnshown() {
        for w in fresh() { StandardStreams.error("okit-run: warning: \(w)\n") }
    }
}
