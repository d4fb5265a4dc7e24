/// The session cookie (web.md "Sessions"). Behind https it is `__Host-okit_session`: a browser takes a cookie of
/// that name only from this very host, over https, for the whole site, so another site of the domain
/// (`evil.example.org`) cannot put one of its own beside it (cookie tossing); a plain `okit_session` is not read
/// then. On plain http (loopback) it is `okit_session`, as a browser keeps no `__Host-` cookie without https.
enum SessionCookie {
    static let plain = "okit_session"
    static let secure = "__Host-okit_session"

    /// The cookie's name for a request made over https (`secure`) or not.
    static func name(secure: Bool) -> String { secure ? SessionCookie.secure : plain }

    /// The login form's cookie (`LoginTokens`): no session, only what ties the form's token to the browser it was
    /// shown to. `__Host-okit_login` behind https, as the session's.
    static func loginName(secure: Bool) -> String { secure ? "__Host-okit_login" : "okit_login" }

    /// The values of every session cookie (`login`: login cookie) in a request's `Cookie` headers, in order (empty
    /// ones left out): only the name of the request's scheme counts.
    static func values(_ headers: [String], secure: Bool, login: Bool = false) -> [String] {
        let wanted = (login ? loginName(secure: secure) : name(secure: secure)) + "="
        var found: [String] = []
        for header in headers {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard trimmed.hasPrefix(wanted) else { continue }
                let value = String(trimmed.dropFirst(wanted.count))
                if !value.isEmpty { found.append(value) }
            }
        }
        return found
    }
}
