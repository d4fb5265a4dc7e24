import OKitEngine
import OKitPostgres
import OKitSQLite

extension StorageRegistry {
    /// Every storage kind okit ships: the engine's own (`core`: file, transient, encrypted, http, encryptedHttp)
    /// and the backends' (`sqlite`, `postgres`). A front end that links the backends registers them with this.
    public static var builtIn: StorageRegistry {
        var r = StorageRegistry.core
        r.register(.sqlite, form: SQLiteForm(), options: ["encrypted"], SQLiteStorage.factory)
        r.register(.postgres, options: ["database", "encrypted"], PostgresStorage.factory)
        return r
    }
}
