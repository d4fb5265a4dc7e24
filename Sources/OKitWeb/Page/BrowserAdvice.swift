import OKitEngine

/// The way out of an engine error in the words of a person in a browser: they cannot run okit-run's commands,
/// set its environment or pass it flags, so a remedy says what happened to their data and who can act (whoever
/// runs the server) — never a command line. `okit-run serve` gives `words(for:)` to every session as
/// `SessionOptions.remedyWording`, and the pages word every error with `message(for:)`.
public enum BrowserAdvice {
    /// The message a person reads on a page for `error`: its neutral message and the browser's words for its remedy.
    public static func message(for error: any Error) -> String {
        Remedy.message(for: error, wording: words(for:))
    }

    /// What is appended to an error's neutral message for its remedy, for a person in a browser.
    @Sendable public static func words(for remedy: Remedy) -> String {
        switch remedy {
        case .fixOrRecover, .recover, .restoreModelFile, .fixOrRestorePartial, .passphraseBackupOrAside:
            return "; nothing was overwritten — ask whoever runs this server to repair or restore it"
        case .anotherDataFolder:
            return "; the data is in use by another program — ask whoever runs this server"
        case .forceRestore:
            return "; a backup of another app is restored only by whoever runs this server"
        case .syncKeepLocal, .syncChoose:
            return "; the server's copy and this one differ — ask whoever runs this server to choose"
        case .checkDataFolder, .convert, .raiseLimit, .writableDataFolder:
            return "; ask whoever runs this server"
        case .finishKeyChange, .finishInterruptedKeyChange, .unsetPassphrase, .givePassphrase, .passphraseOrKeyFile,
             .passphraseIfSealedWithOne, .useKeyFile, .giveCurrentPassphrase, .currentKeyWrong,
             .restoreKeys:
            return "; the data's key is not right on the server — ask whoever runs it"
        case .checkEndpoint, .checkEndpointToken, .checkDatabase:
            return "; the server cannot reach where the data is kept — try again later, or tell whoever runs it"
        case .checkDatabaseLogin:
            return "; the server is not let in where the data is kept — tell whoever runs it"
        case .described(let text):
            return "; " + text
        }
    }
}
