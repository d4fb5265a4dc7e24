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
