import ArgumentParser
import Foundation
import OKitEngine
import OKitLua

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
        // The app is loaded for its schema; the model to convert is held in memory only (whatever its declared
        // kind and stored form), so that nothing reads or writes it but the conversion.
        let database = DatabaseChoice()
        let luaApp = try AppLoader.convert.load(options) { o in
            for kind in o.storageKinds.kinds {
                let normal = o.storageKinds
                o.storageKinds.register(kind) { request in
                    guard request.model == target else { return try normal.makeStorage(request) }
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
            let settings = try database.url.map { try PostgresSettings.parse($0, password: database.password) }
            done = try ModelConversion.convert(model: target, rootType: declared.rootType, engine: luaApp.engine, files: files,
                                               to: StorageKind(rawValue: to), database: settings, now: Date())
        } catch {
            throw RunFailure(code: 4, message: "okit-run convert: \(CommandLineAdvice.message(for: error))")
        }
        print("converted model \"\(target)\" to \(to): \(done.path) (\(done.entities) entities)")
        for k in done.kept { print("kept the old form as \(k)") }
        print("declare it with storage = \"\(to)\" in okit.model")
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
