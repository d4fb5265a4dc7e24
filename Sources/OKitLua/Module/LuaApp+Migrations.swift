import OKitEngine

/// `okit.migrate` (lua-api.md "Schema versions"): the migrations of a model stored by an older version of the app.
extension LuaApp {
    /// Runs the migrations for a model stored by an older schema version (in one transaction). Values stored with
    /// another type than their field now declares are theirs to convert (`Engine.takeMistyped`); an error names
    /// the migration and the model, and nothing is changed.
    func migrate(_ model: Model) throws {
        guard let stored = model.storedVersion else { return }
        guard let current = appVersion, stored < current else {
            // Values kept while the app had not declared its version yet (`okit.model` before `okit.app`): no
            // migration runs for this model, so they are refused as the reader refuses them.
            try finishMistyped(engine.takeMistyped(of: model), model, stored: stored, migrated: false)
            return
        }
        let steps = migrations.filter { $0.version >= stored && $0.version < current }.sorted { $0.version < $1.version }
        let mistyped = engine.takeMistyped(of: model)
        guard !steps.isEmpty else {
            try finishMistyped(mistyped, model, stored: stored, migrated: false)
            return
        }
        let raw = rawDocument(model, stored: stored)
        var running = steps[0].version
        var site = steps[0].site
        migratingModel = model.name
        defer { migratingModel = nil }
        do {
            try engine.transaction {
                for step in steps {
                    running = step.version
                    site = step.site
                    let t = lua.top
                    defer { lua.top = t }
                    step.fn.push()
                    push(.entity(model.root))
                    lua.push(raw)
                    try lua.pcall(nargs: 2, nresults: 0)
                }
            }
        } catch let e as LuaError {
            throw LuaRaise("""
                \(site.map { "\($0): " } ?? "")okit.migrate(\(running), …), the migration from version \(running) to \(running + 1) of model "\(model.name)" (a \(model.rootType.name)), failed: \(e.message)
                  nothing was changed: the stored data is left as it is (version \(stored)); fix the migration and start the app again
                """, withPosition: false)
        }
        try finishMistyped(mistyped, model, stored: stored, migrated: true)
        engine.markWholeDirty(model)
    }

    /// `okit.store`/`okit.storeState` inside a migration: refused, since a store there wrote the migrated part
    /// under the new version's header and a later error left the data half-migrated (and stuck).
    func refuseStoreWhileMigrating(_ name: String) throws {
        guard let model = migratingModel else { return }
        throw LuaRaise("\(name)() inside a migration (of model \"\(model)\"): okit stores the migrated data itself once every "
            + "migration succeeded; remove the call")
    }

    private func finishMistyped(_ mistyped: MistypedValues, _ model: Model, stored: Int, migrated: Bool) throws {
        guard !mistyped.isEmpty else { return }
        do { try engine.finishMistyped(mistyped, model: model, stored: stored, migrated: migrated) } catch let e as MistypedValuesError {
            storageFailed = true
            let where_ = modelSites[model.name].map { "\($0): " } ?? ""
            throw AppLoadError(message: "\(where_)okit.model(\"\(model.rootType.name)\"): \(dataPath(of: model) ?? "model \"\(model.name)\""): \(e.description)", isStorage: true)
        }
    }

    /// `raw`: the model as it was stored — its JSON document (fields this schema no longer has included: the
    /// reader keeps them, and values of another type than their field now declares), as plain Lua tables.
    private func rawDocument(_ model: Model, stored: Int) -> LuaValue {
        var document = JSONTree.parse(Array(engine.json(of: model).utf8), nonFiniteWords: false) ?? .object([])
        if case .object = document {} else { document = .object([]) }
        if case .object(var members) = document, case .object(var header)? = document["okit"] {
            header.removeAll { $0.key == "version" }
            header.append((key: "version", value: .int(stored)))
            members.removeAll { $0.key == "okit" }
            members.append((key: "okit", value: .object(header)))
            document = .object(members)
        }
        return LuaApp.luaValue(json: document)
    }

    /// The migrations that never run in this app, one line each (`okit-run check` and a warning at load): a
    /// migration is named by the version it migrates from, so `okit.migrate(v, …)` with v ≥ the app's version has
    /// no data to migrate.
    func unreachableMigrationLines() -> [String] {
        let current = engine.schemaVersion
        return migrations.filter { $0.version >= current }.map { m in
            let instead = current > 1 ? "the migration from version \(current - 1) to \(current) is okit.migrate(\(current - 1), …)"
                : "give the app its next version first (okit.app { version = 2 })"
            return "\(m.site.map { "\($0): " } ?? "")okit.migrate(\(m.version), …) never runs: this app is version \(current), "
                + "and a migration is named by the version it migrates from; \(instead)"
        }
    }
}
