import Foundation
@testable import OKitWeb

extension ServeOptions {
    /// The server's options for an in-process test that is not about idle sessions: a session made by a first GET
    /// is not dropped as "new, never came back" a minute later. Under the sanitizers, with the whole suite on two
    /// cores, a test's GET and its next POST were more than `newSessionSeconds` (60 s) apart, the sweep before the
    /// POST dropped the session and the test failed on a page it never asked for (CI failed on five such tests).
    /// Tests of the idle rules state their own limits and pass their own clock (`sweepIdle(now:)`).
    static var unhurried: ServeOptions {
        var options = ServeOptions()
        options.newSessionSeconds = 24 * 3600
        options.idleSeconds = 24 * 3600
        return options
    }
}
