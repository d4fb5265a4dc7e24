import Foundation

/// Timers on the app clock (`okit.after`, `okit.every`): they fire when the clock has passed their time and
/// the host calls `fireDue`, in time order (ties in creation order).
public final class TimerQueue {
    public final class Timer {
        public let id: Int
        public internal(set) var due: Date
        public let interval: Double?
        public internal(set) var cancelled = false
        let action: () throws -> Void

        init(id: Int, due: Date, interval: Double?, action: @escaping () throws -> Void) {
            self.id = id
            self.due = due
            self.interval = interval
            self.action = action
        }

        public func cancel() { cancelled = true }
    }

    /// Most firings of one `fireDue` (lua-api.md "Sandbox and limits"): a repeating timer far behind the clock, or
    /// timers that keep scheduling timers, cannot hold the app forever.
    public static let maxFirings = 100_000

    /// Returned among `fireDue`'s errors when it stopped at `maxFirings`: names the timers that were still due.
    public struct LimitReached: Error, CustomStringConvertible {
        public let timers: [String]
        public var description: String {
            "timers fired \(TimerQueue.maxFirings) times at one moment (the limit): "
                + "\(timers.joined(separator: ", ")) skipped the times still due"
        }
    }

    private var timers: [Timer] = []
    private var nextId = 1

    public init() {}

    /// Number of timers still scheduled.
    public var count: Int { timers.filter { !$0.cancelled }.count }

    @discardableResult
    public func schedule(at due: Date, every interval: Double? = nil, _ action: @escaping () throws -> Void) -> Timer {
        let t = Timer(id: nextId, due: due, interval: interval.map { max($0, 0.001) }, action: action)
        nextId += 1
        timers.append(t)
        return t
    }

    /// The earliest due time, if any.
    public var nextDue: Date? { timers.filter { !$0.cancelled }.map(\.due).min() }

    /// Fires every timer due at `now` (repeating timers as often as they fell due). Errors are collected and
    /// returned; the other timers still fire.
    @discardableResult
    public func fireDue(now: Date) -> [Error] {
        var errors: [Error] = []
        var guardCount = 0
        while guardCount < TimerQueue.maxFirings {
            timers.removeAll { $0.cancelled }
            guard let t = timers.filter({ $0.due <= now }).min(by: { ($0.due, $0.id) < ($1.due, $1.id) }) else { break }
            guardCount += 1
            if let i = t.interval { t.due = t.due.addingTimeInterval(i) } else { t.cancelled = true }
            do { try t.action() } catch { errors.append(error) }
        }
        if guardCount >= TimerQueue.maxFirings {
            // A repeating timer far behind (a long move of the clock) skips the times past the cap, so the next
            // call does not fire them all again.
            var skipped: [String] = []
            for t in timers where !t.cancelled && t.due <= now {
                skipped.append(t.interval.map { "timer \(t.id) (every \($0) s)" } ?? "timer \(t.id)")
                guard let i = t.interval, i.isFinite else { continue }
                t.due = t.due.addingTimeInterval(((now.timeIntervalSince(t.due) / i).rounded(.down) + 1) * i)
            }
            if !skipped.isEmpty { errors.append(LimitReached(timers: skipped)) }
        }
        return errors
    }
}
