import ArgumentParser
import Foundation
import OKitEngine
import OKitLua
#if canImport(Glibc)
import Glibc
#endif

/// `okit-run keys passphrase` (storage.md "Keys", docs/keys.md): changes the key of an app's encrypted data and
/// re-seals every sealed file with it, crash-safely.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage the key of an app's encrypted data.",
        subcommands: [Passphrase.self]
    )

    struct Passphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passphrase",
            abstract: "Change the passphrase of an app's encrypted data, re-sealing every file.",
            discussion: """
            The current passphrase is OKIT_PASSPHRASE (unset: the key file okit/keys/data.key), or the first line \
            of stdin with --old-stdin (an empty line: the key file). The new one is asked twice on the terminal, \
            or is a line of stdin with --new-stdin (after the old one when both are on stdin). An empty new \
            passphrase switches to a new random key file. The app must not be running on the same data folder. \
            An interrupted change is finished by running the command again with the same passphrases. \
            Losing the key file and the passphrase loses the data.
            """
        )

        @Option(name: .long, help: "The app file (its folder name gives the default data folder).")
        var app: String?

        @OptionGroup var dataFolder: DataFolderOption

        @Flag(name: .long, help: "Read the current passphrase from the first line of stdin instead of OKIT_PASSPHRASE (an empty line: the key file).")
        var oldStdin = false

        @Flag(name: .long, help: "Read the new passphrase from stdin (one line; an empty line: switch to a key file).")
        var newStdin = false

        func validate() throws {
            guard app != nil || dataFolder.data != nil else { throw ValidationError("give --app APP.lua or --data DIR") }
        }

        static func say(_ line: String) { StandardStreams.error((line + "\n")) }

        func run() throws {
            // --data alone needs no app file; the app only gives the default data folder.
            let folder: URL
            if let data = dataFolder.data {
                folder = URL(fileURLWithPath: data)
            } else {
                folder = try dataFolder.folder(for: AppLoader.keys.appFile(app ?? ""))
            }
            guard FileManager.default.fileExists(atPath: DataFolder(folder).okit) else {
                throw RunFailure(code: 2, message: "okit-run keys passphrase: there is no okit data at \(folder.path) (check --data or --app)")
            }
            let keys = URL(fileURLWithPath: DataFolder(folder).keys, isDirectory: true)
            let interrupted = KeyChange.interruptedChange(dataFolder: folder)
            if interrupted { Self.say("okit-run keys passphrase: finishing the passphrase change that was interrupted") }

            let old = try currentPassphrase(keys: keys)
            let new = try newPassphrase()
            if new.isEmpty {
                Self.say("okit-run keys passphrase: warning: the new passphrase is empty: the data will be sealed with a new random key file, \(keys.path)/data.key; without that file the data cannot be read")
            }

            // On a terminal, a count on stderr: "re-sealing 3/10 files".
            let counting = isatty(2) == 1
            var shown = false
            func endCount() { if shown { Self.say("") } }
            let count: Int
            do {
                count = try KeyChange.changePassphrase(dataFolder: folder, old: old, new: new) { done, total in
                    guard counting else { return }
                    StandardStreams.error("\rre-sealing \(done)/\(total) files")
                    shown = true
                }
            } catch {
                endCount()
                throw RunFailure(code: 4, message: "okit-run keys passphrase: \(CommandLineAdvice.message(for: error))")
            }
            endCount()
            let files = count == 1 ? "1 file" : "\(count) files"
            if new.isEmpty {
                print("re-sealed \(files); the new key file \(keys.path)/data.key is in effect (unset OKIT_PASSPHRASE)")
                print("Keep a copy of the key file somewhere safe: losing the key file and the passphrase loses the data.")
            } else {
                print("re-sealed \(files); the new passphrase is in effect (set OKIT_PASSPHRASE to it)")
                print("Remember it (and keep \(keys.path)/salt): losing the key file and the passphrase loses the data.")
            }
            print("Backups made before the change need the old key to restore; make a new one (docs/backups.md).")
        }

        /// `--old-stdin`'s first line, else OKIT_PASSPHRASE, else the key file (nil) — or, on a terminal, asked
        /// when the data has a salt but no key file and OKIT_PASSPHRASE is unset.
        func currentPassphrase(keys: URL) throws -> String? {
            if oldStdin {
                guard let line = SecretInput.line() else {
                    throw RunFailure(code: 2, message: "okit-run keys passphrase: no current passphrase on stdin (--old-stdin)")
                }
                return line.isEmpty ? nil : line
            }
            if let env = ProcessInfo.processInfo.environment["OKIT_PASSPHRASE"], !env.isEmpty { return env }
            let fm = FileManager.default
            if !fm.fileExists(atPath: keys.appendingPathComponent(DataFolder.keyFileName).path),
               fm.fileExists(atPath: keys.appendingPathComponent(DataFolder.saltName).path),
               let asked = SecretInput.ask("Current passphrase: "), !asked.isEmpty {
                return asked
            }
            return nil
        }

        /// `--new-stdin`'s line, else asked twice on the terminal with echo off (the two must match).
        func newPassphrase() throws -> String {
            if newStdin {
                guard let line = SecretInput.line() else {
                    throw RunFailure(code: 2, message: "okit-run keys passphrase: no new passphrase on stdin (--new-stdin)")
                }
                return line
            }
            guard let first = SecretInput.ask("New passphrase (empty: a random key file): ") else {
                throw RunFailure(code: 2, message: "okit-run keys passphrase: the new passphrase is asked on a terminal; give it on stdin with --new-stdin")
            }
            guard let second = SecretInput.ask("New passphrase again: "), second == first else {
                throw RunFailure(code: 2, message: "okit-run keys passphrase: the two new passphrases do not match; nothing was changed")
            }
            return first
        }
    }
}
