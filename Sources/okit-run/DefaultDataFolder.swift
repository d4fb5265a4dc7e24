import Foundation
import OKitLua

/// Where an app's data lives when `--data` is not given (storage.md "The data folder"): `$XDG_DATA_HOME/okit/<app
/// folder name>` when XDG_DATA_HOME is an absolute path, else `$HOME/.local/share/okit/<app folder name>` — the
/// `~` every shell user means (the account's home from the password database only when HOME is unset or empty).
/// A relative XDG_DATA_HOME is ignored with a warning, as the XDG Base Directory spec asks; a HOME that does
/// not exist is refused (exit 4) rather than made, so a service or a test run never writes a stray home.
enum DefaultDataFolder {
    /// The default data folder of `app` under `environment`; `warn` gets the warning about a relative
    /// XDG_DATA_HOME (one line, without a newline).
    static func resolve(for app: URL, environment: [String: String], warn: (String) -> Void) throws -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty, !xdg.hasPrefix("/") {
            warn("okit-run: warning: XDG_DATA_HOME is not an absolute path (\(xdg)); it is ignored, as the XDG spec says: the data folder is under HOME")
        }
        let folder = path(for: app, environment: environment)
        if usesXDG(environment) { return folder }
        if let home = environment["HOME"], !home.isEmpty {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: home, isDirectory: &isFolder), isFolder.boolValue else {
                throw RunFailure(code: 4, message: "okit-run: HOME is \(home), which is not a folder, so the default data folder \(folder.path) cannot be made; set HOME to your home folder, or give the data folder with --data DIR")
            }
        }
        return folder
    }

    /// The default data folder of `app`, without the warning and the check of `resolve`.
    static func path(for app: URL, environment: [String: String]) -> URL {
        let id = app.deletingLastPathComponent().lastPathComponent
        let tail = "okit/" + (id.isEmpty ? "app" : id)
        if usesXDG(environment), let xdg = environment["XDG_DATA_HOME"] { return URL(fileURLWithPath: xdg).appendingPathComponent(tail) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share").appendingPathComponent(tail)
    }

    /// Whether XDG_DATA_HOME names the base folder: set to an absolute path.
    private static func usesXDG(_ environment: [String: String]) -> Bool {
        environment["XDG_DATA_HOME"]?.hasPrefix("/") == true
    }
}
