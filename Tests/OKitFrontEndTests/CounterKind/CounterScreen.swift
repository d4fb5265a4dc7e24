import OKitEngine

// A screen kind of its own, in one folder (docs/engine.md "Where to put a new screen kind"): a counter shows a
// number of its context entity and takes `bump [BY]` and `reset`. This file is the engine part: the
// declaration, the open screen and the kind's own section of the snapshot.

/// `counter` screens: a number (`valuePath`, an int field) of the context entity.
struct CounterDeclaration: ScreenDeclaration {
    var id: String
    var type: String? { nil }
    var kind: String { "counter" }
    var titlePath = ""
    var valuePath = "count"

    func open(in shell: AppShell, context: Entity?, opener: (any ShellScreen)?) throws -> any ShellScreen {
        CounterScreen(declaration: self, engine: shell.engine, context: context)
    }

    func check(_ run: ScreenCheckRun) {
        run.run(id, "titlePath", titlePath, run.root)
        run.run(id, "valuePath", valuePath, run.root)
    }
}

/// The kind's part of the snapshot: under `screen.counter` in JSON, Lua and the tree.
struct CounterSection: ScreenSection, Equatable {
    var value: Int
    var step: Int

    func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("value", value)
        e.field("step", step)
    }
}

/// An open counter screen.
final class CounterScreen: ShellScreen {
    let declaration: CounterDeclaration
    let engine: Engine
    let context: Entity?

    init(declaration: CounterDeclaration, engine: Engine, context: Entity?) {
        self.declaration = declaration
        self.engine = engine
        self.context = context
    }

    var id: String { declaration.id }
    var kind: String { declaration.kind }
    func help() -> String? { "bump [BY] adds to the count; reset sets it to 0" }
    var editing: Bool { false }
    func setEditing(_ on: Bool) throws { throw ShellError.notAllowed("edit", id) }

    var value: Int { get throws { try engine.get(context, declaration.valuePath).intValue ?? 0 } }

    func snapshot(offset: Int, limit: Int) throws -> ScreenSnapshot {
        var s = ScreenSnapshot(id: id, kind: kind, context: context?.debugName)
        s.title = try engine.text(context, declaration.titlePath)
        s.section = CounterSection(value: try value, step: 1)
        return s
    }

    func bump(by n: Int) throws { try engine.set(context, binding: declaration.valuePath, .int(try value + n)) }
    func reset() throws { try engine.set(context, binding: declaration.valuePath, .int(0)) }
}
