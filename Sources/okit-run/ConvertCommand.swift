import ArgumentParser
import Foundation
import OKitEngine
import OKitLua

/// `okit-run convert --app APP.lua [--data DIR] --model NAME --to sqlite|file` (storage.md "SQLite models"):
/// moves a model between a JSON file and a SQLite database, verified and swapped in, the old form kept.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Move a model between a JSON file and a SQLite database.",
        discussion: """
        The model is read from the form its data folder holds, written in the other form beside it, read back \
        and compared, then swapped in; the old form is kept as <model>.<ext>.converted-<UTC timestamp> and never \
        deleted automatically. Then declare the model with the new storage in the app. The app must not be \
        running on the same data folder.
        """
    )

    @OptionGroup var options: AppOptions

    @Option(name: .long, help: "The model's name (okit.model(…, { name = … }); \"default\" when it has none).")
    var model: String

    @Option(name: .long, help: "sqlite or file.")
    var to: String

    func validate() throws {
        guard to == "sqlite" || to == "file" else { throw ValidationError("--to must be sqlite or file") }
    }

    func run() throws {
        let target = model
        // The app is loaded for its schema; the model to convert is held in memory only (whatever its declared
        // kind and stored form), so that nothing reads or writes it but the conversion.
        let luaApp = try AppLoader.convert.load(options) { o in
            for kind in o.storageKinds.kinds {
                let normal = o.storageKinds
                o.storageKinds.register(kind) { request in
                    request.model == target ? TransientStorage() : try normal.makeStorage(request)
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
            done = try ModelConversion.convert(model: target, rootType: declared.rootType, engine: luaApp.engine, files: files,
                                               to: to == "sqlite" ? .sqlite : .file, now: Date())
        } catch {
            throw RunFailure(code: 4, message: "okit-run convert: \(CommandLineAdvice.message(for: error))")
        }
        print("converted model \"\(target)\" to \(to): \(done.path) (\(done.entities) entities)")
        for k in done.kept { print("kept the old form as \(k)") }
        print("declare it with storage = \"\(to)\" in okit.model")
    }
}

extension AppLoader {
    static let convert = AppLoader(command: "okit-run convert", printsToStdout: false)
}
