import OKitEngine

/// The server's own short pages a person meets — a screen that does not exist, a form of a session that ended, the
/// app too busy — in the app's language (web.md "Errors a person meets"): the sentence, the title, the link and
/// `<html lang>` are built-in words (`BuiltInWord`), the app's own strings over OKit's. What only a program or an
/// attacker meets (a proxy without a token, a form naming no command, a bad `Host`) stays in English.
extension WebApp {
    /// The built-in words of the app's language; English before the app is loaded.
    var serverWords: BuiltInWords { hosted?.session.engine.builtInWords ?? .english }

    /// A short page whose sentence is `word` (with its one argument, if it takes one).
    func said(_ status: Int, _ word: BuiltInWord, _ argument: String? = nil, link: String? = "/") -> WebResponse {
        let words = serverWords
        return WebPages.message(status, argument.map { words(word, $0) } ?? words(word), link: link, words: words)
    }

    /// A short page whose sentence is `word` with a count, in the form of the count (`… in 1 second`).
    func said(_ status: Int, _ word: BuiltInWord, count n: Int, link: String? = "/") -> WebResponse {
        let words = serverWords
        return WebPages.message(status, words(word, count: Double(n), String(n)), link: link, words: words)
    }
}

extension WebApp {
    /// A store whose values the database refused (storage.md "Values a database refuses"), as a person's page says
    /// it: the fields and values in the app's words (`Not saved: Count "5000"`), never the database's URL, the
    /// server's files, the database's English or a row as JSON (web.md "Durable per command"); the server's log
    /// keeps the whole message. Nil for any other failure.
    /// `refusedValuesWords` of a command's error, the whole message written to the server's log.
    func refusedValuesSaid(_ error: any Error, _ app: AppSession) -> String? {
        guard let words = WebApp.refusedValuesWords(error, app.engine) else { return nil }
        log("okit-run serve: warning: \(error)")
        return words
    }

    static func refusedValuesWords(_ error: any Error, _ engine: Engine) -> String? {
        let inner = (error as? ModelNotStored)?.error ?? error
        guard let storage = inner as? StorageError, !storage.refusedValues.isEmpty else { return nil }
        return engine.refusedNotice(storage.refusedValues)
    }
}
