import Foundation

/// Development mode (`okit-run serve APP.lua --dev`, web.md "Development mode"): for the app's author on their own
/// machine. Each page shows a Record bar that turns what the person does in that browser into a flow test saved
/// beside the app (`WebApp+Recording`). It serves on loopback only and never with a login token: a recording writes
/// files into the app's folder, which nobody else may ask for.
///
/// Live reload (`WebApp+Reload`, web.md "Live reload"): a change to the app's Lua or strings files loads its
/// declarations again, keeping the models in memory and each browser's place; a load error is shown on every
/// page while the last app that loaded keeps serving.
public struct DevOptions: Sendable {
    /// The app's Lua file: recorded tests go to `tests/` in its folder and launch it relative to themselves.
    public var app: URL
    /// The data folder the app runs on (its model files are what a recording starts from).
    public var dataFolder: URL?
    /// Whether the data folder held no model files before the app loaded (the app seeded its models): a
    /// recording started before any change launches its test fresh, without fixtures.
    public var dataStartedFresh: Bool
    /// The seed of a session on the virtual clock (the test's `seed =`); nil on the system clock.
    public var seed: UInt64?
    /// The language the app runs in (`--lang`), for the test's `lang =`.
    public var language: String?

    public init(app: URL, dataFolder: URL?, dataStartedFresh: Bool, seed: UInt64? = nil, language: String? = nil) {
        self.app = app
        self.dataFolder = dataFolder
        self.dataStartedFresh = dataStartedFresh
        self.seed = seed
        self.language = language
    }

    /// Why development mode cannot serve with these settings, or nil: a host that is not loopback, a login token
    /// (it exists to let others in) or host names besides loopback (a proxy or another machine's name).
    public static func refusal(host: String, token: Bool, allowedHosts: [String]) -> String? {
        if !ServeOptions.isLoopback(host) {
            return "--dev serves on loopback only (it writes tests into the app's folder): --host \(host) is not a loopback address"
        }
        if token {
            return "--dev cannot be used with --token-file: development mode is for one person on this machine, not for others to log in"
        }
        if let name = allowedHosts.first {
            return "--dev cannot be used with --allow-host \(name): development mode answers loopback only"
        }
        return nil
    }

    /// Whether the data folder holds model files (`<data>/okit/data/`, hidden files not counted).
    public static func hasModelFiles(_ dataFolder: URL) -> Bool {
        !DataFingerprint.of(dataFolder).isEmpty
    }
}

extension ServeOptions {
    /// Development mode when it was asked for and these settings allow it (`DevOptions.refusal`).
    var development: DevOptions? {
        guard let dev, DevOptions.refusal(host: host, token: token != nil, allowedHosts: allowedHosts) == nil else { return nil }
        return dev
    }
}
