import Foundation
import OKitEngine

/// How a front end's session ended (cli.md "Storing, stopping and warnings").
enum SessionEnd {
    /// `quit`: the state was stored before `quit` was answered.
    case quit
    /// `quit!`: the person chose to leave without storing.
    case quitWithoutStoring
    /// The end of input, a broken output or a stop signal: the state is stored now, and a failure exits 4 saying
    /// that the changes since the last store are lost.
    case ended
}

/// The store at `quit`: `quit` is answered only after the state is stored, and a store that fails refuses to
/// quit — the session goes on with the changes in memory, so the person can free space and quit again — or
/// leave with `quit!` without storing.
struct QuitStore {
    /// Stores the state (and writes every model whole) at quit.
    let store: () throws -> Void

    /// The line that leaves without storing.
    static let force = "quit!"

    /// Stores the state: nil when it worked, else the refusal to quit (`force`: how the front end's person types
    /// `quit!`).
    func attempt(force: String = QuitStore.force) -> String? {
        do {
            try store()
            return nil
        } catch {
            return QuitStore.refusal(error, force: force)
        }
    }

    /// `could not store the state (…/default.json: cannot write: no space left on the disk); okit-run keeps
    /// running with the changes: free some space on the disk and quit again, or quit! to leave without storing them`
    static func refusal(_ error: any Error, force: String) -> String {
        "could not store the state (\(CommandLineAdvice.message(for: error))); okit-run keeps running with the changes: "
            + whatToDo(error) + " and quit again, or \(force) to leave without storing them"
    }

    /// The way out of a store that failed, by the system's reason.
    static func whatToDo(_ error: any Error) -> String {
        let storage = (error as? StorageError) ?? ((error as? ModelNotStored)?.error as? StorageError)
        switch storage?.systemError {
        case ENOSPC, EDQUOT: return "free some space on the disk"
        case EROFS: return "remount the file system read-write"
        case EACCES, EPERM: return "make the data folder writable"
        default: return "fix the cause"
        }
    }

    /// What is said on stderr when the process ends without the state stored (`how`: `exited`, `stopped
    /// (signal 15)`, `left with quit!`), as `okit-run serve` says it (without a line end).
    static func lostLine(_ how: String) -> String {
        "okit-run: \(how) WITHOUT storing the state: the changes since the last store that worked are lost"
    }
}
