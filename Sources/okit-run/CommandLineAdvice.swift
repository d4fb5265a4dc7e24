import OKitEngine

/// The way out of an engine error in okit-run's words (its commands, flags and `OKIT_PASSPHRASE`): the engine's
/// errors say what is wrong and carry a `Remedy` as data; okit-run gives `words(for:)` to every app it loads
/// (`SessionOptions.remedyWording`, which the Lua bridge uses for Lua error strings and flow tests), and its own
/// messages, the JSON-lines answers and the terminal shell word errors with `message(for:)`. The one place these
/// words live; `okit-run serve` gives its pages the web's words instead (`BrowserAdvice`).
enum CommandLineAdvice {
    /// The full message for the user: the error's message and, when it carries a remedy, okit-run's advice.
    static func message(for error: any Error) -> String {
        Remedy.message(for: error, wording: words(for:))
    }

    /// A command's error for the person at the terminal or the JSON-lines client: a refusal in the app's language
    /// (`Engine.refusalText`), any other error as `message(for:)` says it.
    static func message(for error: any Error, in engine: Engine) -> String {
        engine.refusalText(error, wording: words(for:))
    }

    /// What is appended to an error's neutral message for its remedy.
    @Sendable static func words(for remedy: Remedy) -> String {
        switch remedy {
        case .fixOrRecover(let model):
            return "; fix it, or run okit-run with --recover \(model) to move it aside and start this model fresh"
        case .fixOrRestorePartial:
            return "; fix it, restore a backup (okit-run backup restore NAME), or move it aside to start this partial empty"
        case .passphraseBackupOrAside(let model, let path):
            let aside = model.map { "run okit-run with --recover \($0) to move it aside and start this model fresh" }
                ?? "move \(path) aside"
            return "\n  set OKIT_PASSPHRASE to the passphrase it was written with, restore a backup (okit-run backup restore NAME), or \(aside)"
        case .recover(let model):
            return "; run okit-run with --recover \(model) to move it aside"
        case .restoreModelFile(let model):
            return "\n  put \(model).json back (from your copy) and start again to apply the journal, or run okit-run with --recover \(model) to move the journal aside and start this model fresh"
        case .anotherDataFolder:
            return "; quit it first, or use another --data folder"
        case .forceRestore:
            return "\n  to restore it anyway: okit-run backup restore --force"
        case .syncKeepLocal:
            return "; fix it, or run okit-run sync --keep-local to overwrite it"
        case .syncChoose:
            return "; run okit-run sync --keep-local or --take-remote"
        case .checkDataFolder:
            return " (check --data or --app)"
        case .finishKeyChange:
            return ", then run `okit-run keys passphrase` again (same passphrases) to finish"
        case .finishInterruptedKeyChange(let noKey):
            return ": run `okit-run keys passphrase` again with the old and the new passphrase to finish it"
                + (noKey ? "; no key material here opens it: set OKIT_PASSPHRASE to the old or the new passphrase" : "")
        case .unsetPassphrase:
            return ": unset OKIT_PASSPHRASE (or change to a passphrase with okit-run keys passphrase)"
        case .convert(let model, let kind):
            return "; convert it first: okit-run convert --app APP.lua --model \(model) --to \(kind)"
        case .givePassphrase:
            return ": set OKIT_PASSPHRASE to it"
        case .passphraseOrKeyFile:
            return "; set OKIT_PASSPHRASE or restore keys/data.key"
        case .passphraseIfSealedWithOne:
            return " (and OKIT_PASSPHRASE if it was written with one)"
        case .useKeyFile(let keyFile):
            return "; unset OKIT_PASSPHRASE to use the key file \(keyFile)"
        case .giveCurrentPassphrase:
            return "; set OKIT_PASSPHRASE to the current passphrase"
        case .restoreKeys:
            return "\n  restore it from your copy of okit/keys/ (storage.md \"Encrypted models\"), restore a secure backup (okit-run backup restore NAME), or move the sealed files aside (okit-run --recover MODEL)"
        case .currentKeyWrong(let passphraseGiven, let interrupted):
            let finish = "an interrupted change is finished with the old passphrase as OKIT_PASSPHRASE and the new one it was started with"
            if passphraseGiven { return interrupted ? "; " + finish : "" }
            return "; if the data was sealed with a passphrase, set OKIT_PASSPHRASE to it" + (interrupted ? " (\(finish))" : "")
        case .raiseLimit(let limit):
            return " (\(limitVariables[limit] ?? limit))"
        case .checkEndpoint:
            return "; check OKIT_ENDPOINT and the server, then start again"
        case .checkEndpointToken:
            return "; check OKIT_ENDPOINT_TOKEN"
        case .checkDatabase:
            return "; check that PostgreSQL runs there and OKIT_DATABASE_URL (or the model's database) names it"
        case .checkDatabaseLogin:
            return "; check the user, the password (OKIT_DATABASE_PASSWORD, or the URL's) and the database name in OKIT_DATABASE_URL (or the model's database)"
        case .writableDataFolder(let readOnly):
            return readOnly
                ? "; okit-run writes its data folder: remount the file system read-write, or pass --data a folder on a writable disk"
                : "; okit-run writes its data folder: let this user write there, or pass --data a folder it may write"
        case .described(let text):
            return "; " + text
        }
    }

    /// The environment variables that set the limits of what okit reads (`Remedy.raiseLimit`).
    static let limitVariables = ["maxFileSize": "OKIT_MAX_FILE_SIZE", "backupMaxRatio": "OKIT_BACKUP_MAX_RATIO",
                                        "backupMaxSize": "OKIT_BACKUP_MAX_SIZE", "httpMaxBody": "OKIT_HTTP_MAX_BODY"]

    /// What startup warns while a passphrase change is unfinished.
    static var interruptedKeyChange: String {
        KeyChange.interruptedMessage + words(for: .finishInterruptedKeyChange(noKey: false))
    }
}
