import Foundation

/// The engine's own executor for a front end that is an actor: one thread, with a large stack (app code and
/// deep bindings recurse), that runs every job of the actor in order, so the `AppSession` (confined to one
/// thread), its models and the app's Lua state live on it and never on a server's event loops. An actor takes it
/// as its executor:
///
/// ```swift
/// actor MyFrontEnd {
///     let executor = EngineExecutor()
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
///
/// The web front end's `WebApp` is one (docs/engine.md "Where to put a new front end").
public final class EngineExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: the only mutable state, `jobs`, is read and written with `condition` locked, by
    // `enqueue` (any thread) and by the executor's own thread; nothing else is shared.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// Starts the thread.
    public init(stackSize: Int = 64 << 20) {
        let thread = Thread { [unowned self] in self.runLoop() }
        thread.stackSize = stackSize
        thread.name = "okit-engine"
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    private func runLoop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs = []
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
