import ArgumentParser
import Foundation
import OKitEngine
import OKitLua
import OKitPostgres
import OKitSQLite

/// `okit-run convert --app APP.lua [--data DIR] --model NAME --to sqlite|file|postgres` (storage.md "SQLite
/// models", "Shared models on PostgreSQL"): moves a model between a JSON file, a SQLite database and PostgreSQL,
/// verified and swapped in, the old form kept.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Move a model between a JSON file, a SQLite database and PostgreSQL.",
        discussion: """
        The model is read from the form its data folder holds, written in the other form beside it, read back \
        and compared, then swapped in; the old form is kept as <model>.<ext>.converted-<UTC timestamp> and never \
        deleted automatically. Then declare the model with the new storage in the app. The app must not be \
        running on the same data folder. --to postgres writes the model's rows into the database of \
        OKIT_DATABASE_URL (or the model's or app's database = …), which must not have rows of that model yet; \
        converting out of postgres (when the data folder holds no other form) leaves the rows in the database.
        """
    )

    @OptionGroup var options: AppOptions

    @Option(name: .long, help: "The model's name (okit.model(…, { name = … }); \"default\" when it has none).")
    var model: String

    @Option(name: .long, help: "sqlite, file or postgres.")
    var to: String

    func validate() throws {
        guard ["sqlite", "file", "postgres"].contains(to) else { throw ValidationError("--to must be sqlite, file or postgres") }
    }

    func run() throws {
        let target = model
        // The app is loaded for its schema only; every model is held in memory (whatever its declared kind and
        // stored form), so that nothing reads or writes the model but the conversion, and the others' data (one
        // converted before, not declared anew yet) does not matter.
        let database = DatabaseChoice()
        let luaApp = try AppLoader.convert.load(options) { o in
            for kind in o.storageKinds.kinds {
                o.storageKinds.register(kind) { request in
                    guard request.model == target else { return TransientStorage() }
                    database.url = try request.option("database", expected: "a URL string", example: "postgres://okit@127.0.0.1:5432/shop")
                    database.password = request.host.setting("databasePassword")
                    return TransientStorage()
                }
            }
        }
        guard let declared = luaApp.engine.model(named: target) else {
            let names = luaApp.engine.models.map(\.name).joined(separator: ", ")
            throw RunFailure(code: 2, message: "okit-run convert: the app has no model \"\(target)\" (its models: \(names))")
        }
        let done: ModelConversion.Done
        do {
            let files = try luaApp.session.dataFolderStorage()
            try Self.refuseSealed(model: target, declared: declared.storageKind, files: files)
            let settings = try database.url.map { try PostgresSettings.parse($0, password: database.password) }
            let (source, targetStorage) = try Self.storages(model: target, to: StorageKind(rawValue: to), files: files, database: settings)
            done = try ModelConversion.convert(model: target, rootType: declared.rootType, engine: luaApp.engine,
                                               from: source, to: targetStorage, now: Date())
        } catch {
            throw RunFailure(code: 4, message: "okit-run convert: \(CommandLineAdvice.message(for: error))")
        }
        print("converted model \"\(target)\" to \(to): \(done.path) (\(done.entities) entities)")
        for k in done.kept { print("kept the old form as \(k)") }
        print("declare it with storage = \"\(to)\" in okit.model")
    }
}

extension ConvertCommand {
    /// Where model `name` is converted from and to: into `postgres` from the form the data folder holds it in (its
    /// JSON file, else its SQLite database); into a local form from the other one, or from the database when the
    /// data folder holds neither.
    static func storages(model name: String, to kind: StorageKind, files: FileStorage,
                         database: PostgresSettings?) throws -> (from: ConvertibleStorage, to: ConvertibleStorage) {
        let local: [(kind: StorageKind, storage: ConvertibleStorage)] = [
            (.file, files), (.sqlite, SQLiteStorage(files: files, path: try files.folder.sqliteFile(name))),
        ]
        let held = try local.first { try $0.storage.holdsModel(name) == true }
        let postgres = database.map { PostgresStorage(files: files, settings: $0) }
        if kind == .postgres {
            guard let postgres else {
                throw ModelConversion.Failure("no database to convert model \"\(name)\" into: set OKIT_DATABASE_URL=postgres://user@host:port/database, or give database = \"…\" in okit.model or okit.app")
            }
            guard let held else {
                let places = try local.map { try $0.storage.conversionPlace(of: name) }.joined(separator: " nor ")
                throw ModelConversion.Failure("model \"\(name)\" has no stored data in \(files.modelsFolder) (neither \(places)); nothing was changed")
            }
            return (held.storage, postgres)
        }
        guard let target = local.first(where: { $0.kind == kind }) else {
            throw ModelConversion.Failure("okit-run convert moves models between \"file\", \"sqlite\" and \"postgres\", not to \"\(kind)\"")
        }
        if held == nil, let postgres { return (postgres, target.storage) }
        return (local.first { $0.kind != kind }!.storage, target.storage)
    }
}

extension ConvertCommand {
    /// A model whose file is sealed (an encrypted model with the encryption setting on) is not converted: neither a
    /// SQLite database nor PostgreSQL would keep it sealed.
    static func refuseSealed(model name: String, declared: StorageKind, files: FileStorage) throws {
        let path = try files.folder.modelFile(name)
        guard let head = try? AtomicFile.read(path), SealedFile.isSealed(head) else { return }
        let how = declared == .encrypted ? "storage = \"encrypted\"" : "its file \(path)"
        throw ModelConversion.Failure("model \"\(name)\" is sealed (\(how)), and neither a SQLite database nor PostgreSQL keeps it sealed, so it is not converted (nothing was changed)\n  to convert it anyway, first turn the app's encryption setting off (okit.app { encryption = … }, storage.md \"Encrypted models\"): its files are then written plain")
    }
}

/// The database the converted model's declaration names (the model's, the app's, or OKIT_DATABASE_URL).
final class DatabaseChoice {
    var url: String?
    var password: String?
}

extension AppLoader {
    static let convert = AppLoader(command: "okit-run convert", printsToStdout: false)
}
