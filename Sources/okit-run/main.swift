import ArgumentParser
import Foundation
import OKitLua

// Exit codes (screens.md): 0 ok; 1 a command or script failed; 2 usage; 3 the app failed to load;
// 4 storage failed.

// A reader of stdout that goes away must not kill the process before it stores the state: with SIGPIPE
// ignored, a write to a closed pipe fails with EPIPE, and the front ends end the session as at end of input.
signal(SIGPIPE, SIG_IGN)

do {
    var command = try OKitRun.parseAsRoot()
    try command.run()
} catch let exit as ExitCode {
    OKitRun.exit(withError: exit)
} catch let failure as RunFailure {
    if !failure.message.isEmpty { StandardStreams.error((failure.message + "\n")) }
    Foundation.exit(failure.code)
} catch {
    let code = OKitRun.exitCode(for: error)
    if code == .validationFailure {
        StandardStreams.error((OKitRun.fullMessage(for: error) + "\n"))
        Foundation.exit(TestCommand.unparsedExitCode())   // 2; 1 for okit-run test in a busted project, as busted
    }
    OKitRun.exit(withError: error)
}
