import OKitEngine

/// A front end of its own, in one file (docs/engine.md "Where to put a new front end"): an actor on the engine's
/// executor that holds an `AppSession`, runs commands through a `Driver` (one per person) and answers each with
/// the snapshot as `path = value` lines, written from the neutral encoded form (`Snapshot.tree`) without naming a
/// field of it.
actor LineFrontEnd {
    let executor = EngineExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    var session: AppSession?
    var drivers: [String: Driver] = [:]

    /// Makes the session on the engine's thread; the declaring side (Lua, or Swift as here) fills it.
    func load(_ make: @Sendable () throws -> AppSession) throws {
        session = try make()
    }

    /// The driver of a person: the session's first shell for the first one, a shell of their own for the others.
    func driver(_ person: String) throws -> Driver {
        guard let session else { throw ShellError.notStarted }
        if let d = drivers[person] { return d }
        let d = drivers.isEmpty ? session.driver : Driver(shell: try session.makeShell(), host: session)
        drivers[person] = d
        return d
    }

    /// Runs a command for a person, its arguments as text read by the command's description; answers the lines of
    /// the snapshot that person sees now.
    func send(_ person: String, _ name: String, _ arguments: [String: String] = [:]) throws -> [String] {
        let driver = try driver(person)
        var values: [String: Value] = [:]
        for a in driver.table[name]?.description.arguments ?? [] {
            guard let text = arguments[a.name] else { continue }
            values[a.name] = a.form == .row ? Int(text).map { .int($0) } ?? .string(text) : .string(text)
        }
        try driver.run(name, values)
        return Self.lines(try driver.shell.snapshot().tree)
    }

    /// Stores every model (the end of input, a stop signal).
    func stop() throws {
        _ = try session?.storeAtExit()
    }

    /// A tree as `path = value` lines (`screen.sections[0].rows[0].text = "Dune"`); nulls are left out.
    static func lines(_ tree: JSONTree, _ path: String = "") -> [String] {
        switch tree {
        case .null: return []
        case .object(let members): return members.flatMap { lines($0.value, path.isEmpty ? $0.key : path + "." + $0.key) }
        case .array(let items): return items.enumerated().flatMap { lines($1, "\(path)[\($0)]") }
        case .string(let s): return ["\(path) = \"\(s)\""]
        case .bool(let b): return ["\(path) = \(b)"]
        case .int(let i): return ["\(path) = \(i)"]
        case .double(let d): return ["\(path) = \(d)"]
        }
    }
}
