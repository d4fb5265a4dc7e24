import Foundation
import OKitEngine

/// Files over the web (web.md "Files"): images and web cells of the page a session is shown, and backups
/// downloaded and uploaded. Nothing here takes a file path from the request: an image or a web cell is named by its
/// place (section and row) on the session's current page and read through the engine from the binding behind it; a
/// backup is named by a name that must be one of the backups the session lists.
extension WebApp {
    /// The first path segments of file routes.
    static let fileRoutes: Set<String> = ["image", "web", "backups"]

    /// Whether a request is for a file: `GET /image/…`, `GET /web/…`, `GET /backups/<name>` or `POST /backups`
    /// (a tab with one of these ids keeps its pages).
    func isFileRoute(_ request: WebRequest, _ ws: WebSession) -> Bool {
        let segments = request.path.split(separator: "/").map(String.init)
        guard let first = segments.first, WebApp.fileRoutes.contains(first), !ws.shell.home.contains(first) else { return false }
        return request.method == "GET" ? segments.count > 1 : request.method == "POST" && segments.count == 1 && first == "backups"
    }

    /// Answers a request `isFileRoute` accepted.
    func fileAnswer(_ request: WebRequest, _ ws: WebSession, _ app: AppSession) -> WebResponse {
        // A covered session shows nothing of the models: no image or web cell of the page it showed before either.
        if ws.shell.covered { return said(403, .unlockFirst, link: "/") }
        let segments = request.path.split(separator: "/").map { LocationPath.decode(String($0)) }
        switch (request.method, segments.first) {
        case ("POST", _): return backupUpload(request, ws, app)
        case (_, "backups"): return segments.count == 2 ? backupDownload(segments[1], ws, app) : notFound("There is no such backup.")
        default:
            guard segments.count == 3, let s = Int(segments[1]), let r = Int(segments[2]), let row = shownRow(ws, s, r) else {
                return notFound("There is no such cell on this page.")
            }
            return segments[0] == "image" ? image(row, s, r, ws) : webCell(row)
        }
    }

    func notFound(_ text: String) -> WebResponse { WebPages.message(404, text) }

    /// A row of the page the session was shown last, by section and row (0-based).
    func shownRow(_ ws: WebSession, _ s: Int, _ r: Int) -> RowSnapshot? {
        guard let sections = ws.shown?.screen.sections, sections.indices.contains(s), sections[s].rows.indices.contains(r) else { return nil }
        return sections[s].rows[r]
    }

    // MARK: Images

    /// `GET /image/<section>/<row>`: the bytes of the image behind a row (`imagePath` of a list's cell, on the row's
    /// entity) or a detail cell (its `imagePath`, on the screen's context after the cell's `contextPath`), with the
    /// content type of their format; 404 when there is none or it is of no known image format.
    func image(_ row: RowSnapshot, _ s: Int, _ r: Int, _ ws: WebSession) -> WebResponse {
        let bytes: [UInt8]?
        do { bytes = try imageBytes(row, ws) } catch { return notFound("This image could not be read: \(BrowserAdvice.message(for: error))") }
        guard let bytes else { return notFound("This row has no image.") }
        guard let format = WebImageFormat(bytes) else { return notFound("This image is of no format a browser shows.") }
        return WebResponse(status: 200, headers: [("Content-Type", format.contentType), ("Cache-Control", "no-store"),
                                                  ("Content-Security-Policy", format.policy),
                                                  ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin")],
                           body: bytes)
    }

    /// The image's bytes through the engine, from the screen on top of the session's shell (the one shown).
    func imageBytes(_ row: RowSnapshot, _ ws: WebSession) throws -> [UInt8]? {
        let engine = ws.shell.engine
        guard let shownId = ws.shown?.screen.id, let id = row.id else { return nil }
        let value: Value
        if let detail = ws.shell.top as? DetailScreen, detail.id == shownId {
            guard let cell = Self.cell(id, in: detail.declaration), !cell["imagePath"].isEmpty else { return nil }
            let ctx = cell["contextPath"].isEmpty ? detail.context : try engine.get(detail.context, cell["contextPath"], mode: .display).entity
            value = try engine.get(ctx, cell["imagePath"], mode: .display)
        } else if let list = ws.shell.top as? ListScreen, list.id == shownId {
            let cell = list.declaration.cell
            guard !cell["imagePath"].isEmpty, let e = engine.lookup(id: id) else { return nil }
            let ctx = cell["contextPath"].isEmpty ? e : try engine.get(e, cell["contextPath"], mode: .display).entity
            value = try engine.get(ctx, cell["imagePath"], mode: .display)
        } else {
            return nil
        }
        // A base64 text or data: URL (Action Data) holds its bytes; a binary field's metadata entity has them in a
        // side file; an image name (text) has no bytes here.
        if let bytes = try Base64Image.bytes(of: value) { return bytes }
        guard case .entity(let meta) = value else { return nil }
        return try? engine.readBytes(meta)
    }

    /// A detail screen's cell by the id its rows carry (`defaultId`, repeated ones numbered `#2`, `#3`).
    static func cell(_ id: String, in declaration: DetailDeclaration) -> CellDeclaration? {
        declaration.identifiedCells.first { $0.id == id }?.cell
    }

    // MARK: Web cells

    /// The policy a web cell's HTML is served under: sandboxed (no scripts, an origin of its own), nothing loaded
    /// but inline styles and `data:` images, framed only by the app's pages.
    static let webCellPolicy = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'"

    /// `GET /web/<section>/<row>`: a web cell's HTML (its value when that is not an http(s) URL).
    func webCell(_ row: RowSnapshot) -> WebResponse {
        guard row.kind == "web", case .string(let html)? = row.control?.value, !WebApp.isWebURL(html) else {
            return notFound("This row is no web cell with HTML.")
        }
        return WebResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                                                  ("Content-Security-Policy", WebApp.webCellPolicy),
                                                  ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin")],
                           body: Array(html.utf8))
    }

