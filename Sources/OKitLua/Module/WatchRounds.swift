/// The state of one `okit.watch`: whether its function runs now, and whether what it watches changed meanwhile.
final class WatchRounds {
    /// Rounds of a watch whose function keeps changing what it watches.
    static let limit = 100
    var running = false
    var pending = false
}
