import Foundation
import OKitEngine

/// A store met `okit_models` at a newer schema version than this app's: another process, running a newer version
/// of the app, migrated the shared model while this one ran.
struct PostgresNewerSchema: Error {
    let version: Int
}

/// An older app does not write into a model a newer one migrated (storage.md "Shared models on PostgreSQL",
/// "Versions"): its rows would skip the migration. A process notices at its next follow (a migration's store
/// announces the new schema version; a catch-up reads `okit_models`) or at its next store (a store's transaction
/// reads `okit_models`), and from then on stores nothing: its changes are kept in its pending file, not lost.
extension PostgresStorage {
    /// Takes a schema version the database holds for the model; a newer one than this app's is said once (a warning
    /// while following; a store says it in its own error).
    func noticeSchema(_ version: Int?, engine: any ModelHost, warning: Bool = true) {
        guard let version, version > (storedSchemaVersion ?? 0) else { return }
        storedSchemaVersion = version
        guard version > engine.schemaVersion, warning else { return }
        engine.warn("\(settings.shown): model \"\(modelName)\" was migrated to version \(version) of the app by another process, and this process runs version \(engine.schemaVersion) (okit.app { version = … }); it stores no more changes to it (they are kept in \(pendingPath)). Stop this process and run the newer app")
    }

    /// The store's error once the model is newer than this app: nothing written, the changes kept on disk.
    func newerSchemaMessage(stored: Int, app: Int, plan: RelationalStorePlan) -> String {
        "model \"\(modelName)\" was migrated to version \(stored) of the app by another process, and this process runs version \(app) (okit.app { version = … }): an older app does not write into newer data, so nothing was stored; \(keepPending(plan)). Stop this process and run the newer app"
    }

    /// The model's schema version in `okit_models` (nil: no row), read where a catch-up reads every row.
    func readSchemaVersion() throws -> Int? {
        let r = try link.query("SELECT schema_version FROM \(PostgresTable.modelsTable) WHERE model = $1", [.text(modelName)])
        return r.rows.first.flatMap { Int64.fromRelationalValue(PostgresLink.values($0)[0]) }.map(Int.init)
    }
}