    /// Whether a web cell's value is a page's address (shown as a link) rather than HTML.
    static func isWebURL(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return (t.hasPrefix("https://") || t.hasPrefix("http://")) && !t.contains(where: { $0 == " " || $0 == "<" })
    }
}

/// The image formats a browser shows, by their first bytes (never by what the model or the request says).
enum WebImageFormat {
    case png, jpeg, gif, webp, svg

    init?(_ b: [UInt8]) {
        switch ImageFormat.raster(of: b) {
        case "image/png": self = .png
        case "image/jpeg": self = .jpeg
        case "image/gif": self = .gif
        case "image/webp": self = .webp
        default:
            guard WebImageFormat.isSVG(b) else { return nil }
            self = .svg
        }
    }

    /// Text (after a BOM and white space) starting with `<?xml`, `<!DOCTYPE svg`, `<!--` or `<svg` with an `<svg`
    /// element in its first KiB.
    static func isSVG(_ b: [UInt8]) -> Bool {
        let head = String(decoding: b.prefix(1024), as: UTF8.self)
        let text = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.lowercased()
        guard text.hasPrefix("<?xml") || text.hasPrefix("<svg") || text.hasPrefix("<!doctype svg") || text.hasPrefix("<!--") else { return false }
        return text.contains("<svg")
    }

    var contentType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .gif: return "image/gif"
        case .webp: return "image/webp"
        case .svg: return "image/svg+xml"
        }
    }

    /// An SVG may hold scripts, links and forms (a `<foreignObject>`): opened on its own it runs none, loads nothing
    /// but its inline styles, and is sandboxed (an origin of its own: no form of it posts, nothing of it navigates).
    var policy: String { self == .svg ? "sandbox; default-src 'none'; style-src 'unsafe-inline'" : "default-src 'none'" }
}

/// The URLs pages give images and web cells (`PageContext.imageURL`, `webCellURL`): the row's place on the page,
/// with the page's version so that a changed image is fetched again.
extension WebApp {
    static func imageURL(version: String) -> @Sendable (Int, Int, RowSnapshot) -> String? {
        { s, r, row in
            let hasImage = row.image != nil || (row.kind == "image" && row.control.map { $0.value != .null } == true)
            return hasImage ? "/image/\(s)/\(r)?v=\(version)" : nil
        }
    }

    static func webCellURL(version: String) -> @Sendable (Int, Int, RowSnapshot) -> String? {
        { s, r, row in
            guard row.kind == "web", case .string(let html)? = row.control?.value, !html.isEmpty, !isWebURL(html) else { return nil }
            return "/web/\(s)/\(r)?v=\(version)"
        }
    }
}
