import Foundation
import OKitEngine

/// Data stored by a newer version of the app (storage.md "Versions"): not taken, nor rewritten stamped older.
extension LuaApp {
    /// Refuses the models among `models` whose data a newer app version stored, naming every one (where it is
    /// declared, its file) in one error; for a restore (`restoreOverNewer`) they are kept loaded, untouched, in
    /// `session.newerData`, for the restore to replace. Returns their names.
    func refuseNewerData(_ models: [Model]) throws -> Set<String> {
        let app = engine.schemaVersion
        let newer = models.filter { ($0.storedVersion ?? 0) > app }
        guard !newer.isEmpty else { return [] }
        if session.options.restoreOverNewer {
            session.newerData = newer.map(\.name)
            return Set(session.newerData)
        }
        storageFailed = true
        let lines = newer.map { m in
            let site = modelSites[m.name].map { "\($0): " } ?? ""
            let place = dataPath(of: m).map { "\($0): " } ?? ""
            return "\(site)okit.model(\"\(m.rootType.name)\"): \(place)model \"\(m.name)\" was stored by version \(m.storedVersion ?? 0) of the app, and this app is version \(app) (okit.app { version = … })"
        }
        let shared = newer.contains { dataPath(of: $0) == nil }
        let advice = "  an older app does not rewrite newer data; it is left as it is. Run the newer app, or restore a backup made with version \(app) (okit-run backup restore keeps the newer data)"
            + (shared ? "; a restore of a model shared in a database also undoes what every other process stored since" : "")
        throw AppLoadError(message: (lines + [advice]).joined(separator: "\n"), isStorage: true)
    }

    /// The file that holds model `m`'s data: its storage's, else its form's in the data folder (`<model>.sqlite`);
    /// nil for a model kept elsewhere (a database), which the message names once by its model name.
    func dataPath(of m: Model) -> String? {
        if let path = try? (engine.storage(of: m.name) as? FileBackedStorage)?.path(of: m.name) { return path }
        if let folder = session.options.dataFolder.map(DataFolder.init),
           let form = session.options.storageKinds.forms.first(where: { $0.kind == m.storageKind }),
           let path = try? form.file(of: m.name, in: folder) {
            return path
        }
        return nil
    }
}
