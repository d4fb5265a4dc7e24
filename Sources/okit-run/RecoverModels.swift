import Foundation
import OKitBackends
import OKitEngine
import OKitLua

/// `--recover MODEL` (cli.md): moves a model's unreadable file aside so that the model starts fresh — only an
/// unreadable one. The app is loaded on its data folder first (without a shell, its output and warnings silent):
/// the named model whose file stops the load is moved aside, and the load tried again; a named model that reads
/// is left where it is (said on stderr), and a name the app does not declare is refused with the models it has.
extension AppRunOptions {
    func recoverModels(app appURL: URL, in dataFolder: URL, command: String) throws {
        var named: [String] = []
        for name in recover where !named.contains(name) { named.append(name) }
        guard !named.isEmpty else { return }
        let probe = AppLoader(command: command, printsToStdout: false, printsWarnings: false)
        var moved: Set<String> = []
        while true {
            let app: LuaApp
            do {
                app = try probe.load(appURL, dataFolder: dataFolder) { options in
                    settings.apply(to: &options)
                    options.checkOnly = true   // the models are read and migrated; no shell starts
                }
            } catch let f as RunFailure where f.code == 4 {
                // The model whose file stops the load, if it is one of the named ones; else the app's own load says why
                // (a folder in use and a full disk too: nothing is wrong with the file; nor with a model stored twice or
                // in another form, whose message says which file to keep: moving both aside would start it empty).
                let lower = f.message.lowercased()
                guard !lower.contains("in use"), !lower.contains("no space left"), !lower.contains("is stored twice:"),
                      !lower.contains("but its data is"),
                      let model = AppOptions.damagedModels(in: f.message).first(where: { named.contains($0) && !moved.contains($0) }) else { return }
                try moveAside(model, in: dataFolder, command: command)
                moved.insert(model)
                continue
            } catch {
                return   // the app's code fails: its own load says so
            }
            let declared = app.engine.models.map(\.name)
            app.session.closeStorages()
            for name in named where !moved.contains(name) {
                guard declared.contains(name) else {
                    throw RunFailure(code: 2, message: "\(command): --recover \(name): the app declares no model \"\(name)\"; its models: \(declared.joined(separator: ", "))\n  nothing was moved aside")
                }
                StandardStreams.error("okit-run: model \(name) reads: nothing was moved aside (--recover moves only a model that does not load)\n")
            }
            return
        }
    }

    private func moveAside(_ name: String, in dataFolder: URL, command: String) throws {
        do {
            let moved = try FileStorage.recover(dataFolder: dataFolder, model: name, forms: AppLoader.storageKinds.forms)
            let what = moved.isEmpty ? "nothing to move aside for model \(name)" : "moved aside: " + moved.joined(separator: ", ")
            StandardStreams.error("okit-run: \(what)\n")
        } catch {
            throw RunFailure(code: 4, message: "\(command): \(CommandLineAdvice.message(for: error))")
        }
    }
}
