import OKitEngine

/// The server's own small pages and answers: messages for 4xx/5xx, the login form, redirects, static files, and
/// the headers every answer carries (web.md "Security").
enum WebPages {
    static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "SAMEORIGIN"),
    ]

    /// A text from a request, as a message may quote it: at most 80 characters, control characters as `?`.
    static func shown(_ text: String) -> String {
        let clean = String(text.unicodeScalars.prefix(80).map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return text.unicodeScalars.count > 80 ? clean + "…" : clean
    }

    static func redirect(_ location: String) -> WebResponse {
        WebResponse(status: 303, headers: [("Location", location), ("Cache-Control", "no-store")] + securityHeaders)
    }

    /// A page: HTML, never cached by the browser (it is the current state).
    static func html(_ body: [UInt8]) -> WebResponse {
        WebResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")]
                    + securityHeaders, body: body)
    }

    static func staticFile(_ text: String, type: String) -> WebResponse {
        WebResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=3600")] + securityHeaders,
                    body: Array(text.utf8))
    }

    static func document(title: String, lang: String = "en", _ body: [HTMLNode]) -> [UInt8] {
        HTMLDocument(lang: lang, head: [.el("meta", [.attr("charset", "utf-8")]),
                            .el("meta", [.attr("name", "viewport"), .attr("content", "width=device-width, initial-scale=1")]),
                            .el("title", text: title),
                            .el("link", [.attr("rel", "stylesheet"), .attr("href", "/static/okit.css")])],
                     body: [.el("main", [.attr("id", "okit-main")], body)]).bytes()
    }

    /// The 421 page for a request whose `Host` names another server (DNS rebinding, HostCheck): no session, no app.
    static func misdirected(host: String?) -> WebResponse {
        // No link onwards: "/" on this name would be refused the same way.
        message(421, "This server does not answer for the name \"\(shown(host ?? ""))\"; open it by the address it was "
                + "started with (whoever runs it can allow another name with --allow-host NAME).", link: nil)
    }

    /// A short page for an answer that is not a screen: its status, one sentence, and a link onwards.
    /// `words`: the app's language for the title, the link and `<html lang>` (the caller puts `text` in it too);
    /// English before an app is loaded and for what only a program or an attacker meets. No link when `link` is nil.
    static func message(_ status: Int, _ text: String, link: String? = "/", words: BuiltInWords = .english) -> WebResponse {
        let title = words(status == 503 ? .busy : status >= 500 ? .somethingWentWrong : status == 404 ? .notFound : .refused)
        var content: [HTMLNode] = [.el("h1", text: title), .el("p", [.attr("role", "alert")], text: text)]
        if let link { content.append(.el("p", [], [.el("a", [.attr("href", link)], text: words(.goToTheApp))])) }
        let body = document(title: title, lang: PageContext.htmlLang(words.language), content)
        return WebResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")]
                           + securityHeaders, body: body)
    }

    /// The login form for the token (`--token-file`), in the app's language (`words`).
    static func login(csrf: String, failed: Bool, words: BuiltInWords = .english) -> WebResponse {
        var body: [HTMLNode] = [.el("h1", text: words(.logIn))]
        if failed { body.append(.el("p", [.attr("role", "alert")], text: words(.wrongToken))) }
        body.append(.el("form", [.attr("method", "post"), .attr("action", "/login")], [
            .el("input", [.attr("type", "hidden"), .attr("name", "csrf"), .attr("value", csrf)]),
            .el("label", [.attr("for", "okit-token")], text: words(.token)),
            .el("input", [.attr("type", "password"), .attr("id", "okit-token"), .attr("name", "token"), .attr("autocomplete", "current-password")]),
            .el("button", [.attr("type", "submit")], text: words(.logIn)),
        ]))
        return WebResponse(status: failed ? 403 : 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")]
                           + securityHeaders, body: document(title: words(.logIn), lang: PageContext.htmlLang(words.language), body))
    }
}
