import Foundation

/// Requests to the server and their errors: a transport failure or an unexpected status names the request and
/// the way out.
extension HTTPStorage {
    /// Sends a request; a transport failure becomes a `StorageError` ending with `advice`, whose way out is the
    /// failure's own (a body over the limit) or `remedy`.
    func call(_ method: String, _ url: URL, headers: [String: String] = [:], body: [UInt8]? = nil, advice: String,
              remedy: Remedy? = nil) throws -> HTTPResponse {
        do {
            return try client.send(HTTPRequest(method: method, url: url, headers: headers, body: body))
        } catch {
            throw StorageError(kind: .io, path: "\(method) \(url.absoluteString)", message: "\(error.reason); \(advice)",
                               remedy: error.remedy ?? remedy).worded(remedyWording)
        }
    }

    /// An unexpected status as an error naming the request, the status and the way out (the credentials, for a
    /// 401 or 403).
    func statusError(_ method: String, _ url: URL, _ response: HTTPResponse, advice: String, remedy: Remedy? = nil) -> StorageError {
        var hint = ""
        if (300..<400).contains(response.status) {   // never followed: the token stays with the endpoint's origin
            hint = " (a redirect to \(String((response.header("location") ?? "?").prefix(200))); okit does not follow redirects: set the endpoint to the final address)"
        }
        let refused = response.status == 401 || response.status == 403
        return StorageError(kind: .io, path: "\(method) \(url.absoluteString)", message: "\(response.statusLine)\(hint); \(advice)",
                            remedy: refused ? .checkEndpointToken : remedy).worded(remedyWording)
    }

    func loadAdvice(_ name: String) -> String {
        "model \"\(name)\" was not loaded (it is not started fresh while the server cannot be read)"
    }

    func keptAdvice(_ name: String) -> String {
        "your changes are kept in \(pending.bodyPath(name)) and sent again by the next store"
    }
}
